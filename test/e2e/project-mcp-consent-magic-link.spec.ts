import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestProject, dropTestProject, strongPassword, uniqueEmail } from '../support/user-client.js';
import type { TestProject } from '../support/user-client.js';
import {
  ConsentSession,
  CookieJar as Browser,
  hiddenFields,
  MCP_REDIRECT,
  mcpInitialize,
  registerMcpClient,
  WHOAMI_TOOL,
} from './mcp-oauth-harness.js';
import { deploy, Reports, REPORTS_API, reportSql } from './project-code-harness.js';
import {
  GENEROUS_LIMITS,
  infra,
  linkFrom,
  startMailRig,
  startProjectHost,
  type Host,
  type MailRig,
} from './user-auth-harness.js';

// Magic-link sign-in on the MCP consent page: the link is mailed through the /api/user flow, lands
// on the host's own /oauth/authorize/magic, works only in the browser that asked for it (the
// pending request is sealed in its cookies), awaits blocking hooks, and leads nowhere but the
// consent step of the stored request. Real project host, Postgres, Redis and SMTP.

let host: Host;
let mail: MailRig;
let p: TestProject;
let clientId: string;

/** Blocking hooks that report each event through ctx.db before the sign-in answers. */
const BLOCKING_HOOK = {
  ...REPORTS_API,
  'hooks/auth.ts': `import { defineAuthHook } from '@suite/platform-sdk';
    const report = (db, kind, email) => db.query(${JSON.stringify(reportSql)}, [JSON.stringify({ kind, email })]);
    export default defineAuthHook({ blocking: true, timeoutMs: 20000,
      onUserSignedIn: async ({ db, event }) => { await new Promise((r) => setTimeout(r, 300)); await report(db, 'signed_in', event.user.email); } });`,
};

/** A consent session whose requests carry the whole cookie jar of one browser. */
async function startInBrowser(browser: Browser) {
  const session = new ConsentSession(p, clientId);
  const page = await p.client.request('GET', session.authorizePath(), {
    headers: { cookie: browser.header },
  });
  expect(page.status).toBe(200);
  browser.take(page);
  session.cookie = browser.header;
  session.fields = hiddenFields(page.text);
  return { session, page };
}

async function requestLink(browser: Browser, session: ConsentSession, email: string) {
  const before = mail.to(email).length;
  const res = await session.post({ action: 'magic-link', email });
  expect(res.status).toBe(200);
  expect(res.text).toContain('Open the link in this browser');
  browser.take(res);
  session.cookie = browser.header;
  const sent = await mail.smtp.waitFor(
    (m) => m.to.includes(email) && /sign-in link/.test(m.subject) && mail.to(email).indexOf(m) >= before,
  );
  return linkFrom(sent);
}

function openLink(link: string, browser: Browser | null) {
  const url = new URL(link);
  return p.client.request('GET', `${url.pathname}${url.search}`, {
    headers: browser ? { cookie: browser.header } : {},
  });
}

async function newUser(): Promise<string> {
  const email = uniqueEmail('mcp-magic');
  const res = await p.client.post('/api/user/auth/register', { email, password: strongPassword() });
  expect(res.status).toBe(201);
  return email;
}

beforeAll(async () => {
  mail = await startMailRig();
  host = await startProjectHost(GENEROUS_LIMITS);
  p = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: mail.smtp.port });
  expect((await deploy(host, p.id, { ...WHOAMI_TOOL, ...BLOCKING_HOOK })).status).toBe(201);
  await new Reports(p).all(); // creates the table the hooks report into
  clientId = await registerMcpClient(p, 'Magic probe');
});

afterAll(async () => {
  await host?.app.stop();
  await mail?.close();
  if (p) await dropTestProject(infra.DATABASE_URL, p);
});

