import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  DEFAULT_TENANT_SERVER,
  dropTenantDatabase,
  provisionTenantDatabase,
  tenantDatabaseName,
  TenantServers,
} from '@suite/db';
import { randomUUID } from 'node:crypto';
import { adminUrl, withClient } from '../../../../libs/db/src/testing/throwaway-database.js';
import { databaseUrl } from '../../../../libs/db/src/connection-url.js';
import type { ProjectDirectory } from '../tenants/project-directory.js';
import type { ProjectRuntimeConfig } from '../runtime.config.js';
import { cancelBackend } from './postgres-cancel.js';
import { ProjectDatabase, type QueryResult } from './project-database.js';

// ctx.db's limits against a real Postgres: each project gets a tenant database and role of its
// own, and the service is used the way the sandbox's effect calls use it.

const MB = 1024 * 1024;
const LIMITS = {
  PROJECT_DB_STATEMENT_TIMEOUT_MS: 1_000,
  PROJECT_DB_MAX_ROWS: 1_000,
  PROJECT_DB_MAX_RESULT_KB: 64,
  PROJECT_DB_QUOTA_MB: 24,
  PROJECT_DB_TEMP_FILE_LIMIT_MB: 1,
};

// The control plane's part: each project's row names its server, and its database exists (the
// control plane creates it with the project). The directory's own reading of rows is
// project-directory.spec.ts's.
const tenantServers = TenantServers.fromSettings({
  TENANT_ADMIN_DATABASE_URL: adminUrl(),
  DATABASE_URL: adminUrl(),
});
const directory = {
  byId: async (projectId: string) => {
    await provisionTenantDatabase({ adminUrl: adminUrl(), projectId });
    return { id: projectId, tenantServer: DEFAULT_TENANT_SERVER };
  },
  serverOf: (location: { tenantServer: string }) => tenantServers.server(location.tenantServer),
  forget: () => undefined,
  onMove: () => () => undefined,
} as unknown as ProjectDirectory;

const services: ProjectDatabase[] = [];
const projects: string[] = [];

function service(limits: Partial<typeof LIMITS> = {}): ProjectDatabase {
  const config = {
    AUTH_SECRET: 'project-database-spec-secret-0123456789abcdef',
    ...LIMITS,
    ...limits,
  } as unknown as ProjectRuntimeConfig;
  const created = new ProjectDatabase(config, directory);
  services.push(created);
  return created;
}

function newProject(): string {
  const id = randomUUID();
  projects.push(id);
  return id;
}

