import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './app-process.js';

// A second, throwaway Postgres server for the specs that place tenant databases on two servers:
// a cluster of Debian's binaries (initdb, pg_ctl) on a free loopback port, data under the OS temp
// folder, trust authentication. initdb refuses root, so as root it runs as the `postgres` user.

export interface SecondPostgres {
  port: number;
  /** The `postgres` database of the server, as the superuser `postgres` (no password: trust). */
  adminUrl: string;
  stop(): Promise<void>;
}

const PG_ROOT = '/usr/lib/postgresql';

/** The bin folder of the newest Debian Postgres with initdb and pg_ctl, or undefined. */
export function postgresBinaries(): string | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(PG_ROOT, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

/** Why a second server cannot start here (no binaries, no user to run them as), or undefined. */
export function secondPostgresUnavailable(): string | undefined {
  if (!postgresBinaries()) return `no Postgres server binaries (initdb, pg_ctl) under ${PG_ROOT}`;
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) {
    return 'running as root and there is no postgres user to run initdb as';
  }
  return undefined;
}

export async function startSecondPostgres(): Promise<SecondPostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(secondPostgresUnavailable());
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]): void => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]]
      : [join(bin, command), args];
    execFileSync(file, argv, { stdio: 'pipe', timeout: 120_000 });
  };
  const dir = mkdtempSync(join(tmpdir(), 'second-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const port = await freePort();
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=60`,
      'start',
    ]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`the second Postgres did not start: ${stderr || (error as Error).message}`, {
      cause: error,
    });
  }
  return {
    port,
    adminUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