describe('magic link on the consent page', () => {
  it('offers a sign-in link by mail when email sign-in is on', async () => {
    const { page } = await startInBrowser(new Browser());
    expect(page.text).toContain('Email me a sign-in link');
    expect(page.text).toContain('name="action" value="magic-link"');
  });

  it('signs in with the link in the same browser, awaits blocking hooks, and allows the stored request only', async () => {
    const email = await newUser();
    const browser = new Browser();
    const { session } = await startInBrowser(browser);
    const link = await requestLink(browser, session, email);
    expect(link.startsWith(`${p.publicUrl}/oauth/authorize/magic?`)).toBe(true);
    const signedInReports = async () =>
      (await new Reports<{ kind: string; email: string }>(p).all()).filter(
        (r) => r.email === email && r.kind === 'signed_in',
      ).length;
    const before = await signedInReports(); // registering signed the user in once

    // Parameters added to the link cannot name another destination, client or state.
    const tampered = `${link}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&client_id=evil&state=evil`;
    const landed = await openLink(tampered, browser);
    expect(landed.status).toBe(200);
    expect(landed.headers.location).toBeUndefined();
    expect(landed.text).toContain('Allow');
    expect(landed.text).toContain(email);
    expect(landed.headers['x-frame-options']).toBe('DENY');
    // Blocking hooks ran before the page answered.
    expect(await signedInReports()).toBe(before + 1);
    browser.take(landed);
    expect(browser.header).not.toMatch(/mcp_pending/);

    session.fields = hiddenFields(landed.text);
    session.cookie = browser.header;
    const allowed = await session.post({ action: 'allow' });
    expect(allowed.status).toBe(303);
    const location = new URL(String(allowed.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(MCP_REDIRECT);
    expect(location.searchParams.get('state')).toBe('st');
    const tokens = await session.tokens(allowed);
    expect((await mcpInitialize(p, tokens.access_token)).status).toBe(200);

    // The code was single use.
    const again = await openLink(link, browser);
    expect(again.status).toBe(400);
    expect(again.headers.location).toBeUndefined();
  });

  it('refuses the link in another browser without spending it, and a pending request bound to another browser', async () => {
    const email = await newUser();
    const asker = new Browser();
    const { session } = await startInBrowser(asker);
    const link = await requestLink(asker, session, email);

    // No cookies at all (a mail app's own browser).
    const bare = await openLink(link, null);
    expect(bare.status).toBe(400);
    expect(bare.headers.location).toBeUndefined();
    expect(bare.text).toContain('Open this sign-in link in the browser where you asked for it');

    // Another browser with its own consent cookie, even holding the asker's pending cookie.
    const other = new Browser();
    await startInBrowser(other);
    const pendingName = [...asker.jar.keys()].find((name) => name.includes('mcp_pending'))!;
    other.jar.set(pendingName, asker.jar.get(pendingName)!);
    const elsewhere = await openLink(link, other);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.location).toBeUndefined();

    // A pending cookie that was tampered with opens nothing.
    const forged = new Browser();
    for (const [k, v] of asker.jar) forged.jar.set(k, v);
    const value = forged.jar.get(pendingName)!;
    forged.jar.set(pendingName, `${value.slice(0, -4)}${value.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`);
    expect((await openLink(link, forged)).status).toBe(400);

    // The code was not spent: the asker's browser still signs in with it.
    const ok = await openLink(link, asker);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Allow');
  });

  it('answers an unknown address as a known one and refuses a forged request or a missing CSRF token', async () => {
    const browser = new Browser();
    const { session } = await startInBrowser(browser);
    const unknown = await session.post({ action: 'magic-link', email: uniqueEmail('nobody') });
    expect(unknown.status).toBe(200);
    expect(unknown.text).toContain('If an account exists for this address');

    const forgedRequest = await session.post({
      action: 'magic-link',
      email: 'a@example.com',
      request: 'x'.repeat(80),
    });
    expect(forgedRequest.status).toBe(400);
    const noCsrf = await session.post({ action: 'magic-link', email: 'a@example.com', csrf: '' });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.headers['set-cookie'] ?? '').not.toContain('mcp_pending');
  });
});
