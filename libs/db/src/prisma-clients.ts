import { PrismaPg } from '@prisma/adapter-pg';
import { urlSchema } from './connection-url.js';
import { PrismaClient as MainPrismaClient } from './generated/main/client.js';
import { PrismaClient as TenantPrismaClient } from './generated/tenant/client.js';

/** Schema of a tenant database that holds the project's end users. */
export const TENANT_SCHEMA = 'platform_auth';

export type MainClient = MainPrismaClient;
export type TenantClient = TenantPrismaClient;

export interface ClientOptions {
  /** Pool size. Default: 10 for the main database, 5 for a tenant (there are many tenants). */
  maxConnections?: number;
}

/**
 * Prisma client of the main database (runner and control plane), over node-postgres. Its tables
 * are in `public`, or in the schema named by the URL's `schema` parameter (as the migrator reads it).
 */
export function createMainClient(url: string, options: ClientOptions = {}): MainClient {
  return new MainPrismaClient({
    adapter: new PrismaPg(
      { connectionString: url, max: options.maxConnections ?? 10 },
      { schema: urlSchema(url) ?? 'public' },
    ),
  });
}

/** Prisma client of one tenant database (schema platform_auth), over node-postgres. */
export function createTenantClient(url: string, options: ClientOptions = {}): TenantClient {
  return new TenantPrismaClient({
    adapter: new PrismaPg(
      // Idle tenants give their connections back quickly: a host serves many projects.
      { connectionString: url, max: options.maxConnections ?? 5, idleTimeoutMillis: 10_000 },
      { schema: TENANT_SCHEMA },
    ),
  });
}

/** One tenant client per database URL, created on first use; connections close when idle. */
export class TenantClientCache {
  private readonly clients = new Map<string, TenantClient>();

  constructor(private readonly options: ClientOptions = {}) {}

  get(url: string): TenantClient {
    let client = this.clients.get(url);
    if (!client) {
      client = createTenantClient(url, this.options);
      this.clients.set(url, client);
    }
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
}
