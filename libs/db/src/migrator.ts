import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { urlSchema } from './connection-url.js';
import { directDatabaseUrl } from './database-pooler.js';
import { quoteIdent } from './sql-identifiers.js';

export interface MigrationLogger {
  log(message: string): void;
  warn(message: string): void;
}

export interface MigrateDatabaseOptions {
  /** postgres:// URL of the database to migrate. */
  url: string;
  /** A Prisma migrations folder: one sub-folder per migration holding migration.sql. */
  migrationsDir: string;
  /**
   * Schema that holds `_prisma_migrations` and is first on the search path while migrations run,
   * as Prisma's `?schema=` does. Default: the URL's `schema` parameter, else `public`.
   */
  schema?: string;
  logger?: MigrationLogger;
  /** How long to wait for another migrator to finish. Default 120 s. */
  lockTimeoutMs?: number;
}

export type MigrationErrorCode =
  | 'migrations-dir-missing'
  | 'migration-sql-missing'
  | 'checksum-mismatch'
  | 'failed-migration-found'
  | 'migration-failed'
  | 'lock-timeout';

export class MigrationError extends Error {
  constructor(
    readonly code: MigrationErrorCode,
    message: string,
    readonly migration?: string,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

interface LocalMigration {
  name: string;
  sql: string;
  checksum: string;
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
}

// The key `prisma migrate deploy` locks too, so this migrator and Prisma's never run at once.
const PRISMA_ADVISORY_LOCK_KEY = 72707369;

const silent: MigrationLogger = { log: () => undefined, warn: () => undefined };

/**
 * Applies the migrations of `migrationsDir` that the database has not seen, in name order, each in
 * its own transaction, recording them in `_prisma_migrations` exactly as Prisma does, so
 * `prisma migrate status/deploy` and this function can take turns on the same database.
 * Refuses to run when an applied migration was edited or an earlier attempt failed half-way.
 */
export async function migrateDatabase(options: MigrateDatabaseOptions): Promise<{ applied: string[] }> {
  const logger = options.logger ?? silent;
  const schema = options.schema ?? urlSchema(options.url) ?? 'public';
  const local = readMigrations(options.migrationsDir);

  // A session of its own (SET, the advisory lock), so never through a transaction pooler.
  const client = new pg.Client({ connectionString: directDatabaseUrl(options.url) });
  // A dropped connection rejects the running query; without a listener it would also crash the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await lock(client, options.lockTimeoutMs ?? 120_000);
    const table = `${quoteIdent(schema)}."_prisma_migrations"`;
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(`SET search_path TO ${quoteIdent(schema)}`);
    await client.query(PRISMA_MIGRATIONS_TABLE(table));

    const { rows } = await client.query<MigrationRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at, logs FROM ${table} ORDER BY started_at`,
    );
    const pending = plan(local, rows, logger);

    const applied: string[] = [];
    for (const migration of pending) {
      await apply(client, table, migration);
      logger.log(`applied migration ${migration.name}`);
      applied.push(migration.name);
    }
    return { applied };
  } finally {
    // Ending the session releases the advisory lock even when the unlock is never reached.
    await client.end().catch(() => undefined);
  }
}

/** sha256 hex of a migration script: the value Prisma keeps in `_prisma_migrations.checksum`. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

const PRISMA_MIGRATIONS_TABLE = (table: string): string => `
  CREATE TABLE IF NOT EXISTS ${table} (
    "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"            VARCHAR(64) NOT NULL,
    "finished_at"         TIMESTAMPTZ,
    "migration_name"      VARCHAR(255) NOT NULL,
    "logs"                TEXT,
    "rolled_back_at"      TIMESTAMPTZ,
    "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`;

function readMigrations(dir: string): LocalMigration[] {
  if (!existsSync(dir)) {
    throw new MigrationError('migrations-dir-missing', `no migrations folder at ${dir}`);
  }
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => {
      const file = join(dir, name, 'migration.sql');
      if (!existsSync(file)) {
        throw new MigrationError(
          'migration-sql-missing',
          `migration ${name} has no migration.sql (${file})`,
          name,
        );
      }
      const sql = readFileSync(file, 'utf8');
      return { name, sql, checksum: migrationChecksum(sql) };
    });
}

/** The migrations still to apply, after checking that history and local files agree. */
function plan(local: LocalMigration[], rows: MigrationRow[], logger: MigrationLogger): LocalMigration[] {
  const live = rows.filter((row) => row.rolled_back_at === null);
  const failed = live.find((row) => row.finished_at === null);
  if (failed) {
    throw new MigrationError(
      'failed-migration-found',
      `migration ${failed.migration_name} failed earlier and was not rolled back` +
        (failed.logs ? ` (${failed.logs.trim().split('\n')[0]})` : '') +
        `; repair the database, then mark it with \`prisma migrate resolve --rolled-back ${failed.migration_name}\`` +
        ` or UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '${failed.migration_name}'`,
      failed.migration_name,
    );
  }
  const byName = new Map(local.map((migration) => [migration.name, migration]));
  for (const row of live) {
    const file = byName.get(row.migration_name);
    if (!file) {
      logger.warn(`migration ${row.migration_name} is applied but missing from the migrations folder`);
    } else if (!checksumMatches(file.sql, row.checksum)) {
      throw new MigrationError(
        'checksum-mismatch',
        `migration ${row.migration_name} was changed after it was applied (checksum ${file.checksum}, applied ${row.checksum}); ` +
          'restore the applied file and put the change in a new migration',
        row.migration_name,
      );
    }
  }
  const done = new Set(live.map((row) => row.migration_name));
  return local.filter((migration) => !done.has(migration.name));
}

// Same leniency as Prisma: line endings changed by git on checkout do not count as an edit, and
// checksums written by old Prisma versions lack zero padding.
function checksumMatches(sql: string, checksum: string): boolean {
  const variants = [sql, sql.replaceAll('\r\n', '\n'), sql.replaceAll('\n', '\r\n')];
  return variants.some((variant) => {
    const digest = createHash('sha256').update(variant, 'utf8').digest();
    const rendered =
      checksum.length === 64
        ? digest.toString('hex')
        : Array.from(digest, (byte) => byte.toString(16)).join('');
    return rendered === checksum;
  });
}

async function apply(client: pg.Client, table: string, migration: LocalMigration): Promise<void> {
  const id = randomUUID();
  const startedAt = new Date();
  try {
    await client.query('BEGIN');
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO ${table} (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, $4, clock_timestamp(), 1)`,
      [id, migration.checksum, migration.name, startedAt],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const message = describe(error);
    // The failed attempt stays on record like Prisma's, but marked rolled back because the
    // transaction really did undo it: the next start retries the fixed migration instead of refusing.
    await client
      .query(
        `INSERT INTO ${table} (id, checksum, migration_name, started_at, logs, rolled_back_at, applied_steps_count)
         VALUES ($1, $2, $3, $4, $5, clock_timestamp(), 0)`,
        [id, migration.checksum, migration.name, startedAt, message],
      )
      .catch(() => undefined);
    throw new MigrationError(
      'migration-failed',
      `migration ${migration.name} failed and was rolled back: ${message}`,
      migration.name,
    );
  }
}

async function lock(client: pg.Client, timeoutMs: number): Promise<void> {
  // lock_timeout bounds the wait for the advisory lock; it is reset before migrations run.
  await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK_KEY]);
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') {
      throw new MigrationError(
        'lock-timeout',
        `another migration held the database's migration lock for more than ${timeoutMs} ms`,
      );
    }
    throw error;
  }
  await client.query('RESET lock_timeout');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { detail, hint, position } = error as { detail?: string; hint?: string; position?: string };
  return [
    error.message,
    detail && `detail: ${detail}`,
    hint && `hint: ${hint}`,
    position && `at character ${position}`,
  ]
    .filter(Boolean)
    .join('; ');
}
