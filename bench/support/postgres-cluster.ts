import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes.ts';

const run = promisify(execFile);

/**
 * A Postgres cluster of the bench's own, from Debian's binaries (`initdb` and `pg_ctl` of
 * POSTGRES_BIN, default /usr/lib/postgresql/15/bin), in the OS tmpdir on a free loopback port,
 * trusting local connections, removed whole by stop(). As root it runs as the `postgres` user
 * (initdb refuses root).
 */

export const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PostgresCluster {
  port: number;
  /** The cluster's `postgres` database as the superuser `postgres`. */
  adminUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Clusters still running: stopped and removed when the bench exits, however it exits. */
const running = new Set<{ dataDir: string; root: string; asUser?: { uid: number; gid: number } }>();
process.once('exit', () => {
  for (const cluster of running) {
    try {
      execFileSync(join(POSTGRES_BIN, 'pg_ctl'), ['-D', cluster.dataDir, '-m', 'immediate', '-w', 'stop'], {
        ...(cluster.asUser ?? {}),
        stdio: 'ignore',
      });
    } catch {
      // not running
    }
    rmSync(cluster.root, { recursive: true, force: true });
  }
});

export async function startPostgresCluster(options: { maxConnections: number }): Promise<PostgresCluster> {
  for (const tool of ['initdb', 'pg_ctl']) {
    if (!existsSync(join(POSTGRES_BIN, tool)))
      throw new Error(`${join(POSTGRES_BIN, tool)} is missing (Debian's postgresql-15; or set POSTGRES_BIN)`);
  }
  const root = mkdtempSync(join(tmpdir(), 'bench-pg-'));
  const dataDir = join(root, 'data');
  const asUser = await postgresUser();
  if (asUser) chownSync(root, asUser.uid, asUser.gid);
  const exec = (tool: string, args: string[]) =>
    run(join(POSTGRES_BIN, tool), args, {
      ...(asUser ? { uid: asUser.uid, gid: asUser.gid } : {}),
      env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' },
      maxBuffer: 16 * 1024 * 1024,
    });
  const port = await freePort();
  await exec('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  const settings = [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${root}'`,
    `-c max_connections=${options.maxConnections}`,
  ].join(' ');
  await exec('pg_ctl', [
    '-D',
    dataDir,
    '-o',
    settings,
    '-l',
    join(root, 'postgres.log'),
    '-w',
    '-t',
    '60',
    'start',
  ]);
  const entry = { dataDir, root, ...(asUser ? { asUser } : {}) };
  running.add(entry);
  let stopped = false;
  return {
    port,
    adminUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await exec('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      // Thousands of databases: minutes of file deletion on a busy disk, without blocking the bench.
      await rm(root, { recursive: true, force: true });
      running.delete(entry);
    },
  };
}

async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  return { uid: Number(stdout.trim()), gid: Number(group.trim()) };
}
