import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { mainMigrationsDir, tenantMigrationsDir } from './migration-paths.js';
import { migrateDatabase, MigrationError } from './migrator.js';
import { createThrowawayDatabase, withClient, type ThrowawayDatabase } from './testing/throwaway-database.js';

const tempDirs: string[] = [];

/** A migrations folder of its own: name → SQL. */
function migrationsFolder(migrations: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'db-migrations-'));
  tempDirs.push(dir);
  writeFileSync(join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  for (const [name, sql] of Object.entries(migrations)) writeMigration(dir, name, sql);
  return dir;
}

function writeMigration(dir: string, name: string, sql: string): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'migration.sql'), sql);
}

async function rows(url: string, schema = 'public'): Promise<Record<string, unknown>[]> {
  return withClient(url, async (client) => {
    const result = await client.query(
      `SELECT * FROM "${schema}"."_prisma_migrations" ORDER BY started_at, migration_name`,
    );
    return result.rows as Record<string, unknown>[];
  });
}

async function tables(url: string, schema: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const result = await client.query<{ name: string }>(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
      [schema],
    );
    return result.rows.map((row) => row.name);
  });
}

async function rejection(promise: Promise<unknown>): Promise<MigrationError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(MigrationError);
  return error as MigrationError;
}

describe('migrateDatabase (real Postgres)', () => {
  let db: ThrowawayDatabase;

  beforeEach(async () => {
    db = await createThrowawayDatabase();
  });
  afterEach(() => db.drop());
  afterAll(() => {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('applies the main migrations to an empty database, then finds nothing to do', async () => {
    const names = readdirSync(mainMigrationsDir(), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();

    expect(await migrateDatabase({ url: db.url, migrationsDir: mainMigrationsDir() })).toEqual({
      applied: names,
    });
    expect(await tables(db.url, 'public')).toEqual(
      expect.arrayContaining(['jobs', 'projects', '_prisma_migrations']),
    );
    expect(await migrateDatabase({ url: db.url, migrationsDir: mainMigrationsDir() })).toEqual({
      applied: [],
    });
    expect(await rows(db.url)).toHaveLength(names.length);
  });

  it('applies the tenant migrations into platform_auth, keeping its history there too', async () => {
    const first = await migrateDatabase({
      url: db.url,
      migrationsDir: tenantMigrationsDir(),
      schema: 'platform_auth',
    });
    expect(first.applied.length).toBeGreaterThan(0);
    expect(await tables(db.url, 'platform_auth')).toEqual(
      expect.arrayContaining(['users', 'identities', 'sessions', 'nonces', '_prisma_migrations']),
    );
    expect(await tables(db.url, 'public')).toEqual([]);

    // The URL's schema parameter (Prisma's convention) means the same thing as the option.
    const again = await migrateDatabase({
      url: `${db.url}?schema=platform_auth`,
      migrationsDir: tenantMigrationsDir(),
    });
    expect(again).toEqual({ applied: [] });
  });

  it("records each migration exactly as Prisma's migrate deploy does", async () => {
    const dir = migrationsFolder({ '20260101000000_first': 'CREATE TABLE a (id int);\n' });
    const before = new Date();
    await migrateDatabase({ url: db.url, migrationsDir: dir });

    const layout = await withClient(db.url, async (client) => {
      const result = await client.query(
        `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default
           FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
      );
      return result.rows as unknown[];
    });
    expect(layout).toEqual([
      {
        column_name: 'id',
        data_type: 'character varying',
        character_maximum_length: 36,
        is_nullable: 'NO',
        column_default: null,
      },
      {
        column_name: 'checksum',
        data_type: 'character varying',
        character_maximum_length: 64,
        is_nullable: 'NO',
        column_default: null,
      },
      {
        column_name: 'finished_at',
        data_type: 'timestamp with time zone',
        character_maximum_length: null,
        is_nullable: 'YES',
        column_default: null,
      },
      {
        column_name: 'migration_name',
        data_type: 'character varying',
        character_maximum_length: 255,
        is_nullable: 'NO',
        column_default: null,
      },
      {
        column_name: 'logs',
        data_type: 'text',
        character_maximum_length: null,
        is_nullable: 'YES',
        column_default: null,
      },
      {
        column_name: 'rolled_back_at',
        data_type: 'timestamp with time zone',
        character_maximum_length: null,
        is_nullable: 'YES',
        column_default: null,
      },
      {
        column_name: 'started_at',
        data_type: 'timestamp with time zone',
        character_maximum_length: null,
        is_nullable: 'NO',
        column_default: 'now()',
      },
      {
        column_name: 'applied_steps_count',
        data_type: 'integer',
        character_maximum_length: null,
        is_nullable: 'NO',
        column_default: '0',
      },
    ]);

    const [row] = await rows(db.url);
    expect(row).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      checksum: createHash('sha256').update('CREATE TABLE a (id int);\n').digest('hex'),
      migration_name: '20260101000000_first',
      logs: null,
      rolled_back_at: null,
      applied_steps_count: 1,
    });
    const startedAt = row!.started_at as Date;
    const finishedAt = row!.finished_at as Date;
    expect(startedAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1_000);
    expect(finishedAt.getTime()).toBeGreaterThanOrEqual(startedAt.getTime());
  });

  it('applies migrations added later, in name order, and only those', async () => {
    const dir = migrationsFolder({ '20260101000000_first': 'CREATE TABLE a (id int);' });
    await migrateDatabase({ url: db.url, migrationsDir: dir });
    writeMigration(dir, '20260301000000_third', 'ALTER TABLE b ADD COLUMN note text;');
    writeMigration(dir, '20260201000000_second', 'CREATE TABLE b (id int);');

    const result = await migrateDatabase({ url: db.url, migrationsDir: dir });
    expect(result.applied).toEqual(['20260201000000_second', '20260301000000_third']);
  });

  it('refuses to run when an applied migration was edited, but not for changed line endings', async () => {
    const sql = 'CREATE TABLE a (id int);\nCREATE TABLE b (id int);\n';
    const dir = migrationsFolder({ '20260101000000_first': sql });
    await migrateDatabase({ url: db.url, migrationsDir: dir });

    writeMigration(dir, '20260101000000_first', sql.replaceAll('\n', '\r\n'));
    writeMigration(dir, '20260201000000_second', 'CREATE TABLE c (id int);');
    expect(await migrateDatabase({ url: db.url, migrationsDir: dir })).toEqual({
      applied: ['20260201000000_second'],
    });

    writeMigration(dir, '20260101000000_first', 'CREATE TABLE a (id bigint);\nCREATE TABLE b (id int);\n');
    writeMigration(dir, '20260301000000_third', 'CREATE TABLE d (id int);');
    const error = await rejection(migrateDatabase({ url: db.url, migrationsDir: dir }));
    expect(error.code).toBe('checksum-mismatch');
    expect(error.migration).toBe('20260101000000_first');
    expect(error.message).toMatch(/20260101000000_first was changed after it was applied/);
    expect(await tables(db.url, 'public')).not.toContain('d');
  });

  it('rolls a failing migration back completely and retries it once fixed', async () => {
    const dir = migrationsFolder({
      '20260101000000_first': 'CREATE TABLE a (id int);',
      '20260201000000_broken': 'CREATE TABLE b (id int);\nINSERT INTO missing_table VALUES (1);',
    });
    const error = await rejection(migrateDatabase({ url: db.url, migrationsDir: dir }));
    expect(error.code).toBe('migration-failed');
    expect(error.message).toMatch(
      /20260201000000_broken failed and was rolled back: relation "missing_table" does not exist/,
    );
    expect(await tables(db.url, 'public')).toEqual(['_prisma_migrations', 'a']);
    const history = await rows(db.url);
    expect(history[1]).toMatchObject({
      migration_name: '20260201000000_broken',
      finished_at: null,
      rolled_back_at: expect.any(Date),
      applied_steps_count: 0,
      logs: expect.stringMatching(/missing_table/),
    });

    writeMigration(dir, '20260201000000_broken', 'CREATE TABLE b (id int);');
    expect(await migrateDatabase({ url: db.url, migrationsDir: dir })).toEqual({
      applied: ['20260201000000_broken'],
    });
  });

  it('refuses to run after a migration failed half-way (as Prisma leaves it) until it is marked rolled back', async () => {
    const dir = migrationsFolder({ '20260101000000_first': 'CREATE TABLE a (id int);' });
    await migrateDatabase({ url: db.url, migrationsDir: dir });
    writeMigration(dir, '20260201000000_second', 'CREATE TABLE b (id int);');
    await withClient(db.url, (client) =>
      client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs, applied_steps_count)
         VALUES ('00000000-0000-4000-8000-000000000000', 'x', '20260201000000_second', 'syntax error', 0)`,
      ),
    );

    const error = await rejection(migrateDatabase({ url: db.url, migrationsDir: dir }));
    expect(error.code).toBe('failed-migration-found');
    expect(error.message).toMatch(
      /20260201000000_second failed earlier.*prisma migrate resolve --rolled-back/,
    );

    await withClient(db.url, (client) =>
      client.query(
        `UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '20260201000000_second'`,
      ),
    );
    expect(await migrateDatabase({ url: db.url, migrationsDir: dir })).toEqual({
      applied: ['20260201000000_second'],
    });
  });

  it('lets concurrent starts apply each migration exactly once', async () => {
    const dir = migrationsFolder({
      '20260101000000_slow': 'SELECT pg_sleep(0.3);\nCREATE TABLE a (id int);',
      '20260201000000_next': 'CREATE TABLE b (id int);',
    });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => migrateDatabase({ url: db.url, migrationsDir: dir })),
    );

    expect(results.flatMap((result) => result.applied).sort()).toEqual([
      '20260101000000_slow',
      '20260201000000_next',
    ]);
    expect(await rows(db.url)).toHaveLength(2);
  });

  it("waits for Prisma's migration lock and gives up with a clear error after the timeout", async () => {
    const dir = migrationsFolder({ '20260101000000_first': 'CREATE TABLE a (id int);' });
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      // The key prisma migrate deploy takes.
      await holder.query('SELECT pg_advisory_lock(72707369)');
      const error = await rejection(migrateDatabase({ url: db.url, migrationsDir: dir, lockTimeoutMs: 300 }));
      expect(error.code).toBe('lock-timeout');

      const waiting = migrateDatabase({ url: db.url, migrationsDir: dir });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await holder.query('SELECT pg_advisory_unlock(72707369)');
      expect(await waiting).toEqual({ applied: ['20260101000000_first'] });
    } finally {
      await holder.end();
    }
  });

  it('names a missing migrations folder and a migration without its SQL', async () => {
    expect(
      (await rejection(migrateDatabase({ url: db.url, migrationsDir: '/nonexistent/migrations' }))).code,
    ).toBe('migrations-dir-missing');
    const dir = migrationsFolder({});
    mkdirSync(join(dir, '20260101000000_empty'));
    const error = await rejection(migrateDatabase({ url: db.url, migrationsDir: dir }));
    expect(error).toMatchObject({ code: 'migration-sql-missing', migration: '20260101000000_empty' });
  });

  it('reports what it applies to the logger', async () => {
    const dir = migrationsFolder({ '20260101000000_first': 'CREATE TABLE a (id int);' });
    const messages: string[] = [];
    await migrateDatabase({
      url: db.url,
      migrationsDir: dir,
      logger: {
        log: (message) => messages.push(message),
        warn: (message) => messages.push(`warn: ${message}`),
      },
    });
    rmSync(join(dir, '20260101000000_first'), { recursive: true });
    await migrateDatabase({
      url: db.url,
      migrationsDir: dir,
      logger: {
        log: (message) => messages.push(message),
        warn: (message) => messages.push(`warn: ${message}`),
      },
    });
    expect(messages).toEqual([
      'applied migration 20260101000000_first',
      'warn: migration 20260101000000_first is applied but missing from the migrations folder',
    ]);
  });
});
