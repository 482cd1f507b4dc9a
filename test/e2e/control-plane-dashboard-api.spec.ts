import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startSmtpCapture, type Captured, type SmtpCapture } from '../support/smtp-capture.js';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  uniqueEmail,
  UserClient,
  type ApiBody,
  type TestProject,
  type TokenPair,
} from '../support/user-client.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// The control-plane endpoints the dashboard's everyday pages use, against the BUILT project host
// and project worker, real Postgres, Redis and SMTP: the token check, the Auth page's settings, a
// user's detail and "sign out everywhere", a mail's detail (its preview never shows a usable code
// or link) and resend (a fresh code; the old one stops working), and the SMTP test mail.

const ADMIN = 'user-auth-admin-token-0123456789';
const TOKEN_SHAPE = /[A-Za-z0-9_-]{43}/;

let host: Host;
let smtp: SmtpCapture;
let project: TestProject;
let other: TestProject;
let admin: UserClient;

const asAdmin = <T = ApiBody>(method: string, path: string, json?: unknown) =>
  admin.request<T>(method, path, { bearer: ADMIN, ...(json === undefined ? {} : { json }) });

/** The code a captured auth mail carries (in its link and, for resets, on its own line). */
const codeOf = (mail: Captured): string => /code=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;

interface MailEntry {
  id: string;
  kind: string;
  to: string;
  status: string;
}

