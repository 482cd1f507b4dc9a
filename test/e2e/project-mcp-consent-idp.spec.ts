import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchLocalBrowser } from '@suite/browser-agent';
import type { Browser } from 'puppeteer-core';
import { HostClient } from '../support/host-client.js';
import { startMockProvider, type MockProvider } from '../support/oidc-mock.js';
import {
  createTestProject,
  dropTestProject,
  tenantQuery,
  uniqueEmail,
  type HttpResult,
  type TestProject,
} from '../support/user-client.js';
import {
  callWhoami,
  ConsentSession,
  CookieJar,
  hiddenFields,
  MCP_REDIRECT,
  registerMcpClient,
  startRedirectCatcher,
  WHOAMI_TOOL,
} from './mcp-oauth-harness.js';
import { deploy, Reports, REPORTS_API, reportSql } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// Identity-provider sign-in on the MCP consent page: the page's `idp` action keeps the request in
// this browser (sealed, bound to its CSRF cookie) and sends it to the provider through the shared
// callback on the PUBLIC_URL host, which mints no /api/user tokens but hands the user back to
// /oauth/authorize/idp with a single-use code for this project and this browser. The attacks
// first, then the whole flow in Chromium. Real project host, worker, Postgres, Redis and OpenID
// provider.

let provider: MockProvider;
let host: Host;
let p: TestProject;
let closed: TestProject;
let other: TestProject;
let clientId: string;
const projects: TestProject[] = [];

/** Blocking hooks that report each sign-in event through ctx.db before the sign-in answers. */
const BLOCKING_HOOK = {
  ...REPORTS_API,
  'hooks/auth.ts': `import { defineAuthHook } from '@suite/platform-sdk';
    const report = (db, kind, email) => db.query(${JSON.stringify(reportSql)}, [JSON.stringify({ kind, email })]);
    export default defineAuthHook({ blocking: true, timeoutMs: 20000,
      onUserCreated: async ({ db, event }) => { await report(db, 'created', event.user.email); },
      onUserSignedIn: async ({ db, event }) => { await new Promise((r) => setTimeout(r, 300)); await report(db, 'signed_in', event.user.email); } });`,
};

function person(email = uniqueEmail('mcp-idp')): Record<string, unknown> {
  return { sub: `sub-${email}`, email, email_verified: true, name: 'Grace Hopper' };
}

async function reportsOf(target: TestProject, email: string): Promise<string[]> {
  return (await new Reports<{ kind: string; email: string }>(target).all())
    .filter((r) => r.email === email)
    .map((r) => r.kind);
}

/** One browser: its cookies on the project's host and on the PUBLIC_URL host (the callback's). */
class TwoHostBrowser {
  readonly project = new CookieJar();
  readonly platform = new CookieJar();
}

/** The consent page opened in `browser` for `target`'s client: the session and the page. */
async function openConsent(browser: TwoHostBrowser, target = p, client = clientId) {
  const session = new ConsentSession(target, client);
  const page = await target.client.request('GET', session.authorizePath(), {
    headers: { cookie: browser.project.header },
  });
  expect(page.status).toBe(200);
  browser.project.take(page);
  session.cookie = browser.project.header;
  session.fields = hiddenFields(page.text);
  return { session, page };
}

/**
 * Presses "Sign in with …" and follows the redirects as a browser does: the hand-off and the
 * callback on the PUBLIC_URL host, the provider in between. Where the callback sends the browser.
 */
