import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  uniqueEmail,
  type TestProject,
} from '../support/user-client.js';
import { deploy, REPORTS_API, Reports, reportSql, signUp } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// Auth hooks: hooks/auth.ts handlers run in the project's sandbox from the auth-hooks queue,
// fire-and-forget by default, awaited before the answer with blocking: true. The hook reports what
// it saw as rows in its project's database (ctx.db): its sandbox has no network.

let host: Host;
const projects: TestProject[] = [];

async function project(): Promise<TestProject> {
  const created = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  projects.push(created);
  return created;
}

/** A hook that reports every event (and what its context offers) as a row of its database. */
function reportingHook(options: string, extra = ''): Record<string, string> {
  return {
    ...REPORTS_API,
    'hooks/auth.ts': `import { defineAuthHook, type HookContext } from '@suite/platform-sdk';
      import { report } from './report';
      ${extra}
      export default defineAuthHook({
        ${options}
        onUserCreated: report, onUserSignedIn: report, onUserSignedOut: report, onUserUpdated: report,
        onUserPasswordUpdated: report, onUserDeleted: report, onMagicLinkRequested: report,
        onPasswordResetRequested: report, onAuthFailed: report,
      });`,
    'hooks/report.ts': `import type { HookContext } from '@suite/platform-sdk';
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      export async function report(ctx: HookContext): Promise<void> {
        if (ctx.env.DELAY_MS && ctx.event.kind === 'user.signed_in') await sleep(Number(ctx.env.DELAY_MS));
        if (ctx.env.FAILED_DELAY_MS && ctx.event.kind === 'auth.failed') await sleep(Number(ctx.env.FAILED_DELAY_MS));
        if (ctx.env.THROW && ctx.event.kind === 'user.signed_in') throw new Error('hook says no');
        await ctx.db.query(${JSON.stringify(reportSql)}, [{
          tag: ctx.env.TAG, event: ctx.event, contextKeys: Object.keys(ctx).sort(), doneAt: Date.now(),
        }]);
      }`,
  };
}

type Report = {
  tag: string;
  event: Record<string, unknown> & { kind: string; user: { email: string } | null };
  contextKeys: string[];
  doneAt: number;
};

/** Deploys a reporting hook with this .env; its reports table is ready when this returns. */
async function deployReporting(p: TestProject, options: string, env: Record<string, string>) {
  const res = await deploy(host, p.id, {
    ...reportingHook(options),
    '.env': Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  });
  expect(res.status).toBe(201);
  const reports = new Reports<Report>(p);
  await reports.all();
  return { res, reports };
}

const of = (reports: Report[], email: string) => reports.filter((r) => r.event.user?.email === email);

beforeAll(async () => {
  host = await startProjectHost(GENEROUS_LIMITS);
});

afterAll(async () => {
  await host?.app.stop();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
});

describe('fire-and-forget hooks', () => {
  let p: TestProject;
  let reports: Reports<Report>;

  beforeAll(async () => {
    p = await project();
    ({ reports } = await deployReporting(p, '', { TAG: 'ff' }));
  });

  it('runs onUserCreated then onUserSignedIn after register, with a user snapshot and no secrets', async () => {
    const user = await signUp(p);
    await reports.waitFor((r) => r.event.kind === 'user.signed_in' && r.event.user?.email === user.email);
    const mine = of(await reports.all(), user.email);
    expect(mine.map((r) => r.tag)).toEqual(['ff', 'ff']);
    expect(mine.map((r) => r.event.kind)).toEqual(['user.created', 'user.signed_in']);
    expect(mine[0]!.event).toEqual({
      kind: 'user.created',
      provider: 'email',
      at: expect.any(String),
      user: { id: expect.any(String), email: user.email, name: 'Ada', picture: null },
    });
    expect(mine[0]!.contextKeys).toEqual(['db', 'email', 'env', 'event', 'jobs', 'push']);
    const text = JSON.stringify(mine);
    expect(text).not.toContain(user.password);
    expect(text).not.toContain(user.accessToken);
    expect(text).not.toContain(user.refreshToken);
  });

  it('fires user.signed_in on login, auth.failed on a wrong password and user.signed_out on revoke', async () => {
    const user = await signUp(p);
    const login = await p.client.request('POST', '/api/user/auth/login', {
      json: { email: user.email, password: user.password },
    });
    expect(login.status).toBe(200);
    const bad = await p.client.request('POST', '/api/user/auth/login', {
      json: { email: user.email, password: strongPassword() },
    });
    expect(bad.status).toBe(401);
    const out = await p.client.request('POST', '/api/user/auth/refresh', {
      json: { refreshToken: user.refreshToken, revoke: true },
    });
    expect(out.status).toBe(200);
    // Batches run concurrently (events are ordered within a batch), so wait for all five.
    const deadline = Date.now() + 20_000;
    let mine = of(await reports.all(), user.email);
    while (mine.length < 5 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      mine = of(await reports.all(), user.email);
    }
    expect(mine.map((r) => r.event.kind).sort()).toEqual([
      'auth.failed',
      'user.created',
      'user.signed_in',
      'user.signed_in',
      'user.signed_out',
    ]);
    const failed = mine.find((r) => r.event.kind === 'auth.failed')!;
    expect(failed.event).toMatchObject({ reason: 'invalid_credentials', provider: 'email' });
  });

  it('fires nothing for GET /api/user/me, refresh rotation or an unknown-email magic link', async () => {
    const user = await signUp(p);
    await reports.waitFor((r) => r.event.user?.email === user.email && r.event.kind === 'user.signed_in');
    const before = (await reports.all()).length;
    await p.client.request('GET', '/api/user/me', { bearer: user.accessToken });
    await p.client.request('POST', '/api/user/auth/refresh', { json: { refreshToken: user.refreshToken } });
    await p.client.request(
      'GET',
      `/api/user/auth/magic-link?email=${encodeURIComponent(uniqueEmail('nobody'))}`,
    );
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await reports.all()).length).toBe(before);
  });

  it('does not delay the answer: a slow fire-and-forget hook finishes after login answered', async () => {
    const slow = await project();
    const { reports: slowReports } = await deployReporting(slow, '', { TAG: 'ff-slow', DELAY_MS: '1500' });
    const user = await signUp(slow);
    const login = await slow.client.request('POST', '/api/user/auth/login', {
      json: { email: user.email, password: user.password },
    });
    const answeredAt = Date.now();
    expect(login.status).toBe(200);
    // Compared by order, not by a time budget: the login's hook was still running when it answered.
    const hookOfLogin = await slowReports.waitFor(
      (r) => r.event.kind === 'user.signed_in' && r.event.user?.email === user.email && r.doneAt > answeredAt,
      15_000,
    );
    expect(hookOfLogin.tag).toBe('ff-slow');
  });
});

