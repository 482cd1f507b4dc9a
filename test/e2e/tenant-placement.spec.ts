import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { databaseUrl } from '../../libs/db/src/connection-url.js';
import { latestTenantMigration } from '../../libs/db/src/tenant-upgrades.js';
import { mainMigrationsDir, tenantMigrationsDir } from '../../libs/db/src/migration-paths.js';
import { migrateDatabase } from '../../libs/db/src/migrator.js';
import {
  adminUrl,
  createThrowawayDatabase,
  withClient,
  type ThrowawayDatabase,
} from '../../libs/db/src/testing/throwaway-database.js';
import { setTenantReadOnly } from '../../libs/db/src/tenant-move.js';
import { dropTenantDatabase, tenantDatabaseName } from '../../libs/db/src/tenant-provisioning.js';
import { freePort, repoRoot, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { HostClient } from '../support/host-client.js';
import {
  secondPostgresUnavailable,
  startSecondPostgres,
  type SecondPostgres,
} from '../support/second-postgres.js';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  tenantQuery,
  uniqueEmail,
  UserClient,
  type TestProject,
} from '../support/user-client.js';
import { ADMIN_TOKEN, deploy, REPORTS_API } from './project-code-harness.js';
import {
  decodeJwt,
  GENEROUS_LIMITS,
  infra,
  mainQuery,
  sleep,
  startMailRig,
  startProjectHost,
  type Host,
  type MailRig,
} from './user-auth-harness.js';

// Tenant databases placed on two real Postgres servers (this run's and a second cluster started
// from Debian's binaries): new projects spread by capacity, and the host, the project worker and
// project code (ctx.db in APIs, hooks and jobs) all reach each project's database on its server.

const unavailable = secondPostgresUnavailable();
if (unavailable) process.stderr.write(`tenant-placement.spec: skipped, ${unavailable}\n`);
const describeTwoServers = unavailable ? describe.skip : describe;

const run = randomBytes(3).toString('hex');
// Server names of this run only, so projects other specs placed on the same main database do not
// count (the unlisted `default` keeps capacity 0: it takes no new project here).
const FIRST = `first${run}`;
const SECOND = `second${run}`;

interface Project {
  id: string;
  slug: string;
  server: string;
  client: UserClient;
}

