import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClient } from '../../libs/db/src/testing/throwaway-database.js';
import { freePort } from './app-process.js';

/** Debian's PgBouncer (scripts/setup.sh installs it); PGBOUNCER_PATH names another. */
export const PGBOUNCER_PATH = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';

export interface PgBouncer {
  port: number;
  /** `url` with the pooler's host and port instead of Postgres's (same role, database, options). */
  through(url: string): string;
  /** The admin console's SHOW <what> (STATS, POOLS, SERVERS...), rows as objects. */
  show(what: string): Promise<Record<string, unknown>[]>;
  output(): string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Server connections per database and role (PgBouncer's default_pool_size). */
  poolSize?: number;
}

/**
 * A real PgBouncer in transaction pooling mode in front of the Postgres of `serverUrl`, on a free
 * loopback port, its files in the OS tmpdir. Every database of the server is reachable through it
 * (`*`), and it trusts the client's role as the test Postgres does; the role of `serverUrl` is its
 * admin, for SHOW.
 */
export async function startPgBouncer(serverUrl: string, options: PgBouncerOptions = {}): Promise<PgBouncer> {
  if (!existsSync(PGBOUNCER_PATH)) {
    throw new Error(
      `PgBouncer is not installed at ${PGBOUNCER_PATH} (scripts/setup.sh installs it; or set PGBOUNCER_PATH)`,
    );
  }
  const server = new URL(serverUrl);
  const role = decodeURIComponent(server.username || 'postgres');
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'pgbouncer-'));
  const ini = join(dir, 'pgbouncer.ini');
  const users = join(dir, 'userlist.txt');
  await writeFile(users, `"${role}" ""\n`);
  await writeFile(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      `admin_users = ${role}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 2}`,
      'max_client_conn = 1000',
      // What node-postgres and Prisma's adapter send at connect time.
      'ignore_startup_parameters = extra_float_digits',
      'server_check_delay = 0',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: as root (CI), it drops to `nobody`, who must read its files.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    await chmod(dir, 0o755);
    await Promise.all([chmod(ini, 0o644), chmod(users, 0o644)]);
  }
  const child: ChildProcess = spawn(PGBOUNCER_PATH, [...(asRoot ? ['-u', 'nobody'] : []), ini], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const through = (url: string): string => {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(port);
    return parsed.toString();
  };
  const admin = through(new URL('/pgbouncer', serverUrl).toString());
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await withClient(through(serverUrl), (client) => client.query('SELECT 1'));
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${output}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    port,
    through,
    // The admin console speaks the simple query protocol only: a query without parameters.
    show: async (what) => (await withClient(admin, (client) => client.query(`SHOW ${what}`))).rows,
    output: () => output,
    stop,
  };
}
