import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { databaseUrl, tenantDatabaseName } from '../../libs/db/src/index.js';
import { adminUrl } from '../../libs/db/src/testing/throwaway-database.js';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  uniqueEmail,
  UserClient,
  type HttpResult,
  type TestProject,
} from '../support/user-client.js';
import {
  GENEROUS_LIMITS,
  infra,
  sleep,
  startMailRig,
  startProjectHost,
  type Host,
  type MailRig,
} from './user-auth-harness.js';
import { deploy } from './project-code-harness.js';

// A project host with a small connection budget (DB_CONNECTION_BUDGET=6: one slot kept for the
// main database, five for tenants) serving a few dozen projects, each with its own tenant
// database: Postgres sees at most six connections of the host, every request is answered, and
// when tenants hold every slot for longer than the wait the answer is 503 temporarily_unavailable
// with Retry-After, never a 500 or "too many clients". AUTH_STATE_CACHE_MS=0: every Bearer request
// reads its tenant database.

const BUDGET = 6;
const PROJECTS = 24;
const ADMIN_TOKEN = 'user-auth-admin-token-0123456789';
const PREFIX = `${infra.REDIS_PREFIX}-connection-budget`;
/** Project code that runs one ctx.db statement and answers what it got, or lets a failure through. */
const SQL_API = {
  'api/sql.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: async ({ db }) => {
      try { return { ok: (await db.query('SELECT 1 AS one')).rows }; } catch (e) { return { error: (e as Error).message }; }
    } });`,
  'api/sql-uncaught.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: async ({ db }) => (await db.query('SELECT 1 AS one')).rows });`,
};

interface Served {
  project: TestProject;
  accessToken: string;
}

let host: Host;
let mail: MailRig;
let monitor: pg.Client;
const served: Served[] = [];

beforeAll(async () => {
  mail = await startMailRig();
  host = await startProjectHost({
    ...GENEROUS_LIMITS,
    REDIS_PREFIX: PREFIX,
    DB_CONNECTION_BUDGET: String(BUDGET),
    AUTH_STATE_CACHE_MS: '0',
  });
  monitor = new pg.Client({ connectionString: adminUrl() });
  await monitor.connect();
  // A few at a time: creating a tenant database takes a while, and the machine is shared.
  for (let i = 0; i < PROJECTS; i += 4) {
    await Promise.all(
      Array.from({ length: Math.min(4, PROJECTS - i) }, async () => {
        const project = await createTestProject({
          databaseUrl: infra.DATABASE_URL,
          port: host.port,
          smtpPort: mail.smtp.port,
        });
        const registered = await project.client.register(uniqueEmail(), strongPassword(), 'Budget');
        expect(registered.status).toBe(201);
        served.push({ project, accessToken: registered.body.accessToken });
      }),
    );
  }
  const deployed = await deploy(host, served[PROJECTS - 1]!.project.id, SQL_API);
  expect(deployed.status).toBe(201);
}, 600_000);

afterAll(async () => {
  await host?.app.stop();
  await monitor?.end();
  await mail?.close();
  for (const { project } of served) {
    await dropTestProject(infra.DATABASE_URL, project).catch(() => undefined);
  }
}, 300_000);