async function viaProvider(
  browser: TwoHostBrowser,
  session: ConsentSession,
  headers: Record<string, string> = {},
): Promise<URL> {
  const pressed = await session.p.client.request('POST', '/oauth/authorize', {
    raw: new URLSearchParams({ ...session.fields, action: 'idp' }).toString(),
    contentType: 'application/x-www-form-urlencoded',
    headers: { cookie: session.cookie, ...headers },
  });
  expect(pressed.status).toBe(303);
  browser.project.take(pressed);
  session.cookie = browser.project.header;
  const hop = new URL(String(pressed.headers.location));
  expect(hop.origin).toBe(`http://localhost:${host.port}`);
  expect(hop.pathname).toBe('/internal/auth/idp/start');
  const platform = new HostClient(host.port, hop.host);
  const handed = await platform.get(`${hop.pathname}${hop.search}`, {
    headers: { cookie: browser.platform.header },
  });
  expect(handed.status).toBe(302);
  browser.platform.take(handed);
  const atProvider = await fetch(String(handed.headers.location), { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const callback = new URL(atProvider.headers.get('location')!);
  const called = await platform.get(`${callback.pathname}${callback.search}`, {
    headers: { cookie: browser.platform.header },
  });
  expect(called.status).toBe(302);
  browser.platform.take(called);
  const back = new URL(String(called.headers.location));
  // The consent page's sign-in never puts tokens on a URL.
  expect(back.searchParams.get('accessToken')).toBeNull();
  expect(back.searchParams.get('refreshToken')).toBeNull();
  return back;
}

/** Opens the hand-back URL in a browser (null: one without any cookie, e.g. another device). */
function handBack(back: URL, browser: TwoHostBrowser | null, target = p): Promise<HttpResult> {
  return target.client.request('GET', `${back.pathname}${back.search}`, {
    headers: browser ? { cookie: browser.project.header } : {},
  });
}

/** /api/user refresh sessions (not MCP grants) of the user with `email`. */
async function apiUserSessions(target: TestProject, email: string): Promise<number> {
  const rows = await tenantQuery<{ n: string }>(
    target.id,
    'SELECT count(*)::text AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.client_id IS NULL',
    [email],
  );
  return Number(rows[0]!.n);
}

async function project(auth: { allowSignups?: boolean } = {}): Promise<TestProject> {
  const created = await createTestProject({
    databaseUrl: infra.DATABASE_URL,
    port: host.port,
    smtpPort: 9,
    auth,
  });
  projects.push(created);
  expect((await deploy(host, created.id, { ...WHOAMI_TOOL, ...BLOCKING_HOOK })).status).toBe(201);
  await new Reports(created).all(); // creates the table the hooks report into
  return created;
}

beforeAll(async () => {
  provider = await startMockProvider();
  host = await startProjectHost({
    ...GENEROUS_LIMITS,
    IDP_ISSUER_URL: provider.issuer,
    IDP_CLIENT_ID: 'platform-client',
    IDP_CLIENT_SECRET: 'platform-secret',
  });
  [p, closed, other] = await Promise.all([project(), project({ allowSignups: false }), project()]);
  clientId = await registerMcpClient(p, 'IdP probe');
  // The page waits for the provider's discovery a short while only: until the host has it cached
  // (one request in flight), a page may offer the provider without naming it in form-action.
  while ((await openConsent(new TwoHostBrowser())).page.text.includes('idp_undiscovered')) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  await host?.app.stop();
  await provider?.stop();
  for (const created of projects) await dropTestProject(infra.DATABASE_URL, created).catch(() => undefined);
});

describe('identity-provider sign-in on the consent page', () => {
  it('offers the provider, and lets its redirects through the page policy', async () => {
    const { page } = await openConsent(new TwoHostBrowser());
    expect(page.text).toContain('name="action" value="idp"');
    expect(page.text).toContain(`Sign in with ${new URL(provider.issuer).host}`);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    const formAction = /form-action ([^;]*)/.exec(csp)![1]!;
    expect(formAction).toContain(`http://localhost:${host.port}`);
    expect(formAction).toContain(new URL(provider.issuer).origin);
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('signs a new user up, awaits blocking hooks, mints no /api/user tokens and allows the stored request', async () => {
    const claims = person();
    const email = String(claims.email);
    provider.claims = claims;
    const browser = new TwoHostBrowser();
    const { session } = await openConsent(browser);
    const back = await viaProvider(browser, session);
    expect(`${back.origin}${back.pathname}`).toBe(`${p.publicUrl}/oauth/authorize/idp`);
    expect([...back.searchParams.keys()]).toEqual(['code']);
    // The blocking hooks ran before the callback answered.
    expect(await reportsOf(p, email)).toEqual(['created', 'signed_in']);
    expect(await apiUserSessions(p, email)).toBe(0);

    const cookiesBefore = browser.project.header;
    const landed = await handBack(back, browser);
    expect(landed.status).toBe(200);
    expect(landed.headers['x-frame-options']).toBe('DENY');
    expect(landed.text).toContain(`Signed in as <strong>${email}</strong>`);
    browser.project.take(landed);
    expect(browser.project.header).not.toMatch(/mcp_pending/);

    session.fields = hiddenFields(landed.text);
    session.cookie = browser.project.header;
    const allowed = await session.post({ action: 'allow' });
    const location = new URL(String(allowed.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(MCP_REDIRECT);
    expect(location.searchParams.get('state')).toBe('st');
    const tokens = await session.tokens(allowed);
    expect((await callWhoami(p, tokens.access_token)).structuredContent).toEqual({ email });
    expect(await apiUserSessions(p, email)).toBe(0);

    // The code was single use: a replay, even with the browser's cookies as they were before it
    // was spent, is refused with a page saying so, and signs nobody in.
    const replay = await p.client.request('GET', `${back.pathname}${back.search}`, {
      headers: { cookie: cookiesBefore },
    });
    expect(replay.status).toBe(400);
    expect(replay.headers.location).toBeUndefined();
    expect(replay.text).toContain('This sign-in was used already, expired, or started in another browser');
    expect(replay.text).not.toContain('Signed in as');
    // In the browser itself (the request done), the page says where sign-in goes on.
    const again = await handBack(back, browser);
    expect(again.status).toBe(400);
    expect(again.text).toContain('Finish signing in in the browser where you started');
  });

  it('goes straight back to the client when the user approved it before', async () => {
    const claims = person();
    provider.claims = claims;
    const first = new TwoHostBrowser();
    const { session } = await openConsent(first);
    const landed = await handBack(await viaProvider(first, session), first);
    session.fields = hiddenFields(landed.text);
    session.cookie = (first.project.take(landed), first.project.header);
    await session.tokens(await session.post({ action: 'allow' }));

    const again = new TwoHostBrowser();
    const { session: second } = await openConsent(again);
    const answered = await handBack(await viaProvider(again, second), again);
    expect(answered.status).toBe(303);
    const tokens = await second.tokens(answered);
    expect((await callWhoami(p, tokens.access_token)).structuredContent).toEqual({
      email: claims.email,
    });
  });

  it('refuses the code in a browser without the pending request, without spending it', async () => {
    provider.claims = person();
    const browser = new TwoHostBrowser();
    const { session } = await openConsent(browser);
    const back = await viaProvider(browser, session);

    const bare = await handBack(back, null);
    expect(bare.status).toBe(400);
    expect(bare.headers.location).toBeUndefined();
    expect(bare.text).toContain('Finish signing in in the browser where you started');

    // The CSRF cookie alone (the pending request's cookie missing) is not enough either.
    const noPending = new TwoHostBrowser();
    for (const [name, value] of browser.project.jar) {
      if (!name.includes('mcp_pending')) noPending.project.jar.set(name, value);
    }
    expect((await handBack(back, noPending)).status).toBe(400);

    expect((await handBack(back, browser)).status).toBe(200);
  });

  it('refuses the code in another browser that has a pending request of its own, and spends it', async () => {
    provider.claims = person();
    const victim = new TwoHostBrowser();
    const { session } = await openConsent(victim);
    const back = await viaProvider(victim, session);

    // The attacker's browser, mid-way through a request of its own, is sent the victim's code.
    const attacker = new TwoHostBrowser();
    const { session: theirs } = await openConsent(attacker);
    const pressed = await theirs.post({ action: 'idp' });
    expect(pressed.status).toBe(303);
    attacker.project.take(pressed);
    const stolen = await handBack(back, attacker);
    expect(stolen.status).toBe(400);
    expect(stolen.headers.location).toBeUndefined();
    expect(stolen.text).toContain('started in another browser');
    expect(stolen.text).not.toContain('Signed in as');

    // Spent: not even the browser that started can use it now.
    expect((await handBack(back, victim)).status).toBe(400);
  });

  it('refuses a code of one project on another project host, even with the same CSRF cookie', async () => {
    provider.claims = person();
    const browser = new TwoHostBrowser();
    const { session } = await openConsent(browser);
    const back = await viaProvider(browser, session);

    // The same browser (the very same CSRF cookie value, copied) with a request pending on another project.
    const otherClient = await registerMcpClient(other, 'Other probe');
    const elsewhere = new TwoHostBrowser();
    const csrf = [...browser.project.jar].find(([name]) => name.includes('mcp_csrf'))!;
    elsewhere.project.jar.set(csrf[0], csrf[1]);
    const { session: there } = await openConsent(elsewhere, other, otherClient);
    const pressed = await there.post({ action: 'idp' });
    expect(pressed.status).toBe(303);
    elsewhere.project.take(pressed);
    const crossed = await handBack(back, elsewhere, other);
    expect(crossed.status).toBe(400);
    expect(crossed.text).not.toContain('Signed in as');
  });

  it('refuses codes of the /api/user flow here, and this flow’s codes there', async () => {
    // The provider's code of an /api/user sign-in, presented to the consent page.
    provider.claims = person();
    const start = await p.client.request(
      'GET',
      `/api/user/auth/idp?redirect_uri=${encodeURIComponent('http://127.0.0.1:5173/app')}`,
    );
    expect(start.status).toBe(302);
    const hop = new URL(String(start.headers.location));
    const handed = await new HostClient(host.port, hop.host).get(`${hop.pathname}${hop.search}`);
    const atProvider = await fetch(String(handed.headers.location), { redirect: 'manual' });
    const providerCode = new URL(atProvider.headers.get('location')!).searchParams.get('code')!;
    const browser = new TwoHostBrowser();
    const { session } = await openConsent(browser);
    const pressed = await session.post({ action: 'idp' });
    browser.project.take(pressed);
    const foreign = await p.client.request(
      'GET',
      `/oauth/authorize/idp?code=${encodeURIComponent(providerCode)}`,
      {
        headers: { cookie: browser.project.header },
      },
    );
    expect(foreign.status).toBe(400);
    expect(foreign.text).not.toContain('Signed in as');

    // This flow's hand-back code, presented to the /api/user routes.
    provider.claims = person();
    const mine = new TwoHostBrowser();
    const { session: started } = await openConsent(mine);
    const code = (await viaProvider(mine, started)).searchParams.get('code')!;
    const asMagic = await p.client.request(
      'GET',
      `/api/user/auth/magic-link/callback?code=${encodeURIComponent(code)}`,
    );
    expect(asMagic.status).toBe(400);
    expect(JSON.stringify(asMagic.body)).not.toContain('accessToken');
    const asHop = await new HostClient(host.port, `localhost:${host.port}`).get(
      `/internal/auth/idp/start?hop=${encodeURIComponent(code)}`,
    );
    expect(asHop.status).toBe(400);
    // Still good where it belongs (none of the above spent it).
    expect((await handBack(new URL(`${p.publicUrl}/oauth/authorize/idp?code=${code}`), mine)).status).toBe(
      200,
    );
  });

  it('respects allowSignups: a new provider account is told so on the consent page, with no account made', async () => {
    const claims = person();
    provider.claims = claims;
    const closedClient = await registerMcpClient(closed, 'Closed probe');
    const browser = new TwoHostBrowser();
    const { session } = await openConsent(browser, closed, closedClient);
    const back = await viaProvider(browser, session);
    expect(back.searchParams.get('error')).toBe('signup_disabled');
    expect(back.searchParams.get('code')).toBeNull();
    const landed = await handBack(back, browser, closed);
    expect(landed.status).toBe(403);
    expect(landed.text).toContain('This project does not take new accounts.');
    expect(landed.text).toContain('name="action" value="idp"');
    expect(await tenantQuery(closed.id, 'SELECT 1 FROM users WHERE email = $1', [claims.email])).toEqual([]);
    expect(await reportsOf(closed, String(claims.email))).toEqual([]);
  });

  it('sends the provider back to the Host the consent page was on, never to one a header names', async () => {
    provider.claims = person();
    const browser = new TwoHostBrowser();
    const { session } = await openConsent(browser);
    // X-Forwarded-Host is trusted by `platform dev` only (PLATFORM_DEV_MODE), never by this host.
    const metadata = await p.client.request<{ issuer: string }>(
      'GET',
      '/.well-known/oauth-authorization-server',
      {
        headers: { 'x-forwarded-host': `localhost:${host.port}` },
      },
    );
    expect(metadata.body.issuer).toBe(p.publicUrl);
    const back = await viaProvider(browser, session, { 'x-forwarded-host': `localhost:${host.port}` });
    expect(`${back.origin}${back.pathname}`).toBe(`${p.publicUrl}/oauth/authorize/idp`);
  });

  it('refuses the action without the page’s CSRF token, sending nobody to the provider', async () => {
    const { session } = await openConsent(new TwoHostBrowser());
    const asked = provider.authorizeRequests.length;
    const forged = await session.post({ action: 'idp', csrf: '' });
    expect(forged.status).toBe(403);
    expect(forged.headers.location).toBeUndefined();
    expect(String(forged.headers['set-cookie'] ?? '')).not.toContain('mcp_pending');
    expect(provider.authorizeRequests.length).toBe(asked);
  });
});

describe('in Chromium', () => {
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof startRedirectCatcher>>;
  let redirectUrl: string;
  let answers: URLSearchParams[];

  beforeAll(async () => {
    browser = await launchLocalBrowser();
    callback = await startRedirectCatcher();
    ({ redirectUrl, answers } = callback);
  });

  afterAll(async () => {
    await browser?.close();
    callback?.close();
  });

  it('signs in with the provider, allows, and the client calls a tool as that user', async () => {
    const claims = person();
    provider.claims = claims;
    const chromiumClient = await registerMcpClient(p, 'Chromium probe', redirectUrl);
    const session = new ConsentSession(p, chromiumClient, redirectUrl);
    const page = await browser.newPage();
    await page.goto(`${p.publicUrl}${session.authorizePath()}`);
    await Promise.all([page.waitForNavigation(), page.click('button[value="idp"]')]);
    expect(new URL(page.url()).pathname).toBe('/oauth/authorize/idp');
    expect(await page.$eval('main', (m) => m.textContent)).toContain(`Signed in as ${String(claims.email)}`);
    expect(await reportsOf(p, String(claims.email))).toEqual(['created', 'signed_in']);
    await Promise.all([page.waitForNavigation(), page.click('button[value="allow"]')]);
    expect(page.url().startsWith(redirectUrl)).toBe(true);
    await page.close();
    const answer = answers.at(-1)!;
    expect(answer.get('state')).toBe('st');
    const code = answer.get('code')!;
    const tokens = await session.exchange(code);
    expect((await callWhoami(p, tokens.access_token)).structuredContent).toEqual({ email: claims.email });
  });
});
