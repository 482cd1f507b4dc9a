import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRedisConnection } from '../../libs/queue/src/index.js';
import { PasswordHasher } from '../../apps/project-host/src/user-auth/passwords/password-hasher.js';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  tenantQuery,
  uniqueEmail,
  type HttpResult,
  type TestProject,
} from '../support/user-client.js';
import { startApp } from '../support/app-process.js';
import { deploy } from './project-code-harness.js';
import {
  codeFrom,
  infra,
  mainQuery,
  startMailRig,
  startProjectHost,
  type Host,
  type MailRig,
} from './user-auth-harness.js';

// Rate limits of /api/user: per client address (X-Forwarded-For trusted only as far as
// TRUSTED_PROXY_HOPS), per account, per mailed address, and per project's hourly mail budget.

const LIMITS = {
  AUTH_RATE_LIMIT_IP_PER_MINUTE: '5',
  AUTH_RATE_LIMIT_REFRESH_PER_MINUTE: '5',
  AUTH_RATE_LIMIT_ACCOUNT_PER_15_MINUTES: '3',
  AUTH_RATE_LIMIT_ACCOUNT_OTHERS_PER_15_MINUTES: '5',
  AUTH_MAIL_COOLDOWN_SECONDS: '60',
  AUTH_MAIL_PER_ADDRESS_PER_HOUR: '2',
  AUTH_MAIL_PER_PROJECT_PER_HOUR: '4',
  MAIL_BULK_PER_PROJECT_PER_HOUR: '3',
  MAIL_BULK_PER_ADDRESS_PER_HOUR: '2',
};

let proxied: Host; // behind one trusted proxy: the test plays that proxy with X-Forwarded-For
let direct: Host; // no trusted proxy: X-Forwarded-For is ignored
let defaults: Host; // the default limits, behind one trusted proxy
let mail: MailRig;
const projects: TestProject[] = [];
let ipCounter = 0;