/** What project code sees: the result, or the message of the refusal. */
async function attempt(
  db: ProjectDatabase,
  projectId: string,
  sql: string,
  params: unknown[] = [],
): Promise<{ ok?: QueryResult; error?: string }> {
  try {
    return { ok: await db.query(projectId, { sql, params }) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

async function sizeOf(db: ProjectDatabase, projectId: string): Promise<number> {
  const { rows } = await db.query(projectId, {
    sql: 'SELECT pg_database_size(current_database()) AS size',
  });
  return Number(rows[0]!.size);
}

afterAll(async () => {
  for (const db of services) await db.onApplicationShutdown();
  for (const projectId of projects) await dropTenantDatabase({ adminUrl: adminUrl(), projectId });
});

describe('the statement timeout is the host’s', () => {
  const db = service();
  const project = newProject();

  it('a SET of the project does not outlive its call, on any pooled connection', async () => {
    const unset = () =>
      attempt(db, project, "SELECT set_config('statement_timeout', '0', false), pg_sleep(0.1)");
    // Three at once: every connection of the pool runs one.
    expect((await Promise.all([unset(), unset(), unset()])).every((r) => r.ok)).toBe(true);
    const shown = await Promise.all(
      [1, 2, 3].map(() =>
        attempt(db, project, 'SELECT current_setting($1) AS v, pg_sleep(0.1)', ['statement_timeout']),
      ),
    );
    expect(shown.map((r) => r.ok?.rows[0]?.v)).toEqual(['1s', '1s', '1s']);
    expect(await attempt(db, project, 'SET statement_timeout = 0')).toEqual({
      ok: { rows: [], rowCount: 0 },
    });
    expect(await attempt(db, project, 'SELECT pg_sleep(30)')).toEqual({
      error: 'ctx.db.query: the statement was stopped at the limit of 1000 ms per statement',
    });
  });

  it('stops a statement that lifts the timeout inside itself', async () => {
    const stopped = {
      error: 'ctx.db.query: the statement was stopped at the limit of 1000 ms per statement',
    };
    expect(
      await attempt(db, project, "SELECT set_config('statement_timeout', '0', false), pg_sleep(30)"),
    ).toEqual(stopped);
    expect(
      await attempt(db, project, 'DO $$ BEGIN SET statement_timeout = 0; PERFORM pg_sleep(30); END $$'),
    ).toEqual(stopped);
  });

  it('keeps its session defaults when the role changes its own', async () => {
    expect(
      (await attempt(db, project, 'ALTER ROLE CURRENT_USER SET statement_timeout = 0')).ok,
    ).toBeDefined();
    const fresh = service();
    expect(await attempt(fresh, project, 'SELECT pg_sleep(30)')).toEqual({
      error: 'ctx.db.query: the statement was stopped at the limit of 1000 ms per statement',
    });
  });

  it('refuses transaction control, as each call is a transaction of its own', async () => {
    expect((await attempt(db, project, 'BEGIN')).error).toBe(
      'ctx.db.query: BEGIN, COMMIT, ROLLBACK and SAVEPOINT are not available: each call runs in a transaction of its own',
    );
    expect((await attempt(db, project, 'CREATE TABLE t (x int)')).ok).toBeDefined();
    expect((await attempt(db, project, 'CREATE INDEX CONCURRENTLY t_x ON t (x)')).error).toBe(
      'ctx.db.query: CREATE INDEX CONCURRENTLY cannot run inside a transaction block (each call runs in a transaction of its own)',
    );
    expect(await attempt(db, project, 'VACUUM t')).toEqual({ ok: { rows: [], rowCount: 0 } });
  });
});

describe('the rows and bytes a call returns are capped', () => {
  // A statement timeout far above what the caps need: on a busy machine the 1 s one could stop a
  // statement before its 1,001st row arrived, and the cap is what these tests are about.
  const db = service({ PROJECT_DB_STATEMENT_TIMEOUT_MS: 30_000 });
  const project = newProject();

  it('refuses more rows than the cap, however many the statement would make', async () => {
    expect((await attempt(db, project, 'SELECT generate_series(1, 1000) AS n')).ok?.rowCount).toBe(1000);
    const refused = { error: 'ctx.db.query: more than 1000 rows; add a LIMIT' };
    expect(await attempt(db, project, 'SELECT generate_series(1, 1001) AS n')).toEqual(refused);
    expect(await attempt(db, project, 'SELECT generate_series(1, 100000000) AS n')).toEqual(refused);
  });

  it('refuses a result over the byte cap, many small rows or one huge value', async () => {
    const refused = { error: 'ctx.db.query: the result is over 64 KB of JSON; select fewer rows or columns' };
    expect(await attempt(db, project, "SELECT repeat('x', 1000) AS s FROM generate_series(1, 100)")).toEqual(
      refused,
    );
    expect(await attempt(db, project, "SELECT repeat('x', 20000000) AS s")).toEqual(refused);
    // The pool is none the worse.
    expect((await attempt(db, project, 'SELECT 1 AS one')).ok).toEqual({ rows: [{ one: 1 }], rowCount: 1 });
  });

  it('caps temporary files at the role’s temp_file_limit, which the project cannot raise', async () => {
    expect((await attempt(db, project, "SET temp_file_limit = '1GB'")).error).toBe(
      'ctx.db.query: permission denied to set parameter "temp_file_limit"',
    );
    const sorted = await attempt(
      db,
      project,
      'SELECT count(*) AS n FROM (SELECT md5(g::text) FROM generate_series(1, 200000) g ORDER BY 1) s',
    );
    expect(sorted.error).toMatch(/^ctx\.db\.query: temporary file size exceeds temp_file_limit \(1024kB\)/);
  });
});

describe('the storage quota', () => {
  // Writing 20 MB can take more than the 1 s timeout on a loaded machine; the quota is what is tested.
  const db = service({ PROJECT_DB_STATEMENT_TIMEOUT_MS: 30_000 });
  const project = newProject();
  const fill = (table: string, rows: number) =>
    attempt(
      db,
      project,
      `INSERT INTO ${table} SELECT g, repeat(md5(g::text), 30) FROM generate_series(1, $1::int) g`,
      [rows],
    );

  beforeAll(async () => {
    await attempt(db, project, 'CREATE TABLE notes (id int, body text)');
  });

  it('refuses a write that would pass it, names it, and gives the space back', async () => {
    const before = await sizeOf(db, project);
    expect(before).toBeLessThan(16 * MB);
    const refused = await fill('notes', 20_000);
    expect(refused.error).toMatch(
      /^ctx\.db\.query: storage quota of 24 MB exceeded \(the database would use \d+(\.\d)? MB\); the statement was rolled back\. Free space with TRUNCATE, DROP, or DELETE then VACUUM FULL$/,
    );
    expect((await attempt(db, project, 'SELECT count(*)::int AS n FROM notes')).ok?.rows).toEqual([{ n: 0 }]);
    expect(await sizeOf(db, project)).toBeLessThan(before + MB);
    expect((await fill('notes', 100)).ok).toEqual({ rows: [], rowCount: 100 });
  });

  it('refuses a table created past it', async () => {
    const created = await attempt(
      db,
      project,
      'CREATE TABLE copies AS SELECT g AS id, repeat(md5(g::text), 30) AS body FROM generate_series(1, 20000) g',
    );
    expect(created.error).toMatch(/^ctx\.db\.query: storage quota of 24 MB exceeded/);
    expect((await attempt(db, project, 'SELECT 1 FROM copies')).error).toBe(
      'ctx.db.query: relation "copies" does not exist',
    );
  });

  it('counts what triggers write, deferred ones included', async () => {
    await attempt(db, project, 'CREATE TABLE log (body text)');
    await attempt(
      db,
      project,
      `CREATE FUNCTION bloat() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
         INSERT INTO log SELECT repeat(md5(g::text), 30) FROM generate_series(1, 20000) g; RETURN NULL;
       END $$`,
    );
    await attempt(db, project, 'CREATE TABLE events (id int)');
    await attempt(
      db,
      project,
      `CREATE CONSTRAINT TRIGGER bloat_at_commit AFTER INSERT ON events
       DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bloat()`,
    );
    expect((await attempt(db, project, 'INSERT INTO events VALUES (1)')).error).toMatch(
      /^ctx\.db\.query: storage quota of 24 MB exceeded/,
    );
    expect((await attempt(db, project, 'SELECT count(*)::int AS n FROM log')).ok?.rows).toEqual([{ n: 0 }]);
  });

  it('over it, reads, DELETE, TRUNCATE and DROP still work, and writes once space is free', async () => {
    await attempt(db, project, 'CREATE TABLE audited (id int)');
    await attempt(db, project, 'INSERT INTO audited VALUES (1)');
    await attempt(
      db,
      project,
      `CREATE FUNCTION note_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
         INSERT INTO log VALUES ('deleted'); RETURN NULL;
       END $$`,
    );
    await attempt(
      db,
      project,
      'CREATE TRIGGER note_on_delete AFTER DELETE ON audited FOR EACH STATEMENT EXECUTE FUNCTION note_delete()',
    );
    // Look-alikes of what the host measures with, for a search_path that puts app first.
    for (const arg of ['name', 'oid']) {
      await attempt(
        db,
        project,
        `CREATE FUNCTION pg_database_size(${arg}) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint'`,
      );
    }
    expect((await fill('notes', 5_000)).ok?.rowCount).toBe(5_000);
    const size = await sizeOf(db, project);
    // The same project on a host with a quota below what it holds now.
    const tight = service({
      PROJECT_DB_QUOTA_MB: Math.floor(size / MB) - 1,
      PROJECT_DB_STATEMENT_TIMEOUT_MS: 30_000,
    });
    const use = (sql: string) => attempt(tight, project, sql);
    expect((await use("INSERT INTO notes VALUES (0, 'one more')")).error).toMatch(
      /storage quota of \d+ MB exceeded/,
    );
    const sly = "DO $$ BEGIN SET search_path = app, pg_catalog; INSERT INTO notes VALUES (0, 'sly'); END $$";
    expect((await use(sly)).error).toMatch(/storage quota of \d+ MB exceeded/);
    expect((await use('SELECT count(*)::int AS n FROM notes')).ok?.rows).toEqual([{ n: 5_100 }]);
    expect((await use('DELETE FROM notes WHERE id <= 100')).ok?.rowCount).toBe(200);
    // A DELETE that writes rows (here one, through a trigger) is a write like any other.
    expect((await use('DELETE FROM audited')).error).toMatch(/storage quota of \d+ MB exceeded/);
    expect((await use('CREATE TABLE scratch (x int)')).error).toMatch(/storage quota/);
    expect((await use('TRUNCATE notes')).ok).toBeDefined();
    expect((await use("INSERT INTO notes VALUES (0, 'fits again')")).ok?.rowCount).toBe(1);
    expect((await use('DROP TABLE notes')).ok).toBeDefined();
  });
});

describe('the project role reaches its own schema only', () => {
  const db = service();
  const project = newProject();
  const other = newProject();

  beforeAll(async () => {
    await attempt(db, other, 'CREATE TABLE secrets (v text)');
    await attempt(db, other, "INSERT INTO secrets VALUES ('other tenant')");
  });

  it.each([
    ['SET ROLE postgres', 'permission denied to set role "postgres"'],
    ['SET SESSION AUTHORIZATION postgres', 'permission denied to set session authorization'],
    ['SELECT * FROM platform_auth.users', 'permission denied for schema platform_auth'],
    [
      'DO $$ BEGIN SET search_path = platform_auth; PERFORM * FROM users; END $$',
      'relation "users" does not exist',
    ],
    ['CREATE EXTENSION dblink', 'permission denied to create extension "dblink"'],
    ['CREATE EXTENSION postgres_fdw', 'permission denied to create extension "postgres_fdw"'],
    ["SELECT dblink_connect('dbname=postgres')", 'function dblink_connect(unknown) does not exist'],
    [
      "COPY (SELECT 1) TO PROGRAM 'id'",
      'must be superuser or have privileges of the pg_execute_server_program role',
    ],
    [
      "COPY (SELECT 1) TO '/tmp/out'",
      'must be superuser or have privileges of the pg_write_server_files role',
    ],
    ["SELECT pg_read_file('/etc/passwd')", 'permission denied for function pg_read_file'],
    ["SELECT lo_import('/etc/passwd')", 'permission denied for function lo_import'],
    ['SELECT * FROM postgres.public.t', 'cross-database references are not implemented'],
    ['CREATE SCHEMA elsewhere', 'permission denied for database'],
    ['CREATE TABLE public.t (x int)', 'permission denied for schema public'],
  ])('%s fails', async (sql, message) => {
    expect((await attempt(db, project, sql)).error).toContain(message);
  });

  it("cannot name another tenant's tables, nor read its sessions' statements", async () => {
    const otherDatabase = tenantDatabaseName(other);
    expect((await attempt(db, project, `SELECT * FROM ${otherDatabase}.app.secrets`)).error).toContain(
      'cross-database references are not implemented',
    );
    expect((await attempt(db, project, `SELECT pg_database_size('${otherDatabase}')`)).error).toContain(
      `permission denied for database ${otherDatabase}`,
    );
    const running = attempt(db, other, "SELECT pg_sleep(0.8), 'marker-of-the-other-tenant' AS v");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const seen = await attempt(
      db,
      project,
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%marker-of-the-other' || '-tenant%'",
    );
    // The platform's own connection does see it: the statement was running.
    const admin = await withClient(adminUrl(), (client) =>
      client.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%marker-of-the-other' || '-tenant%'",
      ),
    );
    expect(seen.ok?.rows).toEqual([{ n: 0 }]);
    expect(admin.rows).toEqual([{ n: 1 }]);
    expect((await running).ok).toBeDefined();
  });

  it('cannot list the databases and roles of the cluster (other tenants), while other databases still can', async () => {
    for (const [sql, catalog] of [
      ['SELECT datname FROM pg_database', 'table pg_database'],
      ['SELECT rolname FROM pg_roles', 'view pg_roles'],
      ['SELECT usename FROM pg_user', 'view pg_user'],
      ['SELECT datname FROM pg_stat_database', 'view pg_stat_database'],
      ['SELECT roleid FROM pg_auth_members', 'table pg_auth_members'],
    ]) {
      expect((await attempt(db, project, sql!)).error).toContain(`permission denied for ${catalog}`);
    }
    // Its own database's size (the quota) still works.
    expect(
      (await attempt(db, project, 'SELECT pg_database_size(current_database()) > 0 AS ok')).ok?.rows,
    ).toEqual([{ ok: true }]);
    // The revocation is the tenant database's own: elsewhere PUBLIC still reads the catalogs.
    const elsewhere = await withClient(adminUrl(), (client) =>
      client.query("SELECT has_table_privilege('public', 'pg_catalog.pg_database', 'SELECT') AS visible"),
    );
    expect(elsewhere.rows).toEqual([{ visible: true }]);
  });

  it('cannot log in to another tenant database with its own credentials', async () => {
    const url = new URL(databaseUrl(adminUrl(), tenantDatabaseName(other)));
    url.username = `${tenantDatabaseName(project)}_app`;
    await expect(withClient(url.toString(), (client) => client.query('SELECT 1'))).rejects.toThrow(
      /permission denied for database/,
    );
  });
});

describe('cancelBackend', () => {
  it('cancels the statement a session runs, without logging in', async () => {
    await withClient(adminUrl(), async (client) => {
      const sleeping = client.query('SELECT pg_sleep(30)');
      await new Promise((resolve) => setTimeout(resolve, 200));
      await cancelBackend(client as never);
      await expect(sleeping).rejects.toThrow('canceling statement due to user request');
    });
  });
});
