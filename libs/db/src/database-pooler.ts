import type pg from 'pg';

/**
 * Where a process's database connections go when a transaction pooler (PgBouncer with
 * `pool_mode = transaction`) stands in front of Postgres. Behind it, consecutive statements of one
 * client connection may run on different server connections, so nothing may rely on session
 * state: no named prepared statements (PgBouncer before 1.21 does not track them), no SET, no
 * session advisory lock, no startup `options`.
 *
 * Settings (read from the environment, which each app's config validates at boot):
 * - `DATABASE_POOLER`: `none` (default) or `pgbouncer`: DATABASE_URL names the pooler.
 * - `DIRECT_DATABASE_URL`: the same database without the pooler (default: DATABASE_URL). Work that
 *   needs a session of its own (the migrator and its advisory lock, tenant provisioning, project
 *   code's `ctx.db`) goes there: a URL whose host and port are the pooler's (DATABASE_URL's) is
 *   pointed at DIRECT_DATABASE_URL's host and port, the database, role and options kept.
 */
export type DatabasePooler = 'none' | 'pgbouncer';

export const DATABASE_POOLERS: readonly DatabasePooler[] = ['none', 'pgbouncer'];

interface Routes {
  pooler: DatabasePooler;
  /** host:port of the pooler (DATABASE_URL), when there is one. */
  pooled?: string;
  direct?: { hostname: string; port: string };
}

let cached: { key: string; routes: Routes } | undefined;

function routes(env: NodeJS.ProcessEnv): Routes {
  const key = `${env.DATABASE_POOLER ?? ''}\n${env.DATABASE_URL ?? ''}\n${env.DIRECT_DATABASE_URL ?? ''}`;
  if (cached?.key === key) return cached.routes;
  const pooler = (env.DATABASE_POOLER || 'none') as DatabasePooler;
  if (!DATABASE_POOLERS.includes(pooler)) {
    throw new Error(`DATABASE_POOLER must be one of ${DATABASE_POOLERS.join(', ')} (got "${pooler}")`);
  }
  const result: Routes = { pooler };
  if (pooler !== 'none' && env.DATABASE_URL && env.DIRECT_DATABASE_URL) {
    const pooled = new URL(env.DATABASE_URL);
    const direct = new URL(env.DIRECT_DATABASE_URL);
    if (pooled.host !== direct.host) {
      result.pooled = pooled.host;
      result.direct = { hostname: direct.hostname, port: direct.port };
    }
  }
  cached = { key, routes: result };
  return result;
}

/** The pooler this process talks to Postgres through (DATABASE_POOLER). */
export function databasePooler(env: NodeJS.ProcessEnv = process.env): DatabasePooler {
  return routes(env).pooler;
}

/** Whether `url` reaches Postgres through the pooler (its host and port are DATABASE_URL's). */
export function behindPooler(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const { pooler } = routes(env);
  if (pooler === 'none') return false;
  const pooledHost = env.DATABASE_URL ? new URL(env.DATABASE_URL).host : undefined;
  return new URL(url).host === pooledHost;
}

/**
 * `url` without the pooler: for a session of its own (migrations, advisory locks, SET). A URL that
 * does not name the pooler is returned as it is.
 */
export function directDatabaseUrl(url: string, env: NodeJS.ProcessEnv = process.env): string {
  const { pooler, pooled, direct } = routes(env);
  if (pooler !== 'none' && !env.DIRECT_DATABASE_URL && behindPooler(url, env)) {
    throw new Error(
      `DATABASE_POOLER=${pooler} needs DIRECT_DATABASE_URL (Postgres itself) for work that needs a session of its own`,
    );
  }
  if (!pooled || !direct) return url;
  const parsed = new URL(url);
  if (parsed.host !== pooled) return url;
  parsed.hostname = direct.hostname;
  parsed.port = direct.port;
  return parsed.toString();
}

/**
 * A hot statement (`{ name, text, values }`) as this process may send it: named, so each
 * connection parses and plans it once; unnamed behind a pooler, where the next use may land on a
 * server connection that never saw it ("prepared statement … does not exist") or already has it
 * from another client ("… already exists").
 */
export function hotStatement<T extends pg.QueryConfig>(query: T, env: NodeJS.ProcessEnv = process.env): T {
  if (routes(env).pooler === 'none') return query;
  const unnamed = { ...query };
  delete unnamed.name;
  return unnamed;
}
