import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createTestProject, dropTestProject, tenantQuery, type TestProject } from '../support/user-client.js';
import { createRedisConnection } from '../../libs/queue/src/index.js';
import { deploy } from './project-code-harness.js';
import {
  GENEROUS_LIMITS,
  infra,
  sleep,
  startMailRig,
  startProjectHost,
  type Host,
  type MailRig,
} from './user-auth-harness.js';

// The limits project code meets in its context, as project code sees them: a real project host,
// Postgres, Redis and SMTP server; every refusal is an error the project's code catches, and its
// message names the limit. The host runs with a 24 MB storage quota and a statement timeout long
// enough for a 20 MB statement on a loaded machine; a second host, with a 1 s statement timeout,
// is the one the timeout is tested on. The rate limits keep their defaults.

const TIMEOUT_MS = 1_000;
const GENEROUS_TIMEOUT_MS = 30_000;
const QUOTA_MB = 24;

const PREFIX = `${infra.REDIS_PREFIX}-effects-quotas`;
let host: Host;
let strictHost: Host | undefined;
let mail: MailRig;
const projects: TestProject[] = [];

type Outcome = { ok?: unknown; error?: string };

const FILES = {
  // Runs the statements it is given, one ctx.db call each, and reports each outcome.
  'api/sql.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ methods: ['POST'], timeoutMs: 30_000, handler: async ({ db, request }) => {
      const out = [];
      for (const sql of (request.body as { statements: string[] }).statements) {
        try { out.push({ ok: await db.query(sql) }); } catch (e) { out.push({ error: (e as Error).message }); }
      }
      return out;
    } });`,
  // Enqueues up to 100 000 jobs, stopping at the first refusal. The floods may take the longest
  // time an API may have (600 effect calls each), on a loaded machine more than the default 10 s.
  'api/flood-jobs.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ timeoutMs: 30_000, handler: async ({ jobs }) => {
      let queued = 0;
      try {
        while (queued < 100_000) { await jobs.enqueue('noop', { n: queued }, { delayMs: 3_600_000 }); queued++; }
        return { queued };
      } catch (e) { return { queued, error: (e as Error).message }; }
    } });`,
  'api/flood-mail.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ timeoutMs: 30_000, handler: async ({ email, request }) => {
      const to = String(request.query.to);
      let sent = 0;
      try {
        while (sent < 10_000) { await email.send({ to, subject: 'Flood ' + sent, text: 'x' }); sent++; }
        return { sent };
      } catch (e) { return { sent, error: (e as Error).message }; }
    } });`,
  'api/flood-push.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ timeoutMs: 30_000, handler: async ({ push }) => {
      let sent = 0;
      try {
        while (sent < 100_000) { await push.send({ userId: 'nobody', title: 'Flood' }); sent++; }
        return { sent };
      } catch (e) { return { sent, error: (e as Error).message }; }
    } });`,
  'api/oversized.ts': `import { defineApi } from '@suite/platform-sdk';
    const attempt = async (run: () => Promise<unknown>) => {
      try { return { ok: await run() }; } catch (e) { return { error: (e as Error).message }; }
    };
    export default defineApi({ handler: async ({ jobs, email }) => ({
      job: await attempt(() => jobs.enqueue('noop', { blob: 'x'.repeat(65 * 1024) })),
      mail: await attempt(() => email.send({ to: 'a@b.example', subject: 'Big', text: 'x'.repeat(257 * 1024) })),
    }) });`,
  'api/run-jobs.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: async ({ jobs }) => {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await jobs.enqueue('noop', { n: i }, { delayMs: 2_000 })).id);
      return ids;
    } });`,
  'jobs/noop.ts': `import { defineJob } from '@suite/platform-sdk';
    export default defineJob({ handler: () => null });`,
};

async function project(on: Host = host): Promise<TestProject> {
  const created = await createTestProject({
    databaseUrl: infra.DATABASE_URL,
    port: on.port,
    smtpPort: mail.smtp.port,
  });
  projects.push(created);
  const res = await deploy(on, created.id, FILES);
  if (res.status !== 201) throw new Error(`deploy: ${res.status} ${res.text}`);
  return created;
}

async function sql(p: TestProject, ...statements: string[]): Promise<Outcome[]> {
  const res = await p.client.post<Outcome[]>('/api/sql', { statements });
  if (res.status !== 200) throw new Error(`/api/sql: ${res.status} ${res.text}`);
  return res.body;
}

beforeAll(async () => {
  // Queues of its own: a project worker of a spec running beside this one (with other limits) must
  // not take this host's jobs.
  host = await startProjectHost({
    ...GENEROUS_LIMITS,
    REDIS_PREFIX: PREFIX,
    PROJECT_DB_STATEMENT_TIMEOUT_MS: String(GENEROUS_TIMEOUT_MS),
    PROJECT_DB_QUOTA_MB: String(QUOTA_MB),
  });
  mail = await startMailRig();
});

afterAll(async () => {
  await host?.app.stop();
  await strictHost?.app.stop();
  await mail?.close();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
});

describe('ctx.db statements end at the host’s statement timeout', () => {
  const stopped = {
    error: `ctx.db.query: the statement was stopped at the limit of ${TIMEOUT_MS} ms per statement`,
  };

  beforeAll(async () => {
    strictHost = await startProjectHost({
      ...GENEROUS_LIMITS,
      REDIS_PREFIX: `${PREFIX}-strict`,
      PROJECT_DB_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS),
    });
  });

  it('after the project set statement_timeout = 0, in the same call and in later ones', async () => {
    const p = await project(strictHost);
    expect(await sql(p, 'SET statement_timeout = 0', 'SELECT pg_sleep(30)')).toEqual([
      { ok: { rows: [], rowCount: 0 } },
      stopped,
    ]);
    // Later requests, on whichever pooled connection they get.
    for (let i = 0; i < 3; i++) expect(await sql(p, 'SELECT pg_sleep(30)')).toEqual([stopped]);
    expect(
      await sql(p, "SELECT set_config('statement_timeout', '0', false), pg_sleep(30)", 'SELECT 1 AS still'),
    ).toEqual([stopped, { ok: { rows: [{ still: 1 }], rowCount: 1 } }]);
  });
});

describe('the storage quota of the project database', () => {
  let p: TestProject;
  const quotaError = new RegExp(
    `^ctx\\.db\\.query: storage quota of ${QUOTA_MB} MB exceeded \\(the database would use [\\d.]+ MB\\); the statement was rolled back\\. Free space with TRUNCATE, DROP, or DELETE then VACUUM FULL$`,
  );
  // ~20 MB of incompressible text.
  const bulk = 'SELECT g AS id, repeat(md5(g::text), 32) AS body FROM generate_series(1, 20000) g';

  beforeAll(async () => {
    p = await project();
  });

  it('refuses creating a table past it, with an error naming the quota', async () => {
    const [created] = await sql(p, `CREATE TABLE copies AS ${bulk}`);
    expect(created?.error).toMatch(quotaError);
    expect((await sql(p, 'SELECT 1 FROM copies'))[0]?.error).toBe(
      'ctx.db.query: relation "copies" does not exist',
    );
  });

  it('refuses an insert past it; what fits is still written', async () => {
    const [create, big, small, count] = await sql(
      p,
      'CREATE TABLE notes (id int, body text)',
      `INSERT INTO notes ${bulk}`,
      "INSERT INTO notes VALUES (1, 'fits')",
      'SELECT count(*)::int AS n FROM notes',
    );
    expect(create?.ok).toBeDefined();
    expect(big?.error).toMatch(quotaError);
    expect(small).toEqual({ ok: { rows: [], rowCount: 1 } });
    expect(count).toEqual({ ok: { rows: [{ n: 1 }], rowCount: 1 } });
    expect(await tenantQuery(p.id, 'SELECT count(*)::int AS n FROM app.notes')).toEqual([{ n: 1 }]);
  });
});

describe('the project role reaches nothing beyond its own schema', () => {
  let p: TestProject;
  let other: TestProject;

  beforeAll(async () => {
    [p, other] = [await project(), await project()];
    await sql(other, 'CREATE TABLE secrets (v text)', "INSERT INTO secrets VALUES ('of the other tenant')");
  });

  it('every SQL path to platform_auth, other tenants or the server fails', async () => {
    const otherDb = `tenant_${other.id.replaceAll('-', '_')}`;
    const attempts: [string, string][] = [
      ['SELECT * FROM platform_auth.users', 'permission denied for schema platform_auth'],
      ['SET ROLE postgres', 'permission denied to set role "postgres"'],
      [`SET ROLE ${otherDb}_app`, `permission denied to set role "${otherDb}_app"`],
      [
        "SELECT set_config('search_path', 'platform_auth', false), (SELECT count(*) FROM users)",
        'relation "users" does not exist',
      ],
      ['CREATE EXTENSION dblink', 'permission denied to create extension "dblink"'],
      [`SELECT dblink('dbname=${otherDb}', 'SELECT 1')`, 'function dblink(unknown, unknown) does not exist'],
      ["COPY (SELECT 1) TO PROGRAM 'id'", 'pg_execute_server_program'],
      ["SELECT pg_read_file('/etc/passwd')", 'permission denied for function pg_read_file'],
      ["SELECT lo_import('/etc/passwd')", 'permission denied for function lo_import'],
      [`SELECT * FROM ${otherDb}.app.secrets`, 'cross-database references are not implemented'],
      ['ALTER ROLE CURRENT_USER SUPERUSER', 'must be superuser'],
    ];
    const outcomes = await sql(p, ...attempts.map(([statement]) => statement));
    outcomes.forEach((outcome, i) =>
      expect({ [attempts[i]![0]]: outcome.error }).toEqual({
        [attempts[i]![0]]: expect.stringContaining(attempts[i]![1]) as unknown,
      }),
    );
  });

  it("never shows the statements of another tenant's sessions", async () => {
    const marker = randomUUID();
    const running = sql(other, `SELECT pg_sleep(0.8), '${marker}' AS marker`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [seen] = await sql(
      p,
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%' || '${marker.slice(0, 18)}' || '${marker.slice(18)}%'`,
    );
    expect(seen).toEqual({ ok: { rows: [{ n: 0 }], rowCount: 1 } });
    expect((await running)[0]?.ok).toBeDefined();
  });
});

