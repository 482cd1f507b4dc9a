import { spawn } from 'node:child_process';
import { databaseUrl } from './connection-url.js';
import { directDatabaseUrl } from './database-pooler.js';
import type { MigrationLogger } from './migrator.js';
import { quoteIdent } from './sql-identifiers.js';
import {
  ensureTenantRoleExists,
  provisionTenantDatabase,
  tenantDatabaseName,
  TenantDatabaseMissingError,
  withAdmin,
} from './tenant-provisioning.js';

/**
 * Makes a tenant database read-only for every session (`false` lifts it again): a write then
 * fails with SQLSTATE 25006, which the apps answer as 503 temporarily_unavailable. New sessions
 * start with the new default, and the sessions opened before are ended: idle ones at once, busy
 * ones as soon as their statement or transaction is over (so a write in flight finishes and is
 * copied), whatever is still busy after `drainMs` anyway.
 */
export async function setTenantReadOnly(
  adminUrl: string,
  database: string,
  readOnly: boolean,
  drainMs = 5_000,
): Promise<void> {
  await withAdmin(adminUrl, async (admin) => {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) throw new TenantDatabaseMissingError(database);
    const db = quoteIdent(database);
    await admin.query(
      readOnly
        ? `ALTER DATABASE ${db} SET default_transaction_read_only = on`
        : `ALTER DATABASE ${db} RESET default_transaction_read_only`,
    );
    // Sessions keep the default they started with: those opened before the change are ended.
    const { rows } = await admin.query<{ at: Date }>('SELECT clock_timestamp() AS at');
    const alteredAt = rows[0]!.at;
    const older = `datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND backend_start <= $2`;
    const deadline = Date.now() + drainMs;
    for (;;) {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${older} AND state = 'idle'`,
        [database, alteredAt],
      );
      const busy = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE ${older}`, [database, alteredAt]);
      if (!busy.rowCount) return;
      if (Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${older}`, [
      database,
      alteredAt,
    ]);
  });
}

export interface CopyTenantOptions {
  projectId: string;
  /** Admin URLs of the two servers. */
  fromAdminUrl: string;
  toAdminUrl: string;
  logger?: MigrationLogger;
  /** pg_dump and pg_restore to run (PATH lookup by default; PG_DUMP / PG_RESTORE override). */
  pgDump?: string;
  pgRestore?: string;
}

/**
 * Copies the project's tenant database to another server with pg_dump | pg_restore: a leftover
 * copy of an earlier attempt is replaced, the project's role is created there first (it owns
 * the schema `app` and project code's tables, which keep their owner), then grants and the
 * platform_auth migrations are ensured as for a new tenant. Make the source read-only first
 * (setTenantReadOnly), or writes made during the copy are lost.
 */
export async function copyTenantDatabase(options: CopyTenantOptions): Promise<void> {
  const database = tenantDatabaseName(options.projectId);
  await withAdmin(options.toAdminUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${quoteIdent(database)}`);
  });
  await ensureTenantRoleExists(options.toAdminUrl, options.projectId);
  // pg_dump and pg_restore need sessions of their own: never through a transaction pooler.
  const source = connectionOf(directDatabaseUrl(databaseUrl(options.fromAdminUrl, database)));
  const target = connectionOf(directDatabaseUrl(databaseUrl(options.toAdminUrl, database)));
  const started = Date.now();
  await pipe(
    {
      command: options.pgDump ?? process.env.PG_DUMP ?? 'pg_dump',
      args: ['--format=custom', '--no-password', `--dbname=${source.url}`],
      env: source.env,
    },
    {
      command: options.pgRestore ?? process.env.PG_RESTORE ?? 'pg_restore',
      args: ['--exit-on-error', '--single-transaction', '--no-password', `--dbname=${target.url}`],
      env: target.env,
    },
  );
  options.logger?.log(`copied tenant database ${database} in ${Date.now() - started} ms`);
  await provisionTenantDatabase({
    adminUrl: options.toAdminUrl,
    projectId: options.projectId,
    createIfMissing: false,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/**
 * A URL without its password and the environment that carries it (PGPASSWORD), so the password
 * never shows in the process list.
 */
function connectionOf(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.PGPASSWORD;
  if (password) env.PGPASSWORD = password;
  return { url: parsed.toString(), env };
}

interface Step {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** Runs `from | to`; rejects with either one's exit status and the last lines it printed. */
function pipe(from: Step, to: Step): Promise<void> {
  return new Promise((resolve, reject) => {
    const dump = spawn(from.command, from.args, { env: from.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const restore = spawn(to.command, to.args, { env: to.env, stdio: ['pipe', 'ignore', 'pipe'] });
    const errors = { dump: '', restore: '' };
    dump.stderr.on('data', (chunk: Buffer) => (errors.dump = (errors.dump + chunk.toString()).slice(-2000)));
    restore.stderr.on(
      'data',
      (chunk: Buffer) => (errors.restore = (errors.restore + chunk.toString()).slice(-2000)),
    );
    dump.stdout.pipe(restore.stdin);
    restore.stdin.on('error', () => undefined);
    let pending = 2;
    let failure: Error | undefined;
    const settle =
      (name: 'dump' | 'restore', command: string) => (code: number | null, signal: string | null) => {
        if ((code !== 0 || signal) && !failure) {
          failure = new Error(
            `${command} ${signal ? `was killed (${signal})` : `exited with ${code}`}: ${errors[name].trim() || 'no output'}`,
          );
          (name === 'dump' ? restore : dump).kill('SIGTERM');
        }
        if (--pending === 0) {
          if (failure) reject(failure);
          else resolve();
        }
      };
    dump.on('error', (error) => {
      failure ??= new Error(`cannot run ${from.command}: ${error.message} (install postgresql-client)`);
    });
    restore.on('error', (error) => {
      failure ??= new Error(`cannot run ${to.command}: ${error.message} (install postgresql-client)`);
    });
    dump.on('close', settle('dump', from.command));
    restore.on('close', settle('restore', to.command));
  });
}
