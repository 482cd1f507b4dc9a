import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { BudgetedPool } from './budgeted-pool.js';
import type { ConnectionBudget, ConnectionKind } from './connection-budget.js';
import { urlSchema } from './connection-url.js';
import { behindPooler } from './database-pooler.js';
import { PrismaClient as MainPrismaClient } from './generated/main/client.js';
import { PrismaClient as TenantPrismaClient } from './generated/tenant/client.js';

/** Schema of a tenant database that holds the project's end users. */
export const TENANT_SCHEMA = 'platform_auth';

export type MainClient = MainPrismaClient;
export type TenantClient = TenantPrismaClient;

export interface ClientOptions {
  /** Pool size. Default: 10 for the main database, 5 for a tenant (there are many tenants). */
  maxConnections?: number;
  /**
   * The process's connection budget, which every pool of the process shares: connections take a
   * slot before they open, a checkout waits at most its waitMs (then ConnectionBudgetError), and
   * Postgres's "too many clients" is retried within that wait.
   */
  budget?: ConnectionBudget;
  /** application_name of the connections, as pg_stat_activity shows them (default: the budget's). */
  applicationName?: string;
}

const pools = new WeakMap<object, pg.Pool>();

/**
 * The node-postgres pool under a client made here, for the few hot statements the services write
 * in SQL: a named statement (`{ name, text, values }`) is parsed and planned once per connection,
 * and skips Prisma's query layer. On the main database unqualified names are the client's schema.
 */
export function sqlPool(client: MainClient | TenantClient): pg.Pool {
  const pool = pools.get(client);
  if (!pool) throw new Error('sqlPool: the client was not made by createMainClient or createTenantClient');
  return pool;
}

/**
 * `searchPath`: only for a main database in another schema than `public` (the URL's `schema`
 * parameter). Otherwise the connection keeps the role's own search_path: a tenant's project role
 * (ctx.db) has `app` as its default, and the hot statements on a tenant name `platform_auth` outright.
 */
function poolFor(
  url: string,
  kind: ConnectionKind,
  options: ClientOptions,
  config: pg.PoolConfig,
  searchPath?: string,
): pg.Pool {
  const plain = searchPath !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(searchPath);
  const { budget } = options;
  const applicationName = options.applicationName ?? budget?.applicationName;
  const poolConfig: pg.PoolConfig = {
    connectionString: url,
    ...config,
    // A pool never needs more connections than the budget lets its kind hold.
    ...(budget
      ? { max: Math.min(config.max ?? 10, kind === 'main' ? budget.size : budget.tenantLimit) }
      : {}),
    ...(applicationName ? { application_name: applicationName } : {}),
    // A transaction pooler refuses startup options (and would not keep them per session): behind
    // one, the role's own search_path must name the schema (ALTER ROLE ... SET search_path).
    ...(plain && !behindPooler(url) ? { options: `-c search_path=${searchPath}` } : {}),
  };
  const pool = budget ? new BudgetedPool(poolConfig, budget, kind) : new pg.Pool(poolConfig);
  // An idle connection that breaks (Postgres restarting) is dropped; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Prisma client of the main database (runner and control plane), over node-postgres. Its tables
 * are in `public`, or in the schema named by the URL's `schema` parameter (as the migrator reads it).
 */
export function createMainClient(url: string, options: ClientOptions = {}): MainClient {
  const schema = urlSchema(url) ?? 'public';
  const pool = poolFor(
    url,
    'main',
    options,
    { max: options.maxConnections ?? 10 },
    schema === 'public' ? undefined : schema,
  );
  const client = new MainPrismaClient({
    adapter: new PrismaPg(pool, { schema, disposeExternalPool: true }),
  });
  pools.set(client, pool);
  return client;
}

/** Prisma client of one tenant database (schema platform_auth), over node-postgres. */
export function createTenantClient(url: string, options: ClientOptions = {}): TenantClient {
  // Idle tenants give their connections back quickly: a host serves many projects.
  const pool = poolFor(url, 'tenant', options, {
    max: options.maxConnections ?? 5,
    idleTimeoutMillis: 10_000,
  });
  const client = new TenantPrismaClient({
    adapter: new PrismaPg(pool, { schema: TENANT_SCHEMA, disposeExternalPool: true }),
  });
  pools.set(client, pool);
  return client;
}

/** Tenant clients kept beyond those with open connections (the least recently used go first). */
const KEPT_IDLE_CLIENTS = 50;

/**
 * One tenant client per database URL, created on first use; connections close when idle (or
 * sooner, when the process's connection budget needs room). Past KEPT_IDLE_CLIENTS the least
 * recently used clients without a connection are forgotten, so a host that served thousands of
 * tenants does not keep a client for each. A forgotten client is not ended: a caller that still
 * holds it can use it (it opens a connection again, within the budget).
 */
export class TenantClientCache {
  private readonly clients = new Map<string, TenantClient>();

  constructor(private readonly options: ClientOptions = {}) {}

  get(url: string): TenantClient {
    let client = this.clients.get(url);
    if (client) {
      // Map order is use order: the first entries are the least recently used.
      this.clients.delete(url);
      this.clients.set(url, client);
      return client;
    }
    client = createTenantClient(url, this.options);
    this.clients.set(url, client);
    this.forgetUnused();
    return client;
  }

  /** Disconnects and forgets one tenant's client (e.g. before its database is dropped). */
  async delete(url: string): Promise<void> {
    const client = this.clients.get(url);
    this.clients.delete(url);
    await client?.$disconnect();
  }

  async disconnectAll(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.allSettled(clients.map((client) => client.$disconnect()));
  }

  private forgetUnused(): void {
    let excess = this.clients.size - KEPT_IDLE_CLIENTS;
    for (const [url, client] of this.clients) {
      if (excess <= 0) return;
      const pool = pools.get(client);
      if (pool && pool.totalCount === 0 && pool.waitingCount === 0) {
        this.clients.delete(url);
        excess -= 1;
      }
    }
  }
}
