import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  tenantQuery,
  uniqueEmail,
  type TestProject,
} from '../support/user-client.js';
import { createQueue, createRedisConnection, QueueName } from '../../libs/queue/src/index.js';
import {
  codeFrom,
  decodeJwt,
  GENEROUS_LIMITS,
  HookEvents,
  infra,
  linkFrom,
  mainQuery,
  sleep,
  startMailRig,
  startProjectHost,
  type Host,
  type MailRig,
} from './user-auth-harness.js';

// The flows that go through a mailed code: magic-link sign-in, password reset and email change.
// Codes are read from mail a real SMTP server received.

let host: Host;
let mail: MailRig;
let events: HookEvents;
let main: TestProject;
const projects: TestProject[] = [];

async function project(auth: Parameters<typeof createTestProject>[0]['auth'] = {}, domains: string[] = []) {
  const created = await createTestProject({
    databaseUrl: infra.DATABASE_URL,
    port: host.port,
    smtpPort: mail.smtp.port,
    auth,
    domains,
  });
  projects.push(created);
  return created;
}

beforeAll(async () => {
  mail = await startMailRig();
  host = await startProjectHost(GENEROUS_LIMITS);
  events = new HookEvents();
  main = await project({}, ['app.shop.example']);
});

afterAll(async () => {
  await host?.app.stop();
  await events?.close();
  await mail?.close();
  for (const created of projects) await dropTestProject(infra.DATABASE_URL, created).catch(() => undefined);
});

/** A user who signed up with a password. */
async function passwordUser(target: TestProject = main, name?: string) {
  const email = uniqueEmail();
  const password = strongPassword();
  const res = await target.client.register(email, password, name);
  expect(res.status).toBe(201);
  return { email, password, pair: res.body };
}

/** A user without a password (as an identity-provider sign-up leaves one), signed in by magic link. */
async function passwordlessUser(target: TestProject = main, name: string | null = null) {
  const email = uniqueEmail('nopw');
  await tenantQuery(target.id, 'INSERT INTO users (id, email, name) VALUES (gen_random_uuid(), $1, $2)', [
    email,
    name,
  ]);
  const pair = await magicSignIn(target, email);
  return { email, pair };
}