describeTwoServers('tenant databases on two Postgres servers', () => {
  let second: SecondPostgres;
  let host: Host;
  let mail: MailRig;
  let admin: HostClient;
  const projects: Project[] = [];
  const urlOf = (server: string) => (server === SECOND ? second.adminUrl : adminUrl());

  const databasesOn = async (server: string): Promise<string[]> =>
    withClient(urlOf(server), async (db) =>
      (
        await db.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'tenant_%'")
      ).rows.map((row) => row.datname),
    );

  const tenantRows = <R extends Record<string, unknown>>(
    project: Project,
    sql: string,
    params: unknown[] = [],
  ) =>
    withClient(
      databaseUrl(urlOf(project.server), tenantDatabaseName(project.id)),
      async (db) => (await db.query(sql, params)).rows as R[],
    );

  const createProject = async (name: string): Promise<Project> => {
    const slug = `${name}-${run}`;
    const res = await admin.post('/v1/projects', { slug, name });
    expect(res.status).toBe(201);
    const { id } = res.json as { id: string };
    const [row] = await mainQuery<{ tenant_server: string }>(
      'SELECT tenant_server FROM projects WHERE id = $1',
      [id],
    );
    const smtp = await admin.put(`/v1/projects/${id}/smtp`, {
      host: '127.0.0.1',
      port: mail.smtp.port,
      secure: false,
      from: `${name} <no-reply@${slug}.example.com>`,
    });
    expect(smtp.status).toBe(200);
    const project = {
      id,
      slug,
      server: row!.tenant_server,
      client: new UserClient(host.port, `${slug}.localhost:${host.port}`),
    };
    projects.push(project);
    return project;
  };

  const signUpAndIn = async (project: Project) => {
    const email = uniqueEmail('placed');
    const password = strongPassword();
    const registered = await project.client.request('POST', '/api/user/auth/register', {
      json: { email, password, name: 'Ada' },
    });
    expect(registered.status).toBe(201);
    const login = await project.client.request<{ accessToken: string }>('POST', '/api/user/auth/login', {
      json: { email, password },
    });
    expect(login.status).toBe(200);
    const me = await project.client.request<{ email: string }>('GET', '/api/user/me', {
      bearer: login.body.accessToken,
    });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    return { email, password, accessToken: login.body.accessToken };
  };

  beforeAll(async () => {
    second = await startSecondPostgres();
    host = await startProjectHost({
      ...GENEROUS_LIMITS,
      MAIL_RETRY_DELAY_MS: '200',
      // Queues of its own: another spec's worker (other servers) must not take this one's jobs.
      REDIS_PREFIX: `${infra.REDIS_PREFIX}-placement`,
      TENANT_ADMIN_DATABASE_URL: adminUrl(),
      TENANT_DATABASE_SERVERS: `${FIRST}:1=${adminUrl()}, ${SECOND}:2=${second.adminUrl}`,
    });
    mail = await startMailRig();
    admin = new HostClient(host.port, `localhost:${host.port}`, ADMIN_TOKEN);
  });

  afterAll(async () => {
    await host?.app.stop();
    await mail?.close();
    for (const project of projects) {
      await mainQuery('DELETE FROM projects WHERE id = $1', [project.id]);
      if (project.server === FIRST) await dropTenantDatabase({ adminUrl: adminUrl(), projectId: project.id });
    }
    await second?.stop();
  });

  it('spreads new projects over the servers in proportion to their capacity (1 : 2)', async () => {
    for (let i = 0; i < 6; i++) await createProject(`spread${i}`);
    const placed = projects.map((project) => project.server);
    // Fewest projects relative to capacity, ties to the first listed.
    expect(placed).toEqual([FIRST, SECOND, SECOND, FIRST, SECOND, SECOND]);
    const onSecond = await databasesOn(SECOND);
    const onFirst = await databasesOn(FIRST);
    for (const project of projects) {
      const name = tenantDatabaseName(project.id);
      expect({ name, onSecond: onSecond.includes(name), onFirst: onFirst.includes(name) }).toEqual({
        name,
        onSecond: project.server === SECOND,
        onFirst: project.server === FIRST,
      });
    }
  });

  it('users sign up and sign in on projects of either server; their rows live on that server', async () => {
    for (const server of [FIRST, SECOND]) {
      const project = projects.find((candidate) => candidate.server === server)!;
      const { email } = await signUpAndIn(project);
      const rows = await tenantRows(project, 'SELECT email FROM platform_auth.users WHERE email = $1', [
        email,
      ]);
      expect(rows).toEqual([{ email }]);
    }
  });

  it('ctx.db of an API, of a blocking hook and of a job (worker), and ctx.email, reach the second server', async () => {
    // A project no request has reached yet (hosts cache a project's hook settings for a moment).
    let project = await createProject('code0');
    for (let i = 1; project.server !== SECOND && i < 3; i++) project = await createProject(`code${i}`);
    expect(project.server).toBe(SECOND);
    const deployed = await deploy(host, project.id, fixture('guestbook'));
    expect(deployed.status).toBe(201);
    const { email, accessToken } = await signUpAndIn(project);
    const userId = String(decodeJwt(accessToken).payload.sub);

    // The blocking hook (project worker) inserted the member; the API (host) reads it back.
    const me = await project.client.request<{ member: { email: string } | null }>('GET', '/api/members/me', {
      bearer: accessToken,
    });
    expect(me.status).toBe(200);
    expect(me.body.member).toMatchObject({ email });
    // The job the hook enqueued (project worker) greeted the member, on the second server.
    let greeted: unknown = null;
    for (let i = 0; i < 100 && !greeted; i++) {
      const [row] = await tenantRows<{ greeted_at: Date | null }>(
        project,
        'SELECT greeted_at FROM app.members WHERE id = $1',
        [userId],
      );
      greeted = row?.greeted_at ?? null;
      if (!greeted) await sleep(200);
    }
    expect(greeted).toBeInstanceOf(Date);
    // ctx.email went out through the project's SMTP settings.
    const received = await mail.waitFor(email, /^Welcome to the guestbook/);
    expect(received.text).toContain('Sign the guestbook');
    // Nothing of it landed on the first server.
    expect(await databasesOn(FIRST)).not.toContain(tenantDatabaseName(project.id));
  });

  it('GET /v1/tenant-servers shows each server with its capacity and projects, never its URL', async () => {
    const res = await admin.get('/v1/tenant-servers');
    expect(res.status).toBe(200);
    const body = res.json as {
      latest: string;
      servers: { server: string; capacity: number; projects: number }[];
    };
    expect(body.latest).toMatch(/^\d{14}_/);
    const byName = new Map(body.servers.map((server) => [server.server, server]));
    const count = (server: string) => projects.filter((project) => project.server === server).length;
    expect(byName.get(FIRST)).toMatchObject({ capacity: 1, projects: count(FIRST), listed: true });
    expect(byName.get(SECOND)).toMatchObject({ capacity: 2, projects: count(SECOND), listed: true });
    expect(res.text).not.toContain('postgresql://');
  });

  describe('moving a project to another server', () => {
    const move = (project: Project, server: string) =>
      admin.post(`/v1/projects/${project.id}/move`, { server });

    it('keeps its users and sessions; sign-in, refresh and sign-up work on the new server', async () => {
      const project = projects.find((candidate) => candidate.server === FIRST)!;
      const user = await signUpAndIn(project);
      const pair = await project.client.request<{ accessToken: string; refreshToken: string }>(
        'POST',
        '/api/user/auth/login',
        { json: { email: user.email, password: user.password } },
      );
      expect(pair.status).toBe(200);

      const moved = await move(project, SECOND);
      expect(moved.status).toBe(200);
      expect(moved.json).toMatchObject({ id: project.id, from: FIRST, to: SECOND });
      project.server = SECOND;
      const [row] = await mainQuery<{ tenant_server: string; tenant_moving_since: Date | null }>(
        'SELECT tenant_server, tenant_moving_since FROM projects WHERE id = $1',
        [project.id],
      );
      expect(row).toEqual({ tenant_server: SECOND, tenant_moving_since: null });
      expect(await databasesOn(SECOND)).toContain(tenantDatabaseName(project.id));
      expect(await databasesOn(FIRST)).not.toContain(tenantDatabaseName(project.id));

      const me = await project.client.request('GET', '/api/user/me', { bearer: pair.body.accessToken });
      expect(me.status).toBe(200);
      const refreshed = await project.client.request('POST', '/api/user/auth/refresh', {
        json: { refreshToken: pair.body.refreshToken },
      });
      expect(refreshed.status).toBe(200);
      const login = await project.client.request('POST', '/api/user/auth/login', {
        json: { email: user.email, password: user.password },
      });
      expect(login.status).toBe(200);
      await signUpAndIn(project);
    });

    it('refuses an unknown server, the server it is on, and two names of one Postgres', async () => {
      const project = projects.find((candidate) => candidate.server === FIRST)!;
      const unknown = await move(project, 'nowhere');
      expect(unknown.status).toBe(400);
      expect(unknown.json).toMatchObject({
        code: 'invalid-request',
        message: 'server "nowhere" is not in TENANT_DATABASE_SERVERS',
      });
      expect((await move(project, FIRST)).status).toBe(409);
      // `default` is this run's Postgres too (TENANT_ADMIN_DATABASE_URL), under another name.
      const same = await move(project, 'default');
      expect(same.status).toBe(409);
      expect(await databasesOn(FIRST)).toContain(tenantDatabaseName(project.id));
    });

    it('while its database is read-only, writes answer 503 temporarily_unavailable with Retry-After; reads go on', async () => {
      const project = projects.find((candidate) => candidate.server === FIRST)!;
      const user = await signUpAndIn(project);
      await setTenantReadOnly(urlOf(FIRST), tenantDatabaseName(project.id), true);
      try {
        const refused = await project.client.request('POST', '/api/user/auth/register', {
          json: { email: uniqueEmail('during'), password: strongPassword() },
        });
        expect(refused.status).toBe(503);
        expect(refused.body.code).toBe('temporarily_unavailable');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        const me = await project.client.request('GET', '/api/user/me', { bearer: user.accessToken });
        expect(me.status).toBe(200);
      } finally {
        await setTenantReadOnly(urlOf(FIRST), tenantDatabaseName(project.id), false);
      }
    });

    it('sign-ups racing a move either succeed and survive it, or get a 503 with Retry-After (never a 500)', async () => {
      const project = projects.find((candidate) => candidate.server === FIRST)!;
      const answers: { status: number; code?: string; retryAfter?: string; email: string }[] = [];
      let moving = true;
      const signUps = (async () => {
        while (moving) {
          const email = uniqueEmail('race');
          const res = await project.client.request('POST', '/api/user/auth/register', {
            json: { email, password: strongPassword() },
          });
          answers.push({
            status: res.status,
            code: res.body?.code,
            retryAfter: res.headers['retry-after'],
            email,
          });
        }
      })();
      await sleep(300);
      const moved = await move(project, SECOND);
      await sleep(500);
      moving = false;
      await signUps;
      expect(moved.status).toBe(200);
      project.server = SECOND;
      const unexpected = answers.filter(
        // Writes meet the read-only database (temporarily_unavailable); one whose connection the
        // switch ended the moment it was used is a lost connection (service_unavailable). Both retry.
        (a) =>
          a.status !== 201 &&
          !(
            a.status === 503 &&
            ['temporarily_unavailable', 'service_unavailable'].includes(a.code ?? '') &&
            a.retryAfter
          ),
      );
      if (unexpected.length)
        process.stderr.write(
          host.app
            .output()
            .split('\n')
            .filter((l) => /"level":50|error/i.test(l))
            .join('\n'),
        );
      expect(unexpected).toEqual([]);
      const created = answers.filter((a) => a.status === 201).map((a) => a.email);
      expect(created.length).toBeGreaterThan(0);
      const rows = await tenantRows<{ email: string }>(
        project,
        'SELECT email FROM platform_auth.users WHERE email = ANY($1)',
        [created],
      );
      expect(rows.map((r) => r.email).sort()).toEqual([...created].sort());
    });

    it('the platform CLI moves a project and shows the servers (`platform tenants`)', async () => {
      const project = projects.find(
        (candidate) => candidate.server === SECOND && candidate.slug.startsWith('spread'),
      )!;
      const user = await signUpAndIn(project);
      const cli = (...args: string[]) =>
        spawnSync(process.execPath, [join(repoRoot, 'tools/platform-cli/dist/main.js'), 'tenants', ...args], {
          env: {
            ...process.env,
            PLATFORM_URL: `http://127.0.0.1:${host.port}`,
            PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
          },
          encoding: 'utf8',
          timeout: 60_000,
        });
      const moved = cli('move', project.id, FIRST);
      expect({ status: moved.status, stderr: moved.stderr }).toEqual({ status: 0, stderr: '' });
      expect(moved.stdout).toMatch(
        new RegExp(`^moved ${project.id} from ${SECOND} to ${FIRST} \\(read-only for \\d+ ms\\)`),
      );
      project.server = FIRST;
      expect(await databasesOn(FIRST)).toContain(tenantDatabaseName(project.id));
      const me = await project.client.request('GET', '/api/user/me', { bearer: user.accessToken });
      expect(me.status).toBe(200);

      const status = cli('status');
      expect(status.status).toBe(0);
      expect(status.stdout).toMatch(
        new RegExp(`^${FIRST}\\s+1\\s+${projects.filter((p) => p.server === FIRST).length}\\s`, 'm'),
      );
      expect(status.stdout).toMatch(
        new RegExp(`^${SECOND}\\s+2\\s+${projects.filter((p) => p.server === SECOND).length}\\s`, 'm'),
      );

      const refused = cli('move', project.id, 'nowhere');
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('server "nowhere" is not in TENANT_DATABASE_SERVERS');
    });

    it('project code: ctx.db reads go on and writes answer 503 temporarily_unavailable while read-only', async () => {
      const project = projects.find(
        (candidate) => candidate.slug.startsWith('code') && candidate.server === SECOND,
      )!;
      const deployed = await deploy(host, project.id, { ...fixture('guestbook'), ...REPORTS_API });
      expect(deployed.status).toBe(201);
      const user = await signUpAndIn(project);
      expect((await project.client.request('GET', '/api/reports')).status).toBe(200);
      await setTenantReadOnly(urlOf(SECOND), tenantDatabaseName(project.id), true);
      try {
        // GET /api/members/me only reads; GET /api/reports begins with CREATE TABLE IF NOT EXISTS.
        const read = await project.client.request('GET', '/api/members/me', { bearer: user.accessToken });
        expect(read.status).toBe(200);
        const write = await project.client.request('GET', '/api/reports');
        expect(write.status).toBe(503);
        expect(write.body).toMatchObject({ code: 'temporarily_unavailable' });
        expect(Number(write.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        await setTenantReadOnly(urlOf(SECOND), tenantDatabaseName(project.id), false);
      }
      expect((await project.client.request('GET', '/api/reports')).status).toBe(200);
    });

    it('ctx.db in the host and the worker follows the project to its new server', async () => {
      const project = projects.find(
        (candidate) => candidate.slug.startsWith('code') && candidate.server === SECOND,
      )!;
      const before = await signUpAndIn(project);
      const moved = await move(project, FIRST);
      expect(moved.status).toBe(200);
      project.server = FIRST;
      // The API (host) reads the member the hook wrote before the move, from the new server.
      const me = await project.client.request<{ member: { email: string } | null }>(
        'GET',
        '/api/members/me',
        {
          bearer: before.accessToken,
        },
      );
      expect(me.status).toBe(200);
      expect(me.body.member).toMatchObject({ email: before.email });
      // A new sign-up: the blocking hook (worker) writes on the new server.
      const after = await signUpAndIn(project);
      const rows = await tenantRows<{ email: string }>(
        project,
        'SELECT email FROM app.members WHERE email = $1',
        [after.email],
      );
      expect(rows).toEqual([{ email: after.email }]);
    });
  });
});

function fixture(name: string): Record<string, string> {
  const root = join(repoRoot, 'test', 'fixtures', 'projects', name);
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.endsWith('.md')) files[relative(root, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return files;
}

// A host never serves a tenant whose platform_auth is behind its migrations: it migrates it on
// first use, and answers 503 temporarily_unavailable while that cannot be done. This host (and its
// project worker) ships one migration more than the repository (TENANT_MIGRATIONS_DIR), and its
// worker sweeps nothing at boot, so only the projects below meet the newer schema.
describe('a tenant database behind the host’s migrations', () => {
  const PROBE = '29991231000000_upgrade_probe';
  let migrations: string;
  let host: Host;
  const created: TestProject[] = [];

  const project = async (): Promise<TestProject> => {
    const made = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 1 });
    created.push(made);
    // The version its row recorded when it was created, before this host's migration existed.
    await mainQuery('UPDATE projects SET tenant_schema_version = $2 WHERE id = $1', [
      made.id,
      latestTenantMigration(),
    ]);
    return made;
  };
  const probe = (made: TestProject) =>
    tenantQuery<{ t: string | null }>(
      made.id,
      "SELECT to_regclass('platform_auth.upgrade_probe')::text AS t",
    );
  const recorded = async (made: TestProject) =>
    (
      await mainQuery<{ v: string }>('SELECT tenant_schema_version AS v FROM projects WHERE id = $1', [
        made.id,
      ])
    )[0]!.v;

  beforeAll(async () => {
    migrations = mkdtempSync(join(tmpdir(), 'tenant-migrations-'));
    cpSync(tenantMigrationsDir(), migrations, { recursive: true });
    mkdirSync(join(migrations, PROBE));
    writeFileSync(
      join(migrations, PROBE, 'migration.sql'),
      'CREATE TABLE "platform_auth"."upgrade_probe" ("id" INTEGER PRIMARY KEY);\n',
    );
    host = await startProjectHost({
      ...GENEROUS_LIMITS,
      REDIS_PREFIX: `${infra.REDIS_PREFIX}-tenant-behind`,
      TENANT_ADMIN_DATABASE_URL: adminUrl(),
      TENANT_MIGRATIONS_DIR: migrations,
      // Read by the project worker, which sweeps (the host never does).
      TENANT_UPGRADES_ON_BOOT: 'false',
    });
  });

  afterAll(async () => {
    await host?.app.stop();
    for (const made of created) await dropTestProject(infra.DATABASE_URL, made);
    rmSync(migrations, { recursive: true, force: true });
  });

  it('is migrated before its first request is served, and its row records the new version', async () => {
    const made = await project();
    expect(await probe(made)).toEqual([{ t: null }]);
    const res = await made.client.request('POST', '/api/user/auth/register', {
      json: { email: uniqueEmail('behind'), password: strongPassword() },
    });
    expect(res.status).toBe(201);
    expect(await probe(made)).toEqual([{ t: 'upgrade_probe' }]);
    expect(await recorded(made)).toBe(PROBE);
  });

  it('the control plane’s users page migrates it too before reading it', async () => {
    const made = await project();
    const admin = new HostClient(host.port, `localhost:${host.port}`, ADMIN_TOKEN);
    const res = await admin.get(`/v1/projects/${made.id}/users`);
    expect(res.status).toBe(200);
    expect(await probe(made)).toEqual([{ t: 'upgrade_probe' }]);
    expect(await recorded(made)).toBe(PROBE);
  });

  it('on a server the setting no longer lists, answers 503 and names why, never another database', async () => {
    const made = await project();
    await mainQuery("UPDATE projects SET tenant_server = 'retired' WHERE id = $1", [made.id]);
    const email = uniqueEmail('retired');
    const res = await made.client.request('POST', '/api/user/auth/register', {
      json: { email, password: strongPassword() },
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'service_unavailable',
      message: "This project's database server is not configured on this host.",
    });
    // Its database (still on the default server) saw nothing.
    expect(await tenantQuery(made.id, 'SELECT 1 FROM users WHERE email = $1', [email])).toEqual([]);
    const status = await new HostClient(host.port, `localhost:${host.port}`, ADMIN_TOKEN).get(
      '/v1/tenant-servers',
    );
    const retired = (
      status.json as { servers: { server: string; listed: boolean; capacity: number | null }[] }
    ).servers.find((server) => server.server === 'retired');
    expect(retired).toMatchObject({ listed: false, capacity: null });
    expect(host.app.output()).toMatch(
      /tenant server "retired", which TENANT_DATABASE_SERVERS does not list|not configured on this host|unknown tenant server/,
    );
  });

  it('answers 503 temporarily_unavailable while its migration fails, and serves it once it succeeds', async () => {
    const made = await project();
    // Something in the way of the new migration: it fails (and is rolled back) until removed.
    await tenantQuery(made.id, 'CREATE TABLE platform_auth.upgrade_probe (x text)');
    const email = uniqueEmail('behind');
    const refused = await made.client.request('POST', '/api/user/auth/register', {
      json: { email, password: strongPassword() },
    });
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('temporarily_unavailable');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await tenantQuery(made.id, 'SELECT 1 FROM users WHERE email = $1', [email])).toEqual([]);
    expect(await recorded(made)).toBe(latestTenantMigration());

    await tenantQuery(made.id, 'DROP TABLE platform_auth.upgrade_probe');
    const served = await made.client.request('POST', '/api/user/auth/register', {
      json: { email, password: strongPassword() },
    });
    expect(served.status).toBe(201);
    expect(await recorded(made)).toBe(PROBE);
  });
});

