import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchLocalBrowser } from '@suite/browser-agent';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'puppeteer-core';
import { startDiscoveryGate, type DiscoveryGate } from '../support/discovery-gate.js';
import { startMockProvider, type MockProvider } from '../support/oidc-mock.js';
import { createTestProject, dropTestProject, uniqueEmail, type TestProject } from '../support/user-client.js';
import {
  callWhoami,
  ConsentSession,
  registerMcpClient,
  startRedirectCatcher,
  WHOAMI_TOOL,
} from './mcp-oauth-harness.js';
import { deploy } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// A slow identity provider does not hold the consent page: the page renders with the provider's
// button while the provider's discovery request is still held open by the test's server (a real
// HTTP server in front of the OpenID mock), and the press resolves discovery and goes on. The
// page's form-action cannot name a provider origin it does not know yet, and Chromium checks a
// form answer's redirects against it, so that press goes on through a page (an instant redirect
// no page policy governs). Once discovery is known, the page names the provider and the press
// redirects at once, as before.

let gate: DiscoveryGate;
let provider: MockProvider;
let host: Host;
let p: TestProject;

beforeAll(async () => {
  gate = await startDiscoveryGate();
  provider = await startMockProvider({ issuerUrl: gate.url });
  gate.upstream = provider.origin;
  host = await startProjectHost({
    ...GENEROUS_LIMITS,
    IDP_ISSUER_URL: gate.url,
    IDP_CLIENT_ID: 'platform-client',
    IDP_CLIENT_SECRET: 'platform-secret',
  });
  p = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  expect((await deploy(host, p.id, WHOAMI_TOOL)).status).toBe(201);
}, 180_000);

afterAll(async () => {
  await host?.app.stop();
  await gate?.stop();
  await provider?.stop();
  if (p) await dropTestProject(infra.DATABASE_URL, p).catch(() => undefined);
});

function formActionOf(csp: string | undefined): string {
  return /form-action ([^;]*)/.exec(String(csp))![1]!;
}

describe('a slow identity provider on the consent page', () => {
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof startRedirectCatcher>>;

  beforeAll(async () => {
    browser = await launchLocalBrowser();
    callback = await startRedirectCatcher();
  });

  afterAll(async () => {
    await browser?.close();
    callback?.close();
  });

  it('renders while discovery is held open, and in Chromium the button still signs in and allows', async () => {
    const email = uniqueEmail('mcp-slow-idp');
    provider.claims = { sub: `sub-${email}`, email, email_verified: true, name: 'Ada' };
    const clientId = await registerMcpClient(p, 'Slow provider probe', callback.redirectUrl);
    const session = new ConsentSession(p, clientId, callback.redirectUrl);
    const page = await browser.newPage();
    const posted: number[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST') posted.push(response.status());
    });
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));

    gate.hold();
    const shown = await page.goto(`${p.publicUrl}${session.authorizePath()}`);
    // The page is there, and the provider has not answered discovery: its request is held open.
    expect(shown!.status()).toBe(200);
    expect(gate.answered).toBe(0);
    await gate.whenHeld(1);
    expect(await page.$eval('button[value="idp"]', (b) => b.textContent)).toBe(
      `Sign in with ${new URL(gate.url).host}`,
    );
    expect(await page.$eval('main', (m) => m.textContent)).toContain('Sign in to');
    const formAction = formActionOf(shown!.headers()['content-security-policy']);
    expect(formAction).toContain(`http://localhost:${host.port}`);
    expect(formAction).not.toContain(gate.url);

    // Pressed: the sign-in waits for discovery (the person asked for it); the provider answers.
    const pressed = page.click('button[value="idp"]');
    gate.release();
    await pressed;
    // On through the provider and back to the hand-back page (or a navigation Chromium blocked).
    while (new URL(page.url()).pathname !== '/oauth/authorize/idp' && failed.length === 0) await sleep(100);
    expect(failed).toEqual([]);
    await page.waitForSelector('button[value="allow"]');
    expect(await page.$eval('main', (m) => m.textContent)).toContain(`Signed in as ${email}`);
    // The press answered a page going on to the provider, not a redirect the page policy blocks.
    expect(posted[0]).toBe(200);
    expect(gate.answered).toBeGreaterThan(0);

    await Promise.all([page.waitForNavigation(), page.click('button[value="allow"]')]);
    expect(page.url().startsWith(callback.redirectUrl)).toBe(true);
    await page.close();
    const answer = callback.answers.at(-1)!;
    expect(answer.get('state')).toBe('st');
    const tokens = await session.exchange(answer.get('code')!);
    expect((await callWhoami(p, tokens.access_token)).structuredContent).toEqual({ email });
  });

  it('once discovery is known, names the provider in the page policy and redirects the press at once', async () => {
    const session = new ConsentSession(p, await registerMcpClient(p, 'Known provider probe'));
    const shown = await session.open();
    expect(shown.status).toBe(200);
    expect(formActionOf(String(shown.headers['content-security-policy']))).toContain(gate.url);
    expect(session.fields.idp_undiscovered).toBeUndefined();
    const pressed = await session.post({ action: 'idp' });
    expect(pressed.status).toBe(303);
    expect(new URL(String(pressed.headers.location)).pathname).toBe('/internal/auth/idp/start');
  });

  it('goes on through a page when the pressed form came from a page that could not name the provider', async () => {
    const session = new ConsentSession(p, await registerMcpClient(p, 'Late provider probe'));
    expect((await session.open()).status).toBe(200);
    const pressed = await session.post({ action: 'idp', idp_undiscovered: '1' });
    expect(pressed.status).toBe(200);
    expect(pressed.headers['x-frame-options']).toBe('DENY');
    expect(pressed.headers['cache-control']).toBe('no-store');
    expect(String(pressed.headers['set-cookie'])).toContain('mcp_pending=');
    const to = /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(pressed.text)?.[1];
    expect(to).toBeDefined();
    const hop = new URL(to!.replace(/&amp;/g, '&'));
    expect(hop.origin).toBe(`http://localhost:${host.port}`);
    expect(hop.pathname).toBe('/internal/auth/idp/start');
    expect(pressed.text).toContain(`<a href="${to}">Continue to ${new URL(gate.url).host}</a>`);
  });
});
