import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { join, relative } from 'node:path';
import { repoRoot } from '../support/app-process.js';
import { createTestProject, dropTestProject, tenantQuery, type TestProject } from '../support/user-client.js';
import { deploy, signUp } from './project-code-harness.js';
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

// The context's services for real: ctx.db on the tenant database as the project's own role,
// ctx.email through the project's SMTP and mail log, ctx.jobs on the host's queue, from hooks,
// APIs and jobs (real Postgres, Redis, SMTP and a project host process).

let host: Host;
let mail: MailRig;
const projects: TestProject[] = [];

async function project(): Promise<TestProject> {
  const created = await createTestProject({
    databaseUrl: infra.DATABASE_URL,
    port: host.port,
    smtpPort: mail.smtp.port,
  });
  projects.push(created);
  return created;
}

/** A fixture project's files, as `{ "hooks/auth.ts": "..." }`. */
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

/** Polls `read` until `done` holds (the mail worker and the job queue work in the background). */
async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(200);
  }
}

beforeAll(async () => {
  // Queues of its own: another spec's project worker (other mail settings) must not take its mail.
  host = await startProjectHost({
    ...GENEROUS_LIMITS,
    MAIL_RETRY_DELAY_MS: '200',
    REDIS_PREFIX: `${infra.REDIS_PREFIX}-code-effects`,
  });
  // After the host: the rig then sees the host's mail worker and starts no stand-in of its own, so
  // the mail log is kept by the host's real delivery path.
  mail = await startMailRig();
});

afterAll(async () => {
  await host?.app.stop();
  await mail?.close();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
});