async function mailLogEntry(projectId: string, kind: string, to: string, except: string[] = []) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await asAdmin<{ items: MailEntry[] }>('GET', `/v1/projects/${projectId}/emails?pageSize=100`);
    const found = res.body.items.find((m) => m.kind === kind && m.to === to && !except.includes(m.id));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${kind} mail to ${to} in the mail log`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  smtp = await startSmtpCapture();
  host = await startProjectHost({ ...GENEROUS_LIMITS });
  admin = new UserClient(host.port, `localhost:${host.port}`);
  project = await createTestProject({
    databaseUrl: infra.DATABASE_URL,
    port: host.port,
    smtpPort: smtp.port,
  });
  other = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: smtp.port });
});

afterAll(async () => {
  await host?.app.stop();
  await smtp?.close();
  for (const p of [project, other])
    if (p) await dropTestProject(infra.DATABASE_URL, p).catch(() => undefined);
});

describe('POST /v1/admin/token-check', () => {
  it('answers 200 with whether the token is the admin token, and is not served on a project host', async () => {
    expect((await admin.post('/v1/admin/token-check', { token: ADMIN })).body).toEqual({ valid: true });
    const wrong = await admin.post('/v1/admin/token-check', { token: `${ADMIN}x` });
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 200, body: { valid: false } });
    const missing = await admin.post('/v1/admin/token-check', {});
    expect({ status: missing.status, message: missing.body.message }).toEqual({
      status: 400,
      message: 'token is required',
    });
    expect((await project.client.post('/v1/admin/token-check', { token: ADMIN })).status).toBe(404);
  });
});

describe('POST /v1/admin/validate', () => {
  it.each([
    ['create-project', { slug: 'admin' }, [{ field: 'slug', problem: '"admin" is reserved' }]],
    ['create-project', { slug: 'fine-slug' }, []],
    [
      'smtp-settings',
      { host: 'smtp.example.com', port: 70000, secure: false, from: 'a@b.test' },
      [{ field: 'port', problem: 'must be a whole number from 1 to 65535' }],
    ],
    [
      'add-domain',
      { domain: '10.0.0.1' },
      [{ field: 'domain', problem: 'must be a host name, not an IP address' }],
    ],
    [
      'test-mail',
      { to: 'nobody' },
      [{ field: 'to', problem: 'must be a mail address such as you@example.com' }],
    ],
    ['auth-settings', { enabled: true }, [{ field: 'emailPassword', problem: 'is required' }]],
  ])('checks a %s body as its endpoint would, answering 200: %j', async (form, values, problems) => {
    const res = await asAdmin('POST', '/v1/admin/validate', { form, values });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { problems } });
  });

  it('refuses an unknown form, a body that is not an object, and a missing admin token', async () => {
    const unknown = await asAdmin('POST', '/v1/admin/validate', { form: 'drop-tables', values: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^form must be one of/);
    const notObject = await asAdmin('POST', '/v1/admin/validate', { form: 'create-project', values: [1] });
    expect({ status: notObject.status, message: notObject.body.message }).toEqual({
      status: 400,
      message: 'values must be a JSON object',
    });
    expect((await admin.post('/v1/admin/validate', { form: 'create-project', values: {} })).status).toBe(401);
  });
});

describe('GET /v1/projects/{id}/auth', () => {
  it('shows the saved settings and that the platform identity provider is not configured', async () => {
    const res = await asAdmin('GET', `/v1/projects/${project.id}/auth`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      enabled: true,
      emailPassword: true,
      idpMode: 'platform',
      hasClientSecret: false,
      platformIdp: { configured: false },
    });
    expect((await admin.get(`/v1/projects/${project.id}/auth`)).status).toBe(401);
  });
});

describe('a user’s detail and sign out everywhere', () => {
  let email = '';
  let userId = '';
  let pairs: TokenPair[] = [];

  beforeAll(async () => {
    email = uniqueEmail('detail');
    const password = strongPassword();
    const registered = await project.client.post<TokenPair>('/api/user/auth/register', { email, password });
    expect(registered.status).toBe(201);
    const login = await project.client.post<TokenPair>('/api/user/auth/login', { email, password });
    expect(login.status).toBe(200);
    // A refresh continues a sign-in: still two sessions, one of them refreshed.
    const refreshed = await project.client.post<TokenPair>('/api/user/auth/refresh', {
      refreshToken: login.body.refreshToken,
    });
    expect(refreshed.status).toBe(200);
    pairs = [registered.body, refreshed.body];
    const list = await asAdmin<{ items: { id: string; email: string }[] }>(
      'GET',
      `/v1/projects/${project.id}/users?search=${encodeURIComponent(email)}`,
    );
    userId = list.body.items[0]!.id;
  });

  it('lists the sign-in methods, the last sign-in and one session per sign-in', async () => {
    const res = await asAdmin<{
      email: string;
      providers: { kind: string }[];
      lastSignInAt: string;
      activeSessions: number;
      sessions: { active: boolean; startedAt: string; lastRefreshedAt: string }[];
    }>('GET', `/v1/projects/${project.id}/users/${userId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email, providers: [{ kind: 'password' }], activeSessions: 2 });
    expect(res.body.sessions).toHaveLength(2);
    const [newest, oldest] = res.body.sessions;
    expect(newest!.lastRefreshedAt > newest!.startedAt).toBe(true);
    expect(oldest!.lastRefreshedAt).toBe(oldest!.startedAt);
    expect(res.body.lastSignInAt).toBe(res.body.sessions[0]!.startedAt);
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|tokenHash|\$2[aby]\$/);
  });

  it('revokes every refresh session: refresh tokens and access tokens stop working', async () => {
    expect((await project.client.get('/api/user/me', { bearer: pairs[1]!.accessToken })).status).toBe(200);
    const res = await asAdmin('POST', `/v1/projects/${project.id}/users/${userId}/sign-out`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { revokedSessions: 2 } });
    for (const pair of pairs) {
      const refresh = await project.client.post('/api/user/auth/refresh', {
        refreshToken: pair.refreshToken,
      });
      expect(refresh.status).toBe(401);
    }
    expect((await project.client.get('/api/user/me', { bearer: pairs[1]!.accessToken })).status).toBe(401);
    const after = await asAdmin<{ activeSessions: number; sessions: { active: boolean }[] }>(
      'GET',
      `/v1/projects/${project.id}/users/${userId}`,
    );
    expect(after.body.activeSessions).toBe(0);
    expect(after.body.sessions.every((s) => !s.active)).toBe(true);
  });

  it.each([
    ['a malformed id', () => `/v1/projects/${project.id}/users/not-a-uuid`],
    ['an unknown id', () => `/v1/projects/${project.id}/users/${randomUUID()}`],
    ['this user under another project', () => `/v1/projects/${other.id}/users/${userId}`],
    ['an unknown project', () => `/v1/projects/${randomUUID()}/users/${userId}`],
    ['a malformed project id', () => `/v1/projects/%27%3B--/users/${userId}`],
  ])('answers 404, not 500, for %s', async (_name, path) => {
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/sign-out'],
    ] as const) {
      const res = await asAdmin(method, `${path()}${suffix}`);
      expect({ status: res.status, code: res.body.code }).toEqual({
        status: 404,
        code: expect.stringMatching(/^(not_found|project_not_found)$/),
      });
    }
  });
});