/** A client address of its own for each caller, so tests do not share per-IP budgets. */
function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter}`;
}

function from(ip: string) {
  return { headers: { 'x-forwarded-for': ip } };
}

async function project(target: Host = proxied): Promise<TestProject> {
  const created = await createTestProject({
    databaseUrl: infra.DATABASE_URL,
    port: target.port,
    smtpPort: mail.smtp.port,
  });
  projects.push(created);
  return created;
}

/** A user inserted straight into the tenant (no welcome mail, no budget spent). */
async function seedUser(target: TestProject, password?: string): Promise<string> {
  const email = uniqueEmail('limited');
  const hash = password ? await new PasswordHasher(10).hash(password) : null;
  await tenantQuery(
    target.id,
    'INSERT INTO users (id, email, password_hash) VALUES (gen_random_uuid(), $1, $2)',
    [email, hash],
  );
  return email;
}

function expectLimited(res: HttpResult<Record<string, unknown>>, maxSeconds: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ code: 'rate_limited', message: expect.any(String) });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

beforeAll(async () => {
  mail = await startMailRig();
  [proxied, direct, defaults] = await Promise.all([
    startProjectHost({ ...LIMITS, TRUSTED_PROXY_HOPS: '1' }),
    startProjectHost({ ...LIMITS, TRUSTED_PROXY_HOPS: '0' }),
    startProjectHost({ TRUSTED_PROXY_HOPS: '1' }),
  ]);
});

afterAll(async () => {
  await Promise.all([proxied?.app.stop(), direct?.app.stop(), defaults?.app.stop()]);
  await mail?.close();
  for (const created of projects) await dropTestProject(infra.DATABASE_URL, created).catch(() => undefined);
});

describe('per client address', () => {
  it('answers 429 rate_limited with Retry-After once an address used its login budget; other addresses go on', async () => {
    const target = await project();
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await target.client.post(
        '/api/user/auth/login',
        { email: uniqueEmail(), password: 'x' },
        from(ip),
      );
      expect(res.status).toBe(401);
    }
    expectLimited(
      await target.client.post('/api/user/auth/login', { email: uniqueEmail(), password: 'x' }, from(ip)),
      60,
    );
    // Only the right-most address (the one our proxy appended) counts: a client cannot prepend its way out.
    expectLimited(
      await target.client.post(
        '/api/user/auth/login',
        { email: uniqueEmail(), password: 'x' },
        from(`203.0.113.9, ${ip}`),
      ),
      60,
    );
    const other = await target.client.post(
      '/api/user/auth/login',
      { email: uniqueEmail(), password: 'x' },
      from(freshIp()),
    );
    expect(other.status).toBe(401);
    // Route families have separate budgets: this address may still refresh.
    expect(
      (await target.client.post('/api/user/auth/refresh', { refreshToken: 'x'.repeat(43) }, from(ip))).status,
    ).toBe(401);
  });

  it('ignores X-Forwarded-For without a trusted proxy, so a client cannot rotate addresses', async () => {
    const target = await project(direct);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await target.client.post(
        '/api/user/auth/forgot-password',
        { email: uniqueEmail() },
        from(freshIp()),
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('limits refreshes and code callbacks per address', async () => {
    const target = await project();
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      expect(
        (await target.client.post('/api/user/auth/refresh', { refreshToken: `${i}`.repeat(43) }, from(ip)))
          .status,
      ).toBe(401);
    }
    expectLimited(
      await target.client.post('/api/user/auth/refresh', { refreshToken: 'z'.repeat(43) }, from(ip)),
      60,
    );

    const guesser = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await target.client.get(
        `/api/user/auth/magic-link/callback?code=${`${i}`.repeat(43)}`,
        from(guesser),
      );
      expect(res.status).toBe(400);
    }
    expectLimited(
      await target.client.get(`/api/user/auth/magic-link/callback?code=${'q'.repeat(43)}`, from(guesser)),
      60,
    );
    expectLimited(
      await target.client.post(
        '/api/user/auth/email-change/callback',
        { code: 'q'.repeat(43) },
        from(guesser),
      ),
      60,
    );
  });
});

describe('per account', () => {
  it('limits failed logins per account and address; a success resets that address', async () => {
    const target = await project();
    const password = strongPassword();
    const email = await seedUser(target, password);
    const ip = freshIp();
    const login = (pw: string, at = ip) =>
      target.client.post('/api/user/auth/login', { email, password: pw }, from(at));
    // The owner's usual address (signed in from before).
    const elsewhere = freshIp();
    expect((await login(password, elsewhere)).status).toBe(200);
    // (5 login requests a minute per address: the account limit, 3, is met first.)
    for (let i = 0; i < 3; i++) expect((await login(`wrong-${i}`)).status).toBe(401);
    // This address is held off for the account, even with the right password, up to 15 minutes…
    const held = await login(password);
    expectLimited(held, 15 * 60);
    expect(held.body.message).toMatch(/this account from this address/);
    // …but not the account's other addresses, nor other accounts.
    const at = (pw: string) => login(pw, elsewhere);
    expect((await at('wrong-password-1')).status).toBe(401);
    expect((await at('wrong-password-2')).status).toBe(401);
    // A success resets the count of its address.
    expect((await at(password)).status).toBe(200);
    expect((await at('wrong-password-3')).status).toBe(401);
    const otherEmail = await seedUser(target, password);
    expect(
      (await target.client.post('/api/user/auth/login', { email: otherEmail, password }, from(ip))).status,
    ).toBe(200);
  });

  it('holds off new addresses once an account collected failures from many of them, never the owner’s own address', async () => {
    const target = await project();
    const password = strongPassword();
    const email = await seedUser(target, password);
    // The owner signs in from their usual address once.
    const home = freshIp();
    expect((await target.client.post('/api/user/auth/login', { email, password }, from(home))).status).toBe(
      200,
    );
    // Attackers from 5 other addresses (the limit of failures from new addresses).
    for (let i = 0; i < 5; i++) {
      const res = await target.client.post(
        '/api/user/auth/login',
        { email, password: `guess-${i}-password` },
        from(freshIp()),
      );
      expect(res.status).toBe(401);
    }
    // A new address is now held off, whatever it sends (backoff for the others)…
    expectLimited(
      await target.client.post('/api/user/auth/login', { email, password }, from(freshIp())),
      15 * 60,
    );
    // …while the owner's own address still signs in.
    expect((await target.client.post('/api/user/auth/login', { email, password }, from(home))).status).toBe(
      200,
    );
  });

  it('limits current-password checks of an email change per user', async () => {
    const target = await project();
    const password = strongPassword();
    const email = await seedUser(target, password);
    const { body: pair } = await target.client.post<{ accessToken: string }>(
      '/api/user/auth/login',
      { email, password },
      from(freshIp()),
    );
    const attempt = (currentPassword: string) =>
      target.client.put(
        '/api/user/me',
        { email: uniqueEmail(), currentPassword },
        { bearer: pair.accessToken, ...from(freshIp()) },
      );
    for (let i = 0; i < 3; i++) expect((await attempt(`wrong-${i}-password`)).status).toBe(403);
    expectLimited(await attempt(password), 15 * 60);
  });
});

describe('targeted lockout (default limits)', () => {
  it('after 1,000 wrong passwords from 50 other addresses in 15 minutes, the right password from the user’s own address still signs in', async () => {
    const target = await project(defaults);
    const password = strongPassword();
    const email = await seedUser(target, password);
    const home = '192.0.2.10';
    expect((await target.client.post('/api/user/auth/login', { email, password }, from(home))).status).toBe(
      200,
    );
    const attackers = Array.from({ length: 50 }, (_, i) => `203.0.113.${i + 1}`);
    const statuses = new Map<number, number>();
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(
        attackers.map((ip) =>
          target.client.post('/api/user/auth/login', { email, password: `guess-${round}-${ip}` }, from(ip)),
        ),
      );
      for (const res of answers) statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    // Every guess failed (401 while it was tried, 429 once held off), none signed in.
    expect([...statuses.keys()].sort()).toEqual([401, 429]);
    expect(statuses.get(401)).toBeLessThanOrEqual(100);
    const own = await target.client.post('/api/user/auth/login', { email, password }, from(home));
    expect(own.status).toBe(200);
    expect(Object.keys(own.body).sort()).toEqual(['accessToken', 'refreshToken']);
  }, 300_000);
});

describe('mail', () => {
  it('never lets requests from other addresses use up the mail allowance of the user’s own address', async () => {
    const target = await project();
    const password = strongPassword();
    const email = await seedUser(target, password);
    const home = freshIp();
    expect((await target.client.post('/api/user/auth/login', { email, password }, from(home))).status).toBe(
      200,
    );
    // Others ask for mails to the owner's address until they are capped (mail-bombing): 2 an hour.
    expect(
      (await target.client.post('/api/user/auth/forgot-password', { email }, from(freshIp()))).status,
    ).toBe(200);
    expect(
      (
        await target.client.get(
          `/api/user/auth/magic-link?email=${encodeURIComponent(email)}`,
          from(freshIp()),
        )
      ).status,
    ).toBe(200);
    for (let i = 0; i < 3; i++) {
      expectLimited(
        await target.client.post('/api/user/auth/forgot-password', { email }, from(freshIp())),
        3600,
      );
    }
    // The owner, from their own address, still gets a reset mail and a sign-in link.
    const before = mail.to(email).length;
    expect((await target.client.post('/api/user/auth/forgot-password', { email }, from(home))).status).toBe(
      200,
    );
    expect(
      (await target.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`, from(home)))
        .status,
    ).toBe(200);
    await mail.smtp.waitFor((m) => m.to.includes(email) && /sign-in link/.test(m.subject));
    expect(mail.to(email).length).toBeGreaterThan(before);
  });

  it('keeps a cooldown per address and kind, whether or not the address has an account', async () => {
    const target = await project();
    const known = await seedUser(target);
    const unknown = uniqueEmail('nobody');
    for (const email of [known, unknown]) {
      const first = await target.client.get(
        `/api/user/auth/magic-link?email=${encodeURIComponent(email)}`,
        from(freshIp()),
      );
      expect(first.status).toBe(200);
      const second = await target.client.get(
        `/api/user/auth/magic-link?email=${encodeURIComponent(email)}`,
        from(freshIp()),
      );
      expectLimited(second, 60);
    }
    // Another kind of mail to the same address has its own cooldown.
    expect(
      (await target.client.post('/api/user/auth/forgot-password', { email: known }, from(freshIp()))).status,
    ).toBe(200);
    await mail.waitFor(known, /sign-in link/);
    await mail.waitFor(known, /Reset your/);
  });

  it('caps mails per address per hour across kinds (including email-change codes)', async () => {
    const target = await project();
    const signedIn = await seedUser(target);
    await target.client.get(
      `/api/user/auth/magic-link?email=${encodeURIComponent(signedIn)}`,
      from(freshIp()),
    );
    const code = codeFrom(await mail.waitFor(signedIn, /sign-in link/));
    const pair = (
      await target.client.get<{ accessToken: string }>(
        `/api/user/auth/magic-link/callback?code=${code}`,
        from(freshIp()),
      )
    ).body;

    const address = uniqueEmail('popular');
    expect(
      (
        await target.client.get(
          `/api/user/auth/magic-link?email=${encodeURIComponent(address)}`,
          from(freshIp()),
        )
      ).status,
    ).toBe(200);
    expect(
      (await target.client.post('/api/user/auth/forgot-password', { email: address }, from(freshIp())))
        .status,
    ).toBe(200);
    const third = await target.client.put(
      '/api/user/me',
      { email: address },
      { bearer: pair.accessToken, ...from(freshIp()) },
    );
    expectLimited(third, 3600);
  });

  it('stops at the project hourly sign-in mail budget: requests get 429, welcome mails go on', async () => {
    const target = await project();
    const users = await Promise.all(Array.from({ length: 5 }, () => seedUser(target)));
    for (const email of users.slice(0, 4)) {
      const res = await target.client.get(
        `/api/user/auth/magic-link?email=${encodeURIComponent(email)}`,
        from(freshIp()),
      );
      expect(res.status).toBe(200);
      await mail.waitFor(email, /sign-in link/);
    }
    const over = await target.client.get(
      `/api/user/auth/magic-link?email=${encodeURIComponent(users[4]!)}`,
      from(freshIp()),
    );
    expectLimited(over, 3600);
    expect(over.body.message).toMatch(/too many sign-in mails this hour/);

    // Welcome mail has a budget of its own.
    const late = uniqueEmail('late');
    const registered = await target.client.post(
      '/api/user/auth/register',
      { email: late, password: strongPassword() },
      from(freshIp()),
    );
    expect(registered.status).toBe(201);
    await mail.waitFor(late, /^Welcome to/);
  });

  it("a burst of sign-ups spends only the welcome budget: the victim's magic link and reset still arrive", async () => {
    const target = await project();
    const victim = await seedUser(target, strongPassword());
    // The attacker signs up from many addresses (a botnet), more accounts than welcome mails fit.
    const burst = Array.from({ length: 5 }, () => uniqueEmail('burst'));
    for (const email of burst) {
      const res = await target.client.post(
        '/api/user/auth/register',
        { email, password: strongPassword() },
        from(freshIp()),
      );
      expect(res.status).toBe(201);
    }
    // The register answer comes once its welcome mail is queued or recorded as dropped.
    const dropped = await mainQuery(
      `SELECT "to", status, error FROM mail_log
        WHERE project_id = $1 AND kind = 'welcome' AND status = 'failed' ORDER BY created_at`,
      [target.id],
    );
    expect(dropped).toEqual(
      burst.slice(3).map((to) => ({
        to,
        status: 'failed',
        error: "Not sent: the project's hourly budget of 3 welcome and project mails is spent.",
      })),
    );

    const link = await target.client.get(
      `/api/user/auth/magic-link?email=${encodeURIComponent(victim)}`,
      from(freshIp()),
    );
    expect(link.status).toBe(200);
    const reset = await target.client.post(
      '/api/user/auth/forgot-password',
      { email: victim },
      from(freshIp()),
    );
    expect(reset.status).toBe(200);
    await mail.waitFor(victim, /sign-in link/);
    await mail.waitFor(victim, /Reset your/);
    // The first three welcome mails went out; the dropped ones never reached the SMTP server.
    for (const email of burst.slice(0, 3)) await mail.waitFor(email, /^Welcome to/);
    expect(burst.slice(3).flatMap((email) => mail.to(email))).toEqual([]);
  });
});