describe('a hook writes with ctx.db, mails and enqueues a job; an API reads it back', () => {
  let p: TestProject;
  let user: { id: string; email: string; accessToken: string };

  beforeAll(async () => {
    p = await project();
    const res = await deploy(host, p.id, fixture('guestbook'));
    expect(res.status).toBe(201);
    expect((res.json as { jobs: unknown }).jobs).toEqual([{ name: 'greet', timeoutMs: 5_000 }]);
    const signed = await signUp(p);
    user = { id: String(decodeJwt(signed.accessToken).payload.sub), ...signed };
  });

  it('the blocking hook inserted the member before register answered; the API reads it as the user', async () => {
    const res = await p.client.get<{ member: Record<string, unknown> | null }>('/api/members/me', {
      bearer: user.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({ id: user.id, email: user.email });
  });

  it('the table lives in the schema app of the tenant database, owned by the project role', async () => {
    const rows = await tenantQuery<{ schemaname: string; tableowner: string }>(
      p.id,
      "SELECT schemaname, tableowner FROM pg_tables WHERE tablename = 'members'",
    );
    expect(rows).toEqual([{ schemaname: 'app', tableowner: expect.stringMatching(/_app$/) as unknown }]);
  });

  it('ctx.email.send reaches the project SMTP server and the mail log as kind custom', async () => {
    const received = await mail.waitFor(user.email, /^Welcome to the guestbook/);
    expect(received.text).toContain('Sign the guestbook');
    expect(received.html).toContain('<b>guestbook</b>');
    const rows = await eventually(
      () =>
        mainQuery<{ kind: string; subject: string; status: string }>(
          'SELECT kind, subject, status FROM mail_log WHERE project_id = $1 AND "to" = $2',
          [p.id, user.email],
        ),
      (found) => found.some((row) => row.kind === 'custom' && row.status === 'sent'),
    );
    expect(rows).toContainEqual({ kind: 'custom', subject: 'Welcome to the guestbook, Ada', status: 'sent' });
  });

  it('the job enqueued by the hook ran jobs/greet.ts with the same ctx', async () => {
    const res = await eventually(
      () =>
        p.client.get<{ member: { greeted_at: string | null; greet_attempts: number } }>('/api/members/me', {
          bearer: user.accessToken,
        }),
      (r) => r.body.member?.greeted_at != null,
    );
    expect(res.body.member.greeted_at).toEqual(expect.any(String));
    expect(res.body.member.greet_attempts).toBe(1);
  });
});

const PROBE = {
  'api/probe.ts': `import { defineApi } from '@suite/platform-sdk';
    const attempt = async (run: () => Promise<unknown>) => {
      try { return { ok: await run() }; } catch (e) { return { error: (e as Error).message }; }
    };
    export default defineApi({ handler: async ({ db, email, jobs, push }) => ({
      sum: await attempt(() => db.query('SELECT $1::int + 1 AS n, $2::jsonb AS doc, 12345678901::bigint AS big', [41, { a: 1 }])),
      write: await attempt(async () => {
        await db.query('CREATE TABLE IF NOT EXISTS notes (body text)');
        return db.query('INSERT INTO notes (body) VALUES ($1), ($2)', ['a', 'b']);
      }),
      platformUsers: await attempt(() => db.query('SELECT * FROM platform_auth.users')),
      platformInsert: await attempt(() => db.query("INSERT INTO platform_auth.users (email) VALUES ('x@y.z')")),
      setRole: await attempt(() => db.query('SET ROLE postgres')),
      several: await attempt(() => db.query('SELECT 1; DROP TABLE notes')),
      notSql: await attempt(() => db.query(42 as never)),
      badParams: await attempt(() => db.query('SELECT $1', 'x' as never)),
      tooManyRows: await attempt(() => db.query('SELECT generate_series(1, 1001) AS n')),
      syntax: await attempt(() => db.query('SELEC 1')),
      badAddress: await attempt(() => email.send({ to: 'not-an-address', subject: 'x', text: 'y' })),
      noBody: await attempt(() => email.send({ to: 'a@b.example', subject: 'x' })),
      unknownJob: await attempt(() => jobs.enqueue('nope', {})),
      badDelay: await attempt(() => jobs.enqueue('noop', {}, { delayMs: -1 })),
      queued: await attempt(() => jobs.enqueue('noop', { n: 1 }, { delayMs: 60_000 })),
      badPush: await attempt(() => push.send({ userId: 'someone' } as never)),
    }) });`,
  'jobs/noop.ts': `import { defineJob } from '@suite/platform-sdk';
    export default defineJob({ handler: () => null });`,
};

describe('the project role and bad inputs', () => {
  let p: TestProject;
  let body: Record<string, { ok?: unknown; error?: string }>;

  beforeAll(async () => {
    p = await project();
    expect((await deploy(host, p.id, PROBE)).status).toBe(201);
    const res = await p.client.get<typeof body>('/api/probe');
    expect(res.status).toBe(200);
    body = res.body;
  });

  it('runs parameterised SQL and answers { rows, rowCount } with JSON values', () => {
    expect(body.sum).toEqual({ ok: { rows: [{ n: 42, doc: { a: 1 }, big: 12345678901 }], rowCount: 1 } });
    expect(body.write).toEqual({ ok: { rows: [], rowCount: 2 } });
  });

  it('cannot read or write platform_auth, nor change role; the error reaches project code', () => {
    expect(body.platformUsers).toEqual({ error: 'ctx.db.query: permission denied for schema platform_auth' });
    expect(body.platformInsert).toEqual({
      error: 'ctx.db.query: permission denied for schema platform_auth',
    });
    expect(body.setRole).toEqual({ error: 'ctx.db.query: permission denied to set role "postgres"' });
  });

  it('refuses several statements, bad arguments, too many rows and bad SQL with a clear message', async () => {
    expect(body.several?.error).toMatch(/one statement per call/);
    expect(body.notSql?.error).toMatch(/sql must be a non-empty string/);
    expect(body.badParams?.error).toMatch(/params must be an array/);
    expect(body.tooManyRows?.error).toMatch(/more than 1000 rows; add a LIMIT/);
    expect(body.syntax?.error).toMatch(/syntax error at or near "SELEC"/);
    // The refused second statement never ran.
    expect(await tenantQuery(p.id, 'SELECT count(*)::int AS n FROM app.notes')).toEqual([{ n: 2 }]);
  });

  it('refuses a bad mail and an unknown or badly delayed job; a good job is queued', () => {
    expect(body.badAddress?.error).toMatch(/to must be one email address/);
    expect(body.noBody?.error).toMatch(/give text or html/);
    expect(body.unknownJob?.error).toMatch(/no job nope in the active deployment \(jobs\/nope\.ts\)/);
    expect(body.badDelay?.error).toMatch(/delayMs must be a number/);
    expect(body.queued?.ok).toEqual({ id: expect.any(String) });
    expect(body.badPush?.error).toMatch(/ctx.push.send: title must be a non-empty string/);
  });

  it('refuses to deploy a jobs/ file without a defineJob default export', async () => {
    const res = await deploy(host, p.id, {
      ...PROBE,
      'jobs/broken.ts': `import { defineApi } from '@suite/platform-sdk';
        export default defineApi({ handler: () => null });`,
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'invalid-request',
      message: 'jobs/broken.ts must default-export defineJob({ handler }).',
    });
  });
});

interface PushStream {
  status: number;
  events: { event: string; data: unknown }[];
  waitFor(event: string, timeoutMs?: number): Promise<{ event: string; data: unknown }>;
  close(): void;
}

/** A push stream read as server-sent events (node:http, so the Host header can name the project). */
function openPush(p: TestProject, options: { bearer?: string; query?: string } = {}): Promise<PushStream> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined = undefined;
    req = request(
      {
        host: '127.0.0.1',
        port: host.port,
        path: `/api/_platform/push${options.query ?? ''}`,
        headers: {
          host: p.host,
          accept: 'text/event-stream',
          ...(options.bearer ? { authorization: `Bearer ${options.bearer}` } : {}),
        },
      },
      (res) => {
        const events: PushStream['events'] = [];
        let buffer = '';
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event) events.push({ event, data: data ? (JSON.parse(data) as unknown) : null });
          }
        });
        res.on('error', () => undefined);
        resolve({
          status: res.statusCode ?? 0,
          events,
          async waitFor(event, timeoutMs = 10_000) {
            const found = await eventually(
              async () => events.find((e) => e.event === event),
              (e) => e !== undefined,
              timeoutMs,
            );
            if (!found)
              throw new Error(`no ${event} event within ${timeoutMs} ms: ${JSON.stringify(events)}`);
            return found;
          },
          close: () => req?.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('ctx.push.send reaches the signed-in user over the push stream', () => {
  let p: TestProject;
  const streams: PushStream[] = [];

  beforeAll(async () => {
    p = await project();
    const res = await deploy(host, p.id, {
      'api/notify.ts': `import { defineApi } from '@suite/platform-sdk';
        export default defineApi({ auth: 'required', methods: ['POST'], handler: async ({ user, request, push }) => {
          const to = (request.body as { to: string }).to;
          await push.send({ userId: to, title: 'Hello', body: 'from ' + user.email, data: { n: 1 } });
          return { sent: true };
        } });`,
      // A helper under api/_platform can never answer the platform's route.
      'api/_platform/push.ts': `export const hijack = true;`,
    });
    expect(res.status).toBe(201);
  });

  afterAll(() => {
    for (const stream of streams) stream.close();
  });

  it("delivers to the addressed user's open stream only, on the host's route", async () => {
    const alice = await signUp(p);
    const bob = await signUp(p);
    const aliceId = String(decodeJwt(alice.accessToken).payload.sub);
    const toAlice = await openPush(p, { bearer: alice.accessToken });
    const toBob = await openPush(p, { query: `?access_token=${bob.accessToken}` });
    streams.push(toAlice, toBob);
    expect([toAlice.status, toBob.status]).toEqual([200, 200]);
    expect((await toAlice.waitFor('ready')).data).toEqual({ userId: aliceId });
    await toBob.waitFor('ready');

    const sent = await p.client.post('/api/notify', { to: aliceId }, { bearer: bob.accessToken });
    expect(sent.status).toBe(200);
    const pushed = await toAlice.waitFor('push');
    expect(pushed.data).toEqual({
      title: 'Hello',
      body: `from ${bob.email}`,
      data: { n: 1 },
      at: expect.any(String),
    });
    await sleep(300);
    expect(toBob.events.map((e) => e.event)).toEqual(['ready']);
  });

  it('answers 401 without a valid access token', async () => {
    const none = await openPush(p);
    const forged = await openPush(p, { bearer: 'not-a-token' });
    streams.push(none, forged);
    expect([none.status, forged.status]).toEqual([401, 401]);
  });
});