describe('a mail’s detail and resend', () => {
  let email = '';

  beforeAll(async () => {
    email = uniqueEmail('mail');
    const res = await project.client.post('/api/user/auth/register', { email, password: strongPassword() });
    expect(res.status).toBe(201);
  });

  it('previews a magic-link mail with its link hidden; resend mails a fresh link and the old code stops working', async () => {
    const asked = await project.client.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`);
    expect(asked.status).toBe(200);
    const first = await smtp.waitFor((m) => m.to === email && /sign-in link/i.test(m.subject), 20_000);
    const oldCode = codeOf(first);
    const entry = await mailLogEntry(project.id, 'magic-link', email);

    const detail = await asAdmin<{
      preview: string;
      headers: { name: string; value: string | null }[];
      resend: { possible: boolean };
    }>('GET', `/v1/projects/${project.id}/emails/${entry.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.preview).toContain(`${project.publicUrl}/?type=magic&code=[hidden]`);
    expect(detail.body.preview).not.toContain(oldCode);
    expect(detail.body.preview).not.toMatch(TOKEN_SHAPE);
    expect(JSON.stringify(detail.body)).not.toContain(oldCode);
    expect(detail.body.headers).toEqual(
      expect.arrayContaining([
        { name: 'To', value: email },
        { name: 'From', value: expect.stringContaining('no-reply@') },
      ]),
    );
    expect(detail.body.resend.possible).toBe(true);

    const resent = await asAdmin('POST', `/v1/projects/${project.id}/emails/${entry.id}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.body.message).toMatch(/new sign-in link/);
    const second = await smtp.waitFor(
      (m) => m.to === email && /sign-in link/i.test(m.subject) && codeOf(m) !== oldCode,
      20_000,
    );
    const newCode = codeOf(second);
    await mailLogEntry(project.id, 'magic-link', email, [entry.id]);

    const old = await project.client.get(`/api/user/auth/magic-link/callback?code=${oldCode}`);
    expect({ status: old.status, code: old.body.code }).toEqual({ status: 400, code: 'nonce-invalid' });
    const fresh = await project.client.get<TokenPair>(`/api/user/auth/magic-link/callback?code=${newCode}`);
    expect(fresh.status).toBe(200);
    expect(fresh.body.accessToken).toBeTruthy();
  });

  it('previews a password-reset mail with the code hidden in the link and on its own line', async () => {
    await project.client.post('/api/user/auth/forgot-password', { email });
    const mail = await smtp.waitFor((m) => m.to === email && /reset/i.test(m.subject), 20_000);
    const code = codeOf(mail);
    const entry = await mailLogEntry(project.id, 'forgot-password', email);
    const detail = await asAdmin<{ preview: string }>('GET', `/v1/projects/${project.id}/emails/${entry.id}`);
    expect(detail.body.preview).not.toContain(code);
    expect(detail.body.preview).not.toMatch(TOKEN_SHAPE);
    expect(detail.body.preview).toContain('Or enter this code: [hidden]');
    // The code the mail carries still works: the preview hid it, it did not spend it.
    const reset = await project.client.post('/api/user/auth/forgot-password/callback', {
      code,
      password: strongPassword(),
    });
    expect(reset.status).toBe(200);
  });

  it('answers 404 for a malformed id, an unknown id and another project’s mail, on detail and resend', async () => {
    const entry = await mailLogEntry(project.id, 'welcome', email);
    for (const path of [
      `/v1/projects/${project.id}/emails/x'y`,
      `/v1/projects/${project.id}/emails/${randomUUID()}`,
      `/v1/projects/${other.id}/emails/${entry.id}`,
    ]) {
      for (const [method, suffix] of [
        ['GET', ''],
        ['POST', '/resend'],
      ] as const) {
        const res = await asAdmin(method, `${path}${suffix}`);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
      }
    }
  });

  it('re-sends a welcome mail to a user who is still there, and refuses (409) once the user is gone', async () => {
    const gone = uniqueEmail('gone');
    await project.client.post('/api/user/auth/register', { email: gone, password: strongPassword() });
    const entry = await mailLogEntry(project.id, 'welcome', gone);
    const users = await asAdmin<{ items: { id: string }[] }>(
      'GET',
      `/v1/projects/${project.id}/users?search=${encodeURIComponent(gone)}`,
    );
    const again = await asAdmin('POST', `/v1/projects/${project.id}/emails/${entry.id}/resend`);
    expect(again.status).toBe(202);
    await asAdmin('DELETE', `/v1/projects/${project.id}/users/${users.body.items[0]!.id}`);
    const refused = await asAdmin('POST', `/v1/projects/${project.id}/emails/${entry.id}/resend`);
    expect({ status: refused.status, message: refused.body.message }).toEqual({
      status: 409,
      message: expect.stringContaining('No user of this project has the address'),
    });
  });
});

