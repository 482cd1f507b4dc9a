import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  uniqueEmail,
  type TestProject,
} from '../support/user-client.js';
import { deploy, signUp, startCollector, type Collector } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// Auth hooks: hooks/auth.ts handlers run in the project's sandbox from the auth-hooks queue,
// fire-and-forget by default, awaited before the answer with blocking: true.

let host: Host;
let collector: Collector;
const projects: TestProject[] = [];

async function project(): Promise<TestProject> {
  const created = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  projects.push(created);
  return created;
}

/** A hook that reports every event (and what its context offers) to the collector. */
function reportingHook(options: string, extra = ''): Record<string, string> {
  return {
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
      export async function report(ctx: HookContext): Promise<void> {
        if (ctx.env.DELAY_MS && ctx.event.kind === 'user.signed_in') await new Promise((r) => setTimeout(r, Number(ctx.env.DELAY_MS)));
        if (ctx.env.THROW && ctx.event.kind === 'user.signed_in') throw new Error('hook says no');
        await fetch(ctx.env.COLLECTOR_URL, { method: 'POST', body: JSON.stringify({
          tag: ctx.env.TAG, event: ctx.event, contextKeys: Object.keys(ctx).sort(), doneAt: Date.now(),
        }) });
      }`,
  };
}

const env = (values: Record<string, string>) =>
  Object.entries({ COLLECTOR_URL: collector.url, ...values })
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');

type Report = {
  tag: string;
  event: Record<string, unknown> & { kind: string; user: { email: string } | null };
  contextKeys: string[];
  doneAt: number;
};
const reports = (tag: string) => collector.received.filter((r) => r.tag === tag) as unknown as Report[];

beforeAll(async () => {
  collector = await startCollector();
  host = await startProjectHost(GENEROUS_LIMITS);
});

afterAll(async () => {
  await host?.app.stop();
  await collector?.close();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
});

describe('fire-and-forget hooks', () => {
  let p: TestProject;

  beforeAll(async () => {
    p = await project();
    const res = await deploy(host, p.id, { ...reportingHook(''), '.env': env({ TAG: 'ff' }) });
    expect(res.status).toBe(201);
  });

  it('runs onUserCreated then onUserSignedIn after register, with a user snapshot and no secrets', async () => {
    const user = await signUp(p);
    await collector.waitFor(
      (r) => r.tag === 'ff' && (r as unknown as Report).event.kind === 'user.signed_in',
    );
    const mine = reports('ff').filter((r) => r.event.user?.email === user.email);
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
    while (
      reports('ff').filter((r) => r.event.user?.email === user.email).length < 5 &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const kinds = reports('ff')
      .filter((r) => r.event.user?.email === user.email)
      .map((r) => r.event.kind);
    expect(kinds.sort()).toEqual([
      'auth.failed',
      'user.created',
      'user.signed_in',
      'user.signed_in',
      'user.signed_out',
    ]);
    const failed = reports('ff').find(
      (r) => r.event.kind === 'auth.failed' && r.event.user?.email === user.email,
    )!;
    expect(failed.event).toMatchObject({ reason: 'invalid_credentials', provider: 'email' });
  });

  it('fires nothing for GET /api/user/me, refresh rotation or an unknown-email magic link', async () => {
    const user = await signUp(p);
    await collector.waitFor(
      (r) =>
        (r as unknown as Report).event?.user?.email === user.email &&
        (r as unknown as Report).event.kind === 'user.signed_in',
    );
    const before = reports('ff').length;
    await p.client.request('GET', '/api/user/me', { bearer: user.accessToken });
    await p.client.request('POST', '/api/user/auth/refresh', { json: { refreshToken: user.refreshToken } });
    await p.client.request(
      'GET',
      `/api/user/auth/magic-link?email=${encodeURIComponent(uniqueEmail('nobody'))}`,
    );
    await new Promise((r) => setTimeout(r, 1_500));
    expect(reports('ff').length).toBe(before);
  });

  it('does not delay the answer: a slow fire-and-forget hook finishes after login answered', async () => {
    const slow = await project();
    await deploy(host, slow.id, { ...reportingHook(''), '.env': env({ TAG: 'ff-slow', DELAY_MS: '1500' }) });
    const user = await signUp(slow);
    const started = Date.now();
    const login = await slow.client.request('POST', '/api/user/auth/login', {
      json: { email: user.email, password: user.password },
    });
    const answeredAt = Date.now();
    expect(login.status).toBe(200);
    expect(answeredAt - started).toBeLessThan(1_000);
    await collector.waitFor(
      (r) => r.tag === 'ff-slow' && (r as unknown as Report).doneAt > answeredAt,
      15_000,
    );
  });
});

describe('blocking hooks', () => {
  it('register and login answer only after the hook ran (latency grows by its run time)', async () => {
    const p = await project();
    const res = await deploy(host, p.id, {
      ...reportingHook('blocking: true, timeoutMs: 5000,'),
      '.env': env({ TAG: 'blk', DELAY_MS: '1200' }),
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
    const registered = reports('blk').filter((r) => r.event.user?.email === email);
    expect(registered.map((r) => r.event.kind)).toEqual(['user.created', 'user.signed_in']);
    expect(registered.every((r) => r.doneAt <= answeredAt)).toBe(true);

    started = Date.now();
    const login = await p.client.request('POST', '/api/user/auth/login', { json: { email, password } });
    answeredAt = Date.now();
    expect(login.status).toBe(200);
    expect(answeredAt - started).toBeGreaterThanOrEqual(1_200);
    expect(reports('blk').filter((r) => r.event.user?.email === email)).toHaveLength(3);

    // Other kinds stay fire-and-forget.
    started = Date.now();
    const bad = await p.client.request('POST', '/api/user/auth/login', {
      json: { email, password: strongPassword() },
    });
    expect(bad.status).toBe(401);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('waits at most timeoutMs, then answers normally', async () => {
    const p = await project();
    await deploy(host, p.id, {
      ...reportingHook('blocking: true, timeoutMs: 1000,'),
      '.env': env({ TAG: 'blk-slow', DELAY_MS: '6000' }),
    });
    const started = Date.now();
    const reg = await p.client.request('POST', '/api/user/auth/register', {
      json: { email: uniqueEmail('slow'), password: strongPassword() },
    });
    const took = Date.now() - started;
    expect(reg.status).toBe(201);
    expect(took).toBeGreaterThanOrEqual(1_000);
    expect(took).toBeLessThan(3_500);
  });

  it('a throwing blocking hook is logged and the normal answer still goes out', async () => {
    const p = await project();
    await deploy(host, p.id, {
      ...reportingHook('blocking: true,'),
      '.env': env({ TAG: 'blk-throw', THROW: '1' }),
    });
    const reg = await p.client.request('POST', '/api/user/auth/register', {
      json: { email: uniqueEmail('throw'), password: strongPassword() },
    });
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ accessToken: expect.any(String) });
  });
});