async function magicSignIn(target: TestProject, email: string) {
  const before = mail.to(email).length;
  expect(
    (await target.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`)).status,
  ).toBe(200);
  const link = await mail.smtp.waitFor(
    (m) => m.to.includes(email) && /sign-in link/.test(m.subject) && mail.to(email).indexOf(m) >= before,
  );
  const res = await target.client.get(`/api/user/auth/magic-link/callback?code=${codeFrom(link)}`);
  expect(res.status).toBe(200);
  return res.body as { accessToken: string; refreshToken: string };
}

async function mailLogFor(projectId: string, to: string): Promise<{ kind: string }[]> {
  return mainQuery('SELECT kind FROM mail_log WHERE project_id = $1 AND "to" = $2', [projectId, to]);
}

describe('magic link', () => {
  it('mails {projectPublicUrl}?type=magic&code=<code>, fires magic_link_requested, and the callback signs in', async () => {
    const { email } = await passwordUser();
    const res = await main.client.get(
      `/api/user/auth/magic-link?email=${encodeURIComponent(email.toUpperCase())}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', message: expect.any(String) });

    const message = await mail.waitFor(email, /sign-in link/);
    const code = codeFrom(message);
    expect(linkFrom(message)).toBe(`${main.publicUrl}?type=magic&code=${code}`);
    expect(message.html?.replace(/&#38;/g, '&')).toContain(
      `href="${main.publicUrl}?type=magic&code=${code}"`,
    );
    await events.waitFor(main.id, (e) => e.kind === 'magic_link_requested' && e.user?.email === email);

    const signedIn = await main.client.get(`/api/user/auth/magic-link/callback?code=${code}`);
    expect(signedIn.status).toBe(200);
    expect(Object.keys(signedIn.body).sort()).toEqual(['accessToken', 'refreshToken']);
    expect((await main.client.me(signedIn.body.accessToken as string)).body.email).toBe(email);
    const last = (await events.forEmail(main.id, email)).at(-1);
    expect(last).toMatchObject({ kind: 'user.signed_in', provider: 'magic_link' });

    // Single use: the same code again is nonce-invalid, with auth.failed naming the user.
    const again = await main.client.get(`/api/user/auth/magic-link/callback?code=${code}`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: 'nonce-invalid', message: expect.any(String) });
    const failed = await events.waitFor(main.id, (e) => e.kind === 'auth.failed' && e.user?.email === email);
    expect(failed.reason).toBe('nonce_invalid');
    // The hook payloads never carry the code.
    expect(JSON.stringify(await events.of(main.id))).not.toContain(code);
    // Only its hash is stored, and not a plain sha256 of it (keyed with the server secret).
    const stored = await tenantQuery<{ code_hash: string; plain: string }>(
      main.id,
      `SELECT code_hash, encode(sha256($1::bytea), 'hex') AS plain FROM nonces WHERE kind = 'magic_link' AND email = $2`,
      [code, email],
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]!.code_hash).not.toBe(stored[0]!.plain);
  });

  it('claims an account registered by someone else before its address was proven (pre-hijacking)', async () => {
    // The attacker registers the victim's address first, with a password, and keeps a session.
    const { email, password, pair } = await passwordUser(main, 'Attacker');
    expect(decodeJwt(pair.accessToken).payload.email_verified).toBe(false);
    const id = (await main.client.me(pair.accessToken)).body.id as string;
    const before = (await events.forEmail(main.id, email)).length;

    // The victim signs in with a link mailed to the address: the account is now theirs.
    const victim = await magicSignIn(main, email);
    expect(decodeJwt(victim.accessToken).payload.email_verified).toBe(true);
    const me = await main.client.me(victim.accessToken);
    expect(me.body).toMatchObject({ id, email });
    // The attacker's password, refresh token and access token no longer work.
    expect((await main.client.login(email, password)).status).toBe(401);
    expect((await main.client.refresh(pair.refreshToken)).status).toBe(401);
    expect((await main.client.me(pair.accessToken)).status).toBe(401);
    const [row] = await tenantQuery<{ password_hash: string | null; email_verified: boolean }>(
      main.id,
      'SELECT password_hash, email_verified FROM users WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ password_hash: null, email_verified: true });
    await sleep(200);
    const after = (await events.forEmail(main.id, email))
      .slice(before)
      .filter((e) => e.kind !== 'magic_link_requested' && e.kind !== 'auth.failed');
    expect(after.map((e) => [e.kind, e.provider, e.claimed ?? false])).toEqual([
      ['user.updated', 'magic_link', true],
      ['user.signed_in', 'magic_link', false],
    ]);

    // Proven once, never claimed again: the next link just signs in.
    const again = (await events.forEmail(main.id, email)).length;
    const second = await magicSignIn(main, email);
    expect((await main.client.me(victim.accessToken)).status).toBe(200);
    expect(decodeJwt(second.accessToken).payload.email_verified).toBe(true);
    await sleep(200);
    const kinds = (await events.forEmail(main.id, email)).slice(again).map((e) => e.kind);
    expect(kinds.filter((k) => k !== 'magic_link_requested')).toEqual(['user.signed_in']);
  });

  it('keeps no sign-in link or code in Redis: the queued body is sealed and the delivered job removed', async () => {
    const { email } = await passwordUser();
    const requested = await main.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`);
    expect(requested.status).toBe(200);
    const message = await mail.waitFor(email, /sign-in link/);
    const code = codeFrom(message);
    const [row] = await mainQuery<{ id: string }>(
      `SELECT id FROM mail_log WHERE project_id = $1 AND "to" = $2 AND kind = 'magic-link'`,
      [main.id, email],
    );
    const connection = createRedisConnection(infra.REDIS_URL);
    const queue = createQueue(QueueName.Mail, connection);
    try {
      // Delivered: the job is gone (it may take a moment after the SMTP answer).
      for (let i = 0; i < 50 && (await queue.getJob(row!.id)); i++) await sleep(100);
      expect(await queue.getJob(row!.id)).toBeUndefined();
      // And no mail job anywhere holds the code or a sign-in link in clear.
      const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'], 0, -1);
      const payloads = JSON.stringify(jobs.map((job) => job.data));
      expect(payloads).not.toContain(code);
      expect(payloads).not.toMatch(/type=magic|type=forgot-password|type=email-change/);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  it('seals the body of a mail that cannot be delivered (it waits in Redis for retries)', async () => {
    const unreachable = await project();
    await mainQuery('UPDATE smtp_settings SET port = 9 WHERE project_id = $1', [unreachable.id]);
    const { email } = await passwordUser(unreachable);
    expect(
      (await unreachable.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`)).status,
    ).toBe(200);
    const connection = createRedisConnection(infra.REDIS_URL);
    const queue = createQueue(QueueName.Mail, connection);
    try {
      let job;
      for (let i = 0; i < 100; i++) {
        const [row] = await mainQuery<{ id: string }>(
          `SELECT id FROM mail_log WHERE project_id = $1 AND "to" = $2 AND kind = 'magic-link'`,
          [unreachable.id, email],
        );
        job = row ? await queue.getJob(row.id) : undefined;
        if (job) break;
        await sleep(100);
      }
      expect(job).toBeDefined();
      expect(job!.data.content).toMatchObject({ kind: 'magic-link', to: email, subject: '', text: '' });
      expect(typeof job!.data.sealed).toBe('string');
      expect(JSON.stringify(job!.data)).not.toMatch(/code=|type=magic|sign-in link/i);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  it.each([
    [
      'http on localhost',
      'http://localhost:5173/auth/done',
      'http://localhost:5173/auth/done?type=magic&code=',
    ],
    ['http on 127.0.0.1', 'http://127.0.0.1:3000/cb', 'http://127.0.0.1:3000/cb?type=magic&code='],
    ['http on [::1]', 'http://[::1]:8080/', 'http://[::1]:8080/?type=magic&code='],
    [
      'https on the slug host',
      'https://SLUG/welcome?from=mail',
      'https://SLUG/welcome?from=mail&type=magic&code=',
    ],
    [
      'https on a verified custom domain',
      'https://app.shop.example/in',
      'https://app.shop.example/in?type=magic&code=',
    ],
    ['a native app scheme', 'com.shop.app://auth/callback', 'com.shop.app://auth/callback?type=magic&code='],
  ])('links to a redirect_uri with %s', async (_, redirect, expected) => {
    const { email } = await passwordUser();
    const uri = redirect.replace('SLUG', `${main.slug}.localhost`);
    const res = await main.client.get(
      `/api/user/auth/magic-link?email=${encodeURIComponent(email)}&redirect_uri=${encodeURIComponent(uri)}`,
    );
    expect(res.status).toBe(200);
    const message = await mail.waitFor(email, /sign-in link/);
    expect(linkFrom(message)).toBe(
      `${expected.replace('SLUG', `${main.slug}.localhost`)}${codeFrom(message)}`,
    );
  });

  it.each([
    'https://evil.example/cb',
    'http://evil.example/cb',
    'https://SLUG.evil.example/',
    'https://evil.example@SLUG/',
    'https://SLUG%2eevil.example/',
    'https:\\\\evil.example',
    'javascript:alert(1)',
    'javascript://SLUG/%0aalert(1)',
    'data:text/html,hi',
    'vbscript://x',
    'file:///etc/passwd',
    '//evil.example/cb',
    'http://localhost.evil.example/',
    'https://SLUG/#fragment',
    'not a uri',
  ])('refuses redirect_uri %s with 400 invalid_redirect_uri and sends nothing', async (redirect) => {
    const { email } = await passwordUser();
    const uri = redirect.replace('SLUG', `${main.slug}.localhost`);
    const res = await main.client.get(
      `/api/user/auth/magic-link?email=${encodeURIComponent(email)}&redirect_uri=${encodeURIComponent(uri)}`,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'invalid_redirect_uri',
      message: expect.stringMatching(/^redirect_uri /),
    });
    await sleep(300);
    expect((await mailLogFor(main.id, email)).filter((m) => m.kind === 'magic-link')).toEqual([]);
  });

  it('answers an unknown email exactly like a known one, with no mail and no hook', async () => {
    const { email: known } = await passwordUser();
    const unknown = uniqueEmail('stranger');
    const a = await main.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(known)}`);
    const b = await main.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(unknown)}`);
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    await mail.waitFor(known, /sign-in link/);
    await sleep(500);
    expect(await mailLogFor(main.id, unknown)).toEqual([]);
    expect(mail.to(unknown)).toEqual([]);
    expect(JSON.stringify(await events.of(main.id))).not.toContain(unknown);
  });

  it('lets exactly one of several concurrent callbacks with the same code sign in', async () => {
    const { email } = await passwordUser();
    await main.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`);
    const code = codeFrom(await mail.waitFor(email, /sign-in link/));
    const results = await Promise.all(
      Array.from({ length: 8 }, () => main.client.get(`/api/user/auth/magic-link/callback?code=${code}`)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    const sessions = await tenantQuery(
      main.id,
      'SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1',
      [email],
    );
    expect(sessions).toHaveLength(2); // the sign-up and the one winning callback
  });

  it('voids an older link when a newer one is requested, and refuses expired or unknown codes', async () => {
    const { email } = await passwordUser();
    await main.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`);
    const first = codeFrom(await mail.waitFor(email, /sign-in link/));
    await main.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`);
    const second = await mail.smtp.waitFor(
      (m) => m.to.includes(email) && /sign-in link/.test(m.subject) && !m.text.includes(first),
    );
    expect((await main.client.get(`/api/user/auth/magic-link/callback?code=${first}`)).status).toBe(400);

    await tenantQuery(
      main.id,
      `UPDATE nonces SET expires_at = now() - interval '1 second' WHERE email = $1 AND consumed_at IS NULL`,
      [email],
    );
    const expired = await main.client.get(`/api/user/auth/magic-link/callback?code=${codeFrom(second)}`);
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('nonce-invalid');
    for (const code of ['x'.repeat(43), 'short', '%00']) {
      const res = await main.client.get(`/api/user/auth/magic-link/callback?code=${code}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('nonce-invalid');
    }
  });

  it('does not sign in with a code mailed to an address the account no longer has', async () => {
    const { email, password, pair } = await passwordUser();
    await main.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`);
    const code = codeFrom(await mail.waitFor(email, /sign-in link/));
    const moved = uniqueEmail('moved');
    const change = await main.client.put(
      '/api/user/me',
      { email: moved, currentPassword: password },
      { bearer: pair.accessToken },
    );
    expect(change.status).toBe(200);
    expect((await main.client.get(`/api/user/auth/magic-link/callback?code=${code}`)).status).toBe(400);
  });

  it('does not accept a code of one project on another', async () => {
    const second = await project();
    const email = uniqueEmail('both');
    await main.client.register(email, strongPassword());
    await second.client.register(email, strongPassword());
    await main.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`);
    const message = await mail.smtp.waitFor(
      (m) => m.to.includes(email) && m.subject === `Your sign-in link for ${main.name}`,
    );
    expect(
      (await second.client.get(`/api/user/auth/magic-link/callback?code=${codeFrom(message)}`)).status,
    ).toBe(400);
    expect(
      (await main.client.get(`/api/user/auth/magic-link/callback?code=${codeFrom(message)}`)).status,
    ).toBe(200);
  });
});