describe('POST /v1/projects/{id}/smtp/test', () => {
  it('sends a test mail through the saved SMTP server', async () => {
    const to = uniqueEmail('smtp-test');
    const res = await asAdmin('POST', `/v1/projects/${project.id}/smtp/test`, { to });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sent: true, to });
    const mail = await smtp.waitFor((m) => m.to === to, 10_000);
    expect(mail.subject).toBe(`Test mail from ${project.name}`);
  });

  it('reports the SMTP error in plain words when the server cannot be reached', async () => {
    const saved = await asAdmin('PUT', `/v1/projects/${other.id}/smtp`, {
      host: '127.0.0.1',
      port: 1,
      secure: false,
      user: 'mailer',
      pass: 'smtp-password-not-to-be-shown',
      from: 'Other <no-reply@other.test>',
    });
    expect(saved.status).toBe(200);
    const res = await asAdmin('POST', `/v1/projects/${other.id}/smtp/test`, { to: 'someone@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      sent: false,
      error: 'Could not connect to 127.0.0.1:1: the connection was refused. Check the host and port.',
    });
    expect(JSON.stringify(res.body)).not.toContain('smtp-password-not-to-be-shown');
  });

  it('names the bad field, refuses an unconfigured project (409) and an unknown one (404)', async () => {
    const bad = await asAdmin('POST', `/v1/projects/${project.id}/smtp/test`, { to: 'not an address' });
    expect({ status: bad.status, message: bad.body.message }).toEqual({
      status: 400,
      message: 'to must be a mail address such as you@example.com',
    });
    const header = await asAdmin('POST', `/v1/projects/${project.id}/smtp/test`, {
      to: 'a@example.com\r\nBcc: b@example.com',
    });
    expect(header.status).toBe(400);
    const bare = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
    try {
      const db = new pg.Client({ connectionString: infra.DATABASE_URL });
      await db.connect();
      const { rowCount } = await db
        .query('DELETE FROM smtp_settings WHERE project_id = $1', [bare.id])
        .finally(() => db.end());
      expect(rowCount).toBe(1);
      const none = await asAdmin('POST', `/v1/projects/${bare.id}/smtp/test`, { to: 'a@example.com' });
      expect({ status: none.status, message: none.body.message }).toEqual({
        status: 409,
        message: 'SMTP is not configured for this project: save the SMTP settings first.',
      });
    } finally {
      await dropTestProject(infra.DATABASE_URL, bare).catch(() => undefined);
    }
    const unknown = await asAdmin('POST', `/v1/projects/${randomUUID()}/smtp/test`, { to: 'a@example.com' });
    expect(unknown.status).toBe(404);
  });
});