describe('blocking hooks', () => {
  it('register and login answer only after the hook ran (latency grows by its run time)', async () => {
    const p = await project();
    const { res, reports } = await deployReporting(p, 'blocking: true, timeoutMs: 5000,', {
      TAG: 'blk',
      DELAY_MS: '1200',
      FAILED_DELAY_MS: '1200',
    });
    expect(res.json).toMatchObject({ hook: { blocking: true, timeoutMs: 5_000 } });
    const email = uniqueEmail('blk');
    const password = strongPassword();
    let started = Date.now();
    const reg = await p.client.request('POST', '/api/user/auth/register', { json: { email, password } });
    let answeredAt = Date.now();
    expect(reg.status).toBe(201);
    expect(answeredAt - started).toBeGreaterThanOrEqual(1_200);
    // Both events of the batch ran, in order, before the answer.
    const registered = of(await reports.all(), email);
    expect(registered.map((r) => r.event.kind)).toEqual(['user.created', 'user.signed_in']);
    expect(registered.every((r) => r.doneAt <= answeredAt)).toBe(true);

    started = Date.now();
    const login = await p.client.request('POST', '/api/user/auth/login', { json: { email, password } });
    answeredAt = Date.now();
    expect(login.status).toBe(200);
    expect(answeredAt - started).toBeGreaterThanOrEqual(1_200);
    expect(of(await reports.all(), email)).toHaveLength(3);

    // Other kinds stay fire-and-forget: a wrong password answers while its (slow) hook still runs.
    const bad = await p.client.request('POST', '/api/user/auth/login', {
      json: { email, password: strongPassword() },
    });
    const badAnsweredAt = Date.now();
    expect(bad.status).toBe(401);
    const failed = await reports.waitFor(
      (r) => r.event.kind === 'auth.failed' && r.event.user?.email === email,
    );
    expect(failed.doneAt).toBeGreaterThan(badAnsweredAt);
  });

  it('waits at most timeoutMs, then answers normally', async () => {
    const p = await project();
    const { reports } = await deployReporting(p, 'blocking: true, timeoutMs: 1000,', {
      TAG: 'blk-slow',
      DELAY_MS: '6000',
    });
    const email = uniqueEmail('slow');
    const started = Date.now();
    const reg = await p.client.request('POST', '/api/user/auth/register', {
      json: { email, password: strongPassword() },
    });
    const took = Date.now() - started;
    expect(reg.status).toBe(201);
    expect(took).toBeGreaterThanOrEqual(1_000);
    // Compared by order, not by a time budget: it answered before the 6 s handler could finish.
    expect(of(await reports.all(), email).filter((r) => r.event.kind === 'user.signed_in')).toEqual([]);
  });

  it('a throwing blocking hook is logged and the normal answer still goes out', async () => {
    const p = await project();
    await deployReporting(p, 'blocking: true,', { TAG: 'blk-throw', THROW: '1' });
    const reg = await p.client.request('POST', '/api/user/auth/register', {
      json: { email: uniqueEmail('throw'), password: strongPassword() },
    });
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ accessToken: expect.any(String) });
  });
});
