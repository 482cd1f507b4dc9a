import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';
import { repoRoot } from './processes.ts';

/**
 * Postgres and Redis for the bench, through tools/devstack (the machine's servers when they answer,
 * embedded ones otherwise), a database of its own (`suite_bench`, recreated every run) and a Redis
 * key prefix of its own that is deleted at the end. Nothing else on the servers is touched.
 */

/** BENCH_DATABASE names another, so two bench runs can share one Postgres server. */
export const BENCH_DATABASE = process.env.BENCH_DATABASE ?? 'suite_bench';

export interface BenchInfra {
  databaseUrl: string;
  redisUrl: string;
  /** The server's `postgres` database (superuser): tenant databases of the project host are made from it. */
  adminUrl: string;
  /** Every Redis key of this run starts with it. */
  prefix: string;
  /** Where Postgres and Redis answer (host:port, no credentials). */
  servers: string;
  /**
   * Tenant databases the project host created for this run's projects; `stop()` drops those still
   * listed (a benchmark that deletes its project through the control plane removes it from here).
   */
  tenantProjects: Set<string>;
  stop(): Promise<void>;
}

interface DevstackInfrastructure {
  adminUrl: string;
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/** The subset of ioredis the bench uses (ioredis is a dependency of tools/devstack, not of the root). */
export interface RedisClient {
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'pmessage', listener: (pattern: string, channel: string, message: string) => void): this;
  psubscribe(pattern: string): Promise<unknown>;
  scan(cursor: string, ...args: (string | number)[]): Promise<[string, string[]]>;
  del(...keys: string[]): Promise<number>;
  llen(key: string): Promise<number>;
  info(section: string): Promise<string>;
  disconnect(): void;
}

type RedisConstructor = new (url: string, options?: Record<string, unknown>) => RedisClient;

const devstackRequire = createRequire(join(repoRoot, 'tools', 'devstack', 'package.json'));

export function redisClient(url: string): RedisClient {
  const { Redis } = devstackRequire('ioredis') as { Redis: RedisConstructor };
  const client = new Redis(url, { maxRetriesPerRequest: 2, connectionName: 'bench' });
  client.on('error', () => undefined);
  return client;
}

/** Jobs waiting in the browser-jobs queue of a Redis prefix (BullMQ's wait list). */
export async function queuedJobs(redisUrl: string, prefix: string): Promise<number> {
  const redis = redisClient(redisUrl);
  try {
    return await redis.llen(`${prefix}:browser-jobs:wait`);
  } finally {
    redis.disconnect();
  }
}

export async function prepareBenchInfra(): Promise<BenchInfra> {
  const module = join(repoRoot, 'tools', 'devstack', 'dist', 'infrastructure.js');
  if (!existsSync(module)) throw new Error(`${module} is missing: run \`pnpm run build\` first`);
  const { prepareInfrastructure } = (await import(module)) as {
    prepareInfrastructure: (
      dataDir: string,
      options: { database?: string; recreate?: boolean },
    ) => Promise<DevstackInfrastructure>;
  };
  const dataDir = process.env.SUITE_DATA_DIR || join(repoRoot, '.data');
  const infra = await prepareInfrastructure(dataDir, { database: BENCH_DATABASE, recreate: true });
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const tenantProjects = new Set<string>();
  return {
    databaseUrl: infra.databaseUrl,
    redisUrl: infra.redisUrl,
    adminUrl: infra.adminUrl,
    prefix,
    servers: `postgres ${new URL(infra.adminUrl).host}, redis ${new URL(infra.redisUrl).host}`,
    tenantProjects,
    stop: async () => {
      await dropTenantDatabases(infra.adminUrl, tenantProjects).catch(() => undefined);
      await clearRedisPrefix(infra.redisUrl, prefix).catch(() => undefined);
      await infra.stop();
    },
  };
}

interface TenantProvisioning {
  dropTenantDatabase(options: { adminUrl: string; projectId: string }): Promise<boolean>;
  tenantDatabaseName(projectId: string): string;
}

/** libs/db's tenant naming and dropping, from its build (the bench runs no TypeScript of the libs). */
const tenantProvisioning = async (): Promise<TenantProvisioning> =>
  (await import(join(repoRoot, 'libs', 'db', 'dist', 'tenant-provisioning.js'))) as TenantProvisioning;

/** The URL of a project's tenant database (schema platform_auth), on the admin URL's server. */
export async function tenantDatabaseUrl(adminUrl: string, projectId: string): Promise<string> {
  const url = new URL(adminUrl);
  url.pathname = `/${(await tenantProvisioning()).tenantDatabaseName(projectId)}`;
  return url.toString();
}

/** Drops the tenant databases of `projects` (with libs/db's own naming), forgetting each one dropped. */
export async function dropTenantDatabases(adminUrl: string, projects: Set<string>): Promise<void> {
  if (projects.size === 0) return;
  const { dropTenantDatabase } = await tenantProvisioning();
  for (const projectId of [...projects]) {
    await dropTenantDatabase({ adminUrl, projectId });
    projects.delete(projectId);
  }
}

/** Deletes every key starting with `prefix` (this run's queues, locks and event channels). */
export async function clearRedisPrefix(url: string, prefix: string): Promise<number> {
  if (!/^bench-[0-9a-f]+/.test(prefix))
    throw new Error(`refusing to clear a prefix that is not the bench's: ${prefix}`);
  const redis = redisClient(url);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

export async function sql<T = Record<string, unknown>>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}