// Upgrades reach every tenant through the project worker: a host of a newer release (one more
// platform_auth migration) boots and sweeps nothing; its project worker sweeps at boot, and the
// control plane shows the sweep and can ask for another. On a main database of its own, since a
// sweep reads every project.
describe('tenant upgrade sweeps in the project worker', () => {
  const PROBE = '29991231000001_sweep_probe';
  const TOKEN = `sweeps-admin-${randomBytes(12).toString('hex')}`;
  const prefix = `${infra.REDIS_PREFIX}-sweeps`;
  let main: ThrowawayDatabase;
  let migrations: string;
  const apps: AppProcess[] = [];
  const projectIds: string[] = [];

  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    DATABASE_URL: main.url,
    REDIS_URL: infra.REDIS_URL,
    REDIS_PREFIX: prefix,
    TENANT_ADMIN_DATABASE_URL: adminUrl(),
    PLATFORM_ADMIN_TOKEN: TOKEN,
    ...extra,
  });
  const startHost = async (extra: NodeJS.ProcessEnv = {}) => {
    const port = await freePort();
    const app = startApp(
      'project-host',
      env({ HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, ...extra }),
    );
    apps.push(app);
    await waitForHttp(`http://127.0.0.1:${port}/health`, app);
    return { app, admin: new HostClient(port, `localhost:${port}`, TOKEN) };
  };
  const recorded = async (id: string) =>
    withClient(main.url, async (db) => {
      const { rows } = await db.query<{ v: string | null }>(
        'SELECT tenant_schema_version AS v FROM projects WHERE id = $1',
        [id],
      );
      return rows[0]!.v;
    });
  const probe = (id: string) =>
    withClient(databaseUrl(adminUrl(), tenantDatabaseName(id)), async (db) => {
      const { rows } = await db.query<{ t: string | null }>(
        "SELECT to_regclass('platform_auth.sweep_probe')::text AS t",
      );
      return rows[0]!.t;
    });
  interface Status {
    servers: { server: string; behind: number }[];
    upgrades: { state: string; finishedAt: string | null; servers: { server: string; migrated: number }[] };
  }

  beforeAll(async () => {
    main = await createThrowawayDatabase('sweeps_main');
    await migrateDatabase({ url: main.url, migrationsDir: mainMigrationsDir() });
    migrations = mkdtempSync(join(tmpdir(), 'tenant-migrations-'));
    cpSync(tenantMigrationsDir(), migrations, { recursive: true });
    mkdirSync(join(migrations, PROBE));
    writeFileSync(
      join(migrations, PROBE, 'migration.sql'),
      'CREATE TABLE "platform_auth"."sweep_probe" ("id" INTEGER PRIMARY KEY);\n',
    );
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    for (const projectId of projectIds) await dropTenantDatabase({ adminUrl: adminUrl(), projectId });
    await main?.drop();
    rmSync(migrations, { recursive: true, force: true });
  });

  it('a newer host sweeps nothing at boot; its project worker does, and POST …/upgrade asks it again', async () => {
    // A project of the current release.
    const old = await startHost();
    const created = await old.admin.post('/v1/projects', { slug: `sweep-${run}`, name: 'Sweep' });
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    projectIds.push(id);
    expect(await recorded(id)).toBe(latestTenantMigration());
    await old.app.stop();

    // The next release's host boots (TENANT_UPGRADES_ON_BOOT, once the host's, left at its
    // default): however long it runs, it migrates nothing.
    const host = await startHost({ TENANT_MIGRATIONS_DIR: migrations });
    await sleep(3_000);
    expect(await recorded(id)).toBe(latestTenantMigration());
    expect(await probe(id)).toBeNull();
    const before = (await host.admin.get('/v1/tenant-servers')).json as Status;
    expect(before.servers.find((s) => s.server === 'default')).toMatchObject({ behind: 1 });
    expect(before.upgrades).toMatchObject({ state: 'idle' });

    // Its project worker boots and sweeps.
    const healthPort = await freePort();
    const worker = startApp(
      'project-worker',
      env({ TENANT_MIGRATIONS_DIR: migrations, HEALTH_PORT: String(healthPort) }),
    );
    apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${healthPort}/health`, worker);
    for (let i = 0; i < 600 && (await recorded(id)) !== PROBE; i++) await sleep(100);
    expect(await recorded(id)).toBe(PROBE);
    expect(await probe(id)).toBe('platform_auth.sweep_probe');
    let after = (await host.admin.get('/v1/tenant-servers')).json as Status;
    for (let i = 0; i < 100 && after.upgrades.state !== 'done'; i++) {
      await sleep(100);
      after = (await host.admin.get('/v1/tenant-servers')).json as Status;
    }
    expect(after.servers.find((s) => s.server === 'default')).toMatchObject({ behind: 0 });
    expect(after.upgrades).toMatchObject({
      state: 'done',
      servers: [expect.objectContaining({ server: 'default', migrated: 1 })],
    });

    // The admin asks for another sweep: the worker runs it, the answer comes once it is over.
    const asked = await host.admin.post('/v1/tenant-servers/upgrade', {});
    expect(asked.status).toBe(200);
    const again = asked.json as Status;
    expect(again.upgrades).toMatchObject({
      state: 'done',
      servers: [expect.objectContaining({ server: 'default', migrated: 0 })],
    });
    expect(Date.parse(again.upgrades.finishedAt!)).toBeGreaterThan(Date.parse(after.upgrades.finishedAt!));
  });
});