/** The host's own connections, as Postgres counts them (its application_name is `project-host:<pid>`). */
async function hostConnections(filter = ''): Promise<number> {
  const { rows } = await monitor.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 ${filter}`,
    [`project-host:${host.app.child.pid}`],
  );
  return rows[0]!.n;
}

/** Samples hostConnections() until stopped; resolves to the highest count seen. */
function watchPeak(): { stop(): Promise<number> } {
  let running = true;
  let peak = 0;
  const done = (async () => {
    while (running) {
      peak = Math.max(peak, await hostConnections());
      await sleep(15);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return peak;
    },
  };
}

/** One sample of the host's Prometheus text, e.g. `suite_db_connections{kind="budget"}`. */
async function metric(series: string): Promise<number | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${host.port}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function summary(results: HttpResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const res of results) {
    const key = `${res.status} ${res.body?.code ?? ''}`.trim();
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe('the connection budget of a project host', () => {
  it('answers GET /api/user/me across every project at once with at most DB_CONNECTION_BUDGET connections', async () => {
    const watcher = watchPeak();
    const results: HttpResult[] = [];
    // Cold (the tenants' pools closed to make room for others) and again, all projects at once.
    for (let round = 0; round < 3; round++) {
      results.push(
        ...(await Promise.all(served.map(({ project, accessToken }) => project.client.me(accessToken)))),
      );
    }
    const peak = await watcher.stop();

    expect(summary(results)).toEqual({ '200': PROJECTS * 3 });
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(BUDGET);
    expect(host.app.output()).not.toMatch(/too many clients|too many connections/i);
  });

  it('answers 503 temporarily_unavailable with Retry-After when tenants hold every slot past the wait, then serves again', async () => {
    // Five requests whose tenant tables are locked hold the five tenant slots.
    const blocked = served.slice(0, BUDGET - 1);
    const lockers: pg.Client[] = [];
    for (const { project } of blocked) {
      const locker = new pg.Client({
        connectionString: databaseUrl(adminUrl(), tenantDatabaseName(project.id)),
      });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE platform_auth.sessions, platform_auth.users IN ACCESS EXCLUSIVE MODE');
      lockers.push(locker);
    }
    try {
      const stuck = blocked.map(({ project, accessToken }) => project.client.me(accessToken));
      while ((await hostConnections("AND wait_event_type = 'Lock'")) < blocked.length) await sleep(50);

      // Another tenant: no slot frees up within the wait.
      const other = served[BUDGET]!;
      const refused = await other.project.client.me(other.accessToken);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ code: 'temporarily_unavailable', message: expect.any(String) });
      expect(refused.headers['retry-after']).toBe('2');

      // The control plane on a tenant database: the same 503, not a 500.
      const admin = new UserClient(host.port, `localhost:${host.port}`);
      const users = await admin.get(`/v1/projects/${other.project.id}/users`, { bearer: ADMIN_TOKEN });
      expect(users.status).toBe(503);
      expect(users.body.code).toBe('temporarily_unavailable');
      expect(users.headers['retry-after']).toBe('2');

      // Project code's ctx.db shares the budget: a clear error, not a hang or a 500.
      const coder = served[PROJECTS - 1]!.project.client;
      const busy = await coder.get('/api/sql');
      expect(busy.status).toBe(200);
      expect(busy.body).toEqual({
        error: 'ctx.db.query: every database connection of this host is in use; try again shortly',
      });
      // Code that lets that error through: the project API answers the same 503, not a 500.
      const uncaught = await coder.get('/api/sql-uncaught');
      expect(uncaught.status).toBe(503);
      expect(uncaught.body.code).toBe('temporarily_unavailable');
      expect(uncaught.headers['retry-after']).toBe('2');

      // The main database keeps its own slot: requests that need it alone are served meanwhile.
      const main = await admin.get(`/v1/projects/${other.project.id}`, { bearer: ADMIN_TOKEN });
      expect(main.status).toBe(200);

      expect(await hostConnections()).toBeLessThanOrEqual(BUDGET);
      // What an operator watches: the budget, its tenants' share in use, and the waits that ran out.
      expect(await metric('suite_db_connections{kind="budget"}')).toBe(BUDGET);
      expect(await metric('suite_db_connections{kind="tenant"}')).toBe(BUDGET - 1);
      expect(await metric('suite_db_connection_waits_timed_out_total')).toBeGreaterThanOrEqual(3);
      for (const locker of lockers) await locker.query('COMMIT');
      // The requests that held the tenant slots (and needed nothing else) finish.
      expect(summary(await Promise.all(stuck))).toEqual({ '200': blocked.length });
    } finally {
      await Promise.allSettled(lockers.map((locker) => locker.end()));
    }

    const again = await Promise.all(served.map(({ project, accessToken }) => project.client.me(accessToken)));
    expect(summary(again)).toEqual({ '200': PROJECTS });
    expect((await served[PROJECTS - 1]!.project.client.get('/api/sql')).body).toEqual({ ok: [{ one: 1 }] });
    expect((await served[PROJECTS - 1]!.project.client.get('/api/sql-uncaught')).body).toEqual([{ one: 1 }]);
    expect(host.app.output()).not.toMatch(/too many clients|too many connections/i);
  });
});