describe('project mail (ctx.email.send)', () => {
  it('is capped per address and shares the bulk budget; refusals are errors to the code and in the mail log', async () => {
    const target = await project();
    const deployed = await deploy(proxied, target.id, {
      'api/note.ts': `import { defineApi } from '@suite/platform-sdk';
        export default defineApi({ handler: async ({ email, request }) => {
          try {
            await email.send({ to: String(request.query.to), subject: 'Note', text: 'x' });
            return { sent: true };
          } catch (e) { return { error: (e as Error).message }; }
        } });`,
    });
    expect(deployed.status).toBe(201);
    const send = async (to: string) =>
      (await target.client.get(`/api/note?to=${encodeURIComponent(to)}`, from(freshIp()))).body;
    const victim = uniqueEmail('bombed');
    expect(await send(victim)).toEqual({ sent: true });
    expect(await send(victim)).toEqual({ sent: true });
    expect(await send(victim)).toEqual({
      error: 'ctx.email.send: this address got 2 welcome or project mails this hour already; try later',
    });
    const other = uniqueEmail('other');
    expect(await send(other)).toEqual({ sent: true });
    const late = uniqueEmail('late');
    expect(await send(late)).toEqual({
      error: "ctx.email.send: the project's hourly budget of 3 welcome and project mails is spent; try later",
    });
    expect(
      await mainQuery(
        `SELECT "to", status FROM mail_log
          WHERE project_id = $1 AND kind = 'custom' AND status = 'failed' ORDER BY created_at`,
        [target.id],
      ),
    ).toEqual([
      { to: victim, status: 'failed' },
      { to: late, status: 'failed' },
    ]);
    // The mails within the caps go out (the refused ones were never queued).
    await mail.waitFor(other, /^Note$/);
    while (mail.to(victim).length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
  });
});

describe('storage of the counters', () => {
  it('keeps them in Redis under REDIS_PREFIX, with hashed emails', async () => {
    const target = await project();
    const email = uniqueEmail('hashed');
    await target.client.post('/api/user/auth/login', { email, password: 'x' }, from(freshIp()));
    const redis = createRedisConnection(infra.REDIS_URL);
    try {
      const keys = await redis.keys(`${infra.REDIS_PREFIX}:ua:rl:*${target.id}*`);
      expect(keys.some((key) => key.startsWith(`${infra.REDIS_PREFIX}:ua:rl:account-login:`))).toBe(true);
      expect(keys.some((key) => key.startsWith(`${infra.REDIS_PREFIX}:ua:rl:ip-login:`))).toBe(true);
      expect(keys.join('\n')).not.toContain(email);
    } finally {
      redis.disconnect();
    }
  });
});

describe('configuration', () => {
  it.each([
    [{ NODE_ENV: 'production' }, /AUTH_SECRET is required when NODE_ENV=production/],
    [{ AUTH_SECRET: 'too-short' }, /AUTH_SECRET must be at least 32 characters.*\(got \(hidden\)\)/],
    [{ BCRYPT_COST: '8' }, /BCRYPT_COST must be between 10 and 14/],
    [{ REFRESH_REUSE_GRACE_MS: '600000' }, /REFRESH_REUSE_GRACE_MS must be between 0 and 60000/],
  ])('refuses to boot with %j', async (env, message) => {
    const app = startApp('project-host', {
      ...infra,
      HOST: '127.0.0.1',
      PORT: '0',
      PLATFORM_ADMIN_TOKEN: 'user-auth-admin-token-0123456789',
      ...env,
    });
    expect(await app.exited).toBe(1);
    expect(app.output()).toMatch(message);
    expect(app.output()).not.toContain('too-short');
  });
});