describe('forgot password', () => {
  it('mails the code and {projectPublicUrl}?type=forgot-password&code=<code>; the callback replaces the password without tokens', async () => {
    const { email, password, pair } = await passwordUser();
    const res = await main.client.post('/api/user/auth/forgot-password', { email });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', message: expect.any(String) });

    const message = await mail.waitFor(email, /Reset your/);
    const code = codeFrom(message);
    expect(linkFrom(message)).toBe(`${main.publicUrl}?type=forgot-password&code=${code}`);
    expect(message.text).toContain(`Or enter this code: ${code}`);
    await events.waitFor(main.id, (e) => e.kind === 'password_reset_requested' && e.user?.email === email);

    // A password the policy refuses does not spend the code.
    const weak = await main.client.post('/api/user/auth/forgot-password/callback', {
      code,
      password: 'short',
    });
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('invalid-request');
    const own = await main.client.post('/api/user/auth/forgot-password/callback', { code, password: email });
    expect(own.status).toBe(400);

    const next = strongPassword();
    const done = await main.client.post('/api/user/auth/forgot-password/callback', { code, password: next });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'ok', message: expect.any(String) });
    expect(JSON.stringify(done.body)).not.toMatch(/Token/);
    const updated = await events.waitFor(
      main.id,
      (e) => e.kind === 'user.password_updated' && e.user?.email === email,
    );
    expect(updated.user).toEqual({ id: expect.any(String), email, name: null, picture: null });

    expect((await main.client.login(email, password)).status).toBe(401);
    expect((await main.client.login(email, next)).status).toBe(200);
    // Every earlier session is signed out.
    expect((await main.client.refresh(pair.refreshToken)).status).toBe(401);
    expect((await main.client.me(pair.accessToken)).status).toBe(401);

    const again = await main.client.post('/api/user/auth/forgot-password/callback', {
      code,
      password: strongPassword(),
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('nonce-invalid');
    expect(JSON.stringify(await events.of(main.id))).not.toContain(code);
  });

  it('answers an unknown email exactly like a known one, with no mail and no hook', async () => {
    const { email: known } = await passwordUser();
    const unknown = uniqueEmail('nobody');
    const a = await main.client.post('/api/user/auth/forgot-password', { email: known });
    const b = await main.client.post('/api/user/auth/forgot-password', { email: unknown });
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    await mail.waitFor(known, /Reset your/);
    await sleep(500);
    expect(await mailLogFor(main.id, unknown)).toEqual([]);
    expect(JSON.stringify(await events.of(main.id))).not.toContain(unknown);
  });

  it('lets exactly one of several concurrent resets with the same code through', async () => {
    const { email } = await passwordUser();
    await main.client.post('/api/user/auth/forgot-password', { email });
    const code = codeFrom(await mail.waitFor(email, /Reset your/));
    const passwords = Array.from({ length: 6 }, () => strongPassword());
    const results = await Promise.all(
      passwords.map((password) =>
        main.client.post('/api/user/auth/forgot-password/callback', { code, password }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    const winner = passwords[results.findIndex((r) => r.status === 200)]!;
    expect((await main.client.login(email, winner)).status).toBe(200);
    const updates = (await events.forEmail(main.id, email)).filter((e) => e.kind === 'user.password_updated');
    expect(updates).toHaveLength(1);
  });

  it('does not take a magic-link code as a reset code', async () => {
    const { email } = await passwordUser();
    await main.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`);
    const code = codeFrom(await mail.waitFor(email, /sign-in link/));
    const res = await main.client.post('/api/user/auth/forgot-password/callback', {
      code,
      password: strongPassword(),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('nonce-invalid');
    expect((await main.client.get(`/api/user/auth/magic-link/callback?code=${code}`)).status).toBe(200);
  });

  it('lets a user without a password set one', async () => {
    const { email } = await passwordlessUser();
    await main.client.post('/api/user/auth/forgot-password', { email });
    const code = codeFrom(await mail.waitFor(email, /Reset your/));
    const password = strongPassword();
    expect(
      (await main.client.post('/api/user/auth/forgot-password/callback', { code, password })).status,
    ).toBe(200);
    expect((await main.client.login(email, password)).status).toBe(200);
  });
});

describe('profile and email change', () => {
  it('PUT /api/user/me with only a name updates it (user.updated); an unchanged name fires nothing', async () => {
    const { email, pair } = await passwordUser(main, 'Before');
    const res = await main.client.put('/api/user/me', { name: 'After' }, { bearer: pair.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), name: 'After', email, picture: null });
    const updated = await events.waitFor(
      main.id,
      (e) => e.kind === 'user.updated' && e.user?.email === email,
    );
    expect(updated.user?.name).toBe('After');
    expect(
      (await main.client.put('/api/user/me', { name: 'After' }, { bearer: pair.accessToken })).status,
    ).toBe(200);
    expect((await main.client.put('/api/user/me', {}, { bearer: pair.accessToken })).status).toBe(200);
    await sleep(200);
    expect((await events.forEmail(main.id, email)).filter((e) => e.kind === 'user.updated')).toHaveLength(1);
    expect((await main.client.put('/api/user/me', { name: 'x' })).status).toBe(401);
  });

  it('changes the email of a user with a password at once, given the current password; the old address is told', async () => {
    const { email, password, pair } = await passwordUser(main, 'Mover');
    const next = uniqueEmail('new');
    const missing = await main.client.put('/api/user/me', { email: next }, { bearer: pair.accessToken });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: 'current-password-required', message: expect.any(String) });

    const wrong = await main.client.put(
      '/api/user/me',
      { email: next, currentPassword: 'Wrong-password-42' },
      { bearer: pair.accessToken },
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ code: 'invalid-credentials', message: expect.any(String) });
    const failed = await events.waitFor(main.id, (e) => e.kind === 'auth.failed' && e.user?.email === email);
    expect(failed.reason).toBe('invalid_credentials');

    const { email: taken } = await passwordUser();
    const clash = await main.client.put(
      '/api/user/me',
      { email: taken, currentPassword: password },
      { bearer: pair.accessToken },
    );
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('identity-already-exists');

    const ok = await main.client.put(
      '/api/user/me',
      { email: next.toUpperCase(), name: 'Moved', currentPassword: password },
      { bearer: pair.accessToken },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ id: expect.any(String), name: 'Moved', email: next, picture: null });
    const notice = await mail.waitFor(email, /email address was changed/);
    expect(notice.text).toContain(next);
    expect(mail.to(next)).toEqual([]);
    await events.waitFor(main.id, (e) => e.kind === 'user.updated' && e.user?.email === next);
    expect((await main.client.login(next, password)).status).toBe(200);
    expect((await main.client.login(email, password)).status).toBe(401);
  });

  it('marks an address changed with the password (not proven by a code) as unproven again', async () => {
    const { email, password, pair } = await passwordUser();
    // As if the address had been proven earlier (a mailed code, a verifying provider).
    await tenantQuery(main.id, 'UPDATE users SET email_verified = true WHERE email = $1', [email]);
    const proven = await main.client.login(email, password);
    expect(decodeJwt(proven.body.accessToken).payload.email_verified).toBe(true);
    const next = uniqueEmail('unproven');
    const ok = await main.client.put(
      '/api/user/me',
      { email: next, currentPassword: password },
      { bearer: pair.accessToken },
    );
    expect(ok.status).toBe(200);
    const [row] = await tenantQuery<{ email_verified: boolean }>(
      main.id,
      'SELECT email_verified FROM users WHERE email = $1',
      [next],
    );
    expect(row).toEqual({ email_verified: false });
    const after = await main.client.login(next, password);
    expect(decodeJwt(after.body.accessToken).payload.email_verified).toBe(false);
  });

  it('makes the change of a user without a password pending (202), mails a code to the new address, and applies a name at once', async () => {
    const { email, pair } = await passwordlessUser(main, 'Old Name');
    const next = uniqueEmail('pending');
    const res = await main.client.put(
      '/api/user/me',
      { email: next, name: 'New Name' },
      { bearer: pair.accessToken },
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.any(String), name: 'New Name', email, pendingEmail: next });
    expect((await main.client.me(pair.accessToken)).body).toMatchObject({ name: 'New Name', email });
    const updated = await events.waitFor(
      main.id,
      (e) => e.kind === 'user.updated' && e.user?.name === 'New Name',
    );
    expect(updated.user?.email).toBe(email);

    const message = await mail.waitFor(next, /Confirm your new email address/);
    const code = codeFrom(message);
    expect(linkFrom(message)).toBe(`${main.publicUrl}?type=email-change&code=${code}`);
    expect(mail.to(email).filter((m) => /Confirm/.test(m.subject))).toEqual([]);
    const [nonce] = await tenantQuery<{ minutes: number }>(
      main.id,
      `SELECT round(extract(epoch FROM expires_at - created_at) / 60) AS minutes FROM nonces WHERE kind = 'email_change' AND email = $1`,
      [next],
    );
    expect(Number(nonce!.minutes)).toBe(15);

    const confirmed = await main.client.post('/api/user/auth/email-change/callback', { code });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ id: res.body.id, name: 'New Name', email: next });
    const notice = await mail.waitFor(email, /email address was changed/);
    expect(notice.text).toContain(next);
    await events.waitFor(main.id, (e) => e.kind === 'user.updated' && e.user?.email === next);
    const [row] = await tenantQuery<{ email: string; pending_email: string | null }>(
      main.id,
      'SELECT email, pending_email FROM users WHERE id = $1',
      [res.body.id],
    );
    expect(row).toEqual({ email: next, pending_email: null });
    const again = await main.client.post('/api/user/auth/email-change/callback', { code });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('nonce-invalid');
  });

  it('replaces a pending change with a newer request: the older code no longer works', async () => {
    const { pair } = await passwordlessUser();
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    expect(
      (await main.client.put('/api/user/me', { email: first }, { bearer: pair.accessToken })).status,
    ).toBe(202);
    const firstCode = codeFrom(await mail.waitFor(first, /Confirm/));
    const res = await main.client.put('/api/user/me', { email: second }, { bearer: pair.accessToken });
    expect(res.status).toBe(202);
    expect(res.body.pendingEmail).toBe(second);
    const secondCode = codeFrom(await mail.waitFor(second, /Confirm/));

    const stale = await main.client.post('/api/user/auth/email-change/callback', { code: firstCode });
    expect(stale.status).toBe(400);
    expect(stale.body.code).toBe('nonce-invalid');
    const ok = await main.client.post('/api/user/auth/email-change/callback', { code: secondCode });
    expect(ok.status).toBe(200);
    expect(ok.body.email).toBe(second);
  });

  it('answers 409 identity-already-exists when the new address was taken meanwhile, and leaves the change pending', async () => {
    const { email, pair } = await passwordlessUser();
    const next = uniqueEmail('contested');
    expect(
      (await main.client.put('/api/user/me', { email: next }, { bearer: pair.accessToken })).status,
    ).toBe(202);
    const code = codeFrom(await mail.waitFor(next, /Confirm/));
    expect((await main.client.register(next, strongPassword())).status).toBe(201);

    const res = await main.client.post('/api/user/auth/email-change/callback', { code });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'identity-already-exists', message: expect.any(String) });
    expect((await main.client.me(pair.accessToken)).body.email).toBe(email);
    const [row] = await tenantQuery<{ pending_email: string }>(
      main.id,
      'SELECT pending_email FROM users WHERE email = $1',
      [email],
    );
    expect(row!.pending_email).toBe(next);
  });

  it('refuses an address already in use at request time, and bad or expired codes', async () => {
    const { pair } = await passwordlessUser();
    const { email: taken } = await passwordUser();
    const clash = await main.client.put('/api/user/me', { email: taken }, { bearer: pair.accessToken });
    expect(clash.status).toBe(409);

    const next = uniqueEmail('late');
    await main.client.put('/api/user/me', { email: next }, { bearer: pair.accessToken });
    const code = codeFrom(await mail.waitFor(next, /Confirm/));
    await tenantQuery(
      main.id,
      `UPDATE nonces SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [next],
    );
    expect((await main.client.post('/api/user/auth/email-change/callback', { code })).status).toBe(400);
    const garbage = await main.client.post('/api/user/auth/email-change/callback', { code: 'y'.repeat(43) });
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe('nonce-invalid');
  });

  it('lets exactly one of several concurrent confirmations through', async () => {
    const { pair } = await passwordlessUser();
    const next = uniqueEmail('once');
    await main.client.put('/api/user/me', { email: next }, { bearer: pair.accessToken });
    const code = codeFrom(await mail.waitFor(next, /Confirm/));
    const results = await Promise.all(
      Array.from({ length: 6 }, () => main.client.post('/api/user/auth/email-change/callback', { code })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect((await events.forEmail(main.id, next)).filter((e) => e.kind === 'user.updated')).toHaveLength(1);
  });

  it('confirms an email change even when email/password sign-in is turned off', async () => {
    const switching = await project();
    const { email, pair } = await passwordlessUser(switching);
    const next = uniqueEmail('idp-user');
    expect(
      (await switching.client.put('/api/user/me', { email: next }, { bearer: pair.accessToken })).status,
    ).toBe(202);
    const code = codeFrom(await mail.waitFor(next, /Confirm/));

    await mainQuery('UPDATE auth_settings SET email_password = false WHERE project_id = $1', [switching.id]);
    // The host caches a project's settings for up to 5 s.
    const deadline = Date.now() + 8_000;
    while ((await switching.client.login(email, 'whatever-password')).status !== 403) {
      if (Date.now() > deadline) throw new Error('email/password never turned off');
      await sleep(250);
    }
    const res = await switching.client.post('/api/user/auth/email-change/callback', { code });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(next);
  });
});