describe('ctx.jobs, ctx.email and ctx.push are limited per project', () => {
  let p: TestProject;

  beforeAll(async () => {
    p = await project();
  });

  it('stops a project enqueuing 100 000 jobs at the rate limit', async () => {
    const res = await p.client.get<{ queued: number; error?: string }>('/api/flood-jobs');
    expect(res.body).toEqual({
      queued: 600,
      error: expect.stringMatching(
        /^ctx\.jobs\.enqueue: rate limit of 600 jobs per minute for this project reached; try again in \d+ s$/,
      ) as unknown,
    });
  });

  it('stops a flood of mails and of push messages at their rate limits', async () => {
    const mails = await p.client.get<{ sent: number; error?: string }>(
      `/api/flood-mail?to=flood-${randomUUID()}@example.com`,
    );
    expect(mails.body).toEqual({
      sent: 30,
      error: expect.stringMatching(
        /^ctx\.email\.send: rate limit of 30 mails per minute for this project reached/,
      ) as unknown,
    });
    const pushes = await p.client.get<{ sent: number; error?: string }>('/api/flood-push');
    expect(pushes.body).toEqual({
      sent: 600,
      error: expect.stringMatching(
        /^ctx\.push\.send: rate limit of 600 messages per minute for this project reached/,
      ) as unknown,
    });
  });

  it('counts a job against the pending cap until it has run', async () => {
    const fresh = await project();
    const redis = createRedisConnection(infra.REDIS_URL);
    try {
      const key = `${PREFIX}:fx:pending-jobs:${fresh.id}`;
      const res = await fresh.client.get<string[]>('/api/run-jobs');
      expect(res.body).toHaveLength(3);
      let pending = await redis.zcard(key);
      expect(pending).toBe(3);
      for (let i = 0; i < 100 && pending > 0; i++) {
        await sleep(200);
        pending = await redis.zcard(key);
      }
      expect(pending).toBe(0);
    } finally {
      redis.disconnect();
    }
  });

  it('refuses payloads over their caps, naming them', async () => {
    const fresh = await project();
    const res = await fresh.client.get('/api/oversized');
    expect(res.body).toEqual({
      job: { error: 'ctx.jobs.enqueue: the payload is limited to 64 KB of JSON' },
      mail: { error: 'ctx.email.send: text and html together are limited to 256 KB' },
    });
  });
});
