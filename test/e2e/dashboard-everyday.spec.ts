import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchLocalBrowser } from '@suite/browser-agent';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { adminUrl } from '../../libs/db/src/testing/throwaway-database.js';
import { dropTenantDatabase } from '../../libs/db/src/tenant-provisioning.js';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { HostClient } from '../support/host-client.js';
import { startSmtpCapture, type SmtpCapture } from '../support/smtp-capture.js';

// The dashboard's everyday pages in real Chromium, on a desktop and a 390 px phone, against the
// BUILT project host and worker, real Postgres, Redis and SMTP. Every console error, page error or
// failed request counts as a failure; hidden things must not be visible; at 390 px no page is
// wider than the screen; the flows are driven with the keyboard where a person would. Screenshots
// go to $DASHBOARD_SCREENSHOTS or the temp dir.

const TOKEN = `dash-admin-${randomBytes(12).toString('hex')}`;
const PREFIX = `${process.env.REDIS_PREFIX}-dash-everyday`;
const tag = randomBytes(3).toString('hex');
const screenshots = process.env.DASHBOARD_SCREENSHOTS ?? join(tmpdir(), 'dashboard-screenshots');
const PASSWORD = 'correct horse battery staple';
/** The page is shown and has loaded its data. */
const READY = '#content:not([hidden]):not([aria-busy])';

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1100, height: 900 } },
  {
    name: 'phone',
    viewport: { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const;

let app: AppProcess;
let worker: AppProcess;
let browser: Browser;
let smtp: SmtpCapture;
let origin = '';
let api: HostClient;
const projects: string[] = [];

/** A project made through the API (the Projects page itself is tested below). */
async function createProject(slug: string, withSmtp: boolean): Promise<string> {
  const res = await api.post('/v1/projects', { slug, name: `Demo ${slug}` });
  expect(res.status).toBe(201);
  const id = (res.json as { id: string }).id;
  projects.push(id);
  if (withSmtp) {
    const saved = await api.put(`/v1/projects/${id}/smtp`, {
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      from: 'Demo <no-reply@demo.test>',
    });
    expect(saved.status).toBe(200);
  }
  return id;
}

/** A page whose console errors, uncaught errors and failed requests are collected. */
async function watchedPage(viewport: (typeof VIEWPORTS)[number]['viewport']) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warn') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return { page, problems };
}

const js = (value: unknown) => JSON.stringify(value);

/** Whether a person sees the element (laid out, not hidden, not transparent). */
const visible = (page: Page, selector: string) =>
  page.evaluate(`(() => {
    const e = document.querySelector(${js(selector)});
    if (!e) return false;
    const r = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.opacity !== '0';
  })()`) as Promise<boolean>;

const text = (page: Page, selector: string) =>
  page.evaluate(`document.querySelector(${js(selector)})?.textContent ?? ''`) as Promise<string>;

const waitText = (page: Page, selector: string, part: string) =>
  page.waitForFunction(`(document.querySelector(${js(selector)})?.textContent ?? '').includes(${js(part)})`, {
    timeout: 20_000,
  });

/** The page is not wider than the screen (no sideways scrolling). */
const overflow = (page: Page) =>
  page.evaluate(
    `document.documentElement.scrollWidth - document.documentElement.clientWidth`,
  ) as Promise<number>;

/** Presses Tab until `selector` has focus; fails when it is not reachable within `limit` presses. */
async function tabTo(page: Page, selector: string, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(`document.activeElement?.matches(${js(selector)}) ?? false`)) return;
  }
  throw new Error(`${selector} is not reachable with Tab`);
}

/** Contrast ratios of the elements' text against the page canvas (WCAG relative luminance). */
const contrasts = (page: Page, selectors: string[]) =>
  page.evaluate(`(() => {
    const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const canvas = rgb(getComputedStyle(document.body).backgroundColor);
    return ${js(selectors)}.flatMap((selector) =>
      [...document.querySelectorAll(selector)].slice(0, 3).map((e) => {
        const [a, b] = [lum(rgb(getComputedStyle(e).color)), lum(canvas)].sort((x, y) => y - x);
        return { selector, ratio: Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100 };
      }),
    );
  })()`) as Promise<{ selector: string; ratio: number }[]>;

async function signIn(page: Page): Promise<void> {
  await page.waitForSelector('#admin-token');
  await page.type('#admin-token', TOKEN);
  await page.keyboard.press('Enter');
  await page.waitForSelector(READY);
}

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  smtp = await startSmtpCapture();
  const port = await freePort();
  const env = {
    DATABASE_URL: process.env.DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL,
    REDIS_PREFIX: PREFIX,
    TENANT_ADMIN_DATABASE_URL: adminUrl(),
    PLATFORM_ADMIN_TOKEN: TOKEN,
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    // Domains are added verified or checked against a DNS server that is not there: no real lookups.
    DOMAIN_VERIFIED_BY_ADMIN: 'true',
    DOMAIN_DNS_SERVERS: '127.0.0.1:9',
    AUTH_MAIL_COOLDOWN_SECONDS: '0',
  };
  app = startApp('project-host', { ...env, PORT: String(port) });
  worker = startApp('project-worker', { ...env, HEALTH_PORT: '0' });
  await waitForHttp(`http://127.0.0.1:${port}/health`, app);
  origin = `http://localhost:${port}`;
  api = new HostClient(port, `localhost:${port}`, TOKEN);
  browser = await launchLocalBrowser();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop('SIGKILL');
  await worker?.stop('SIGKILL');
  await smtp?.close();
  for (const projectId of projects) {
    await dropTenantDatabase({ adminUrl: adminUrl(), projectId }).catch(() => undefined);
  }
});

describe.each(VIEWPORTS)('dashboard on a $name', ({ name, viewport }) => {
  let page: Page;
  let problems: string[];
  let projectId = '';
  let bareId = '';
  let userId = '';
  const email = `ada-${name}-${tag}@example.com`;

  beforeAll(async () => {
    ({ page, problems } = await watchedPage(viewport));
    projectId = await createProject(`dash-${name}-${tag}`, true);
    bareId = await createProject(`bare-${name}-${tag}`, false);
    const host = api.at(`dash-${name}-${tag}.localhost`, undefined);
    expect((await host.post('/api/user/auth/register', { email, password: PASSWORD })).status).toBe(201);
    expect((await host.post('/api/user/auth/login', { email, password: PASSWORD })).status).toBe(200);
    const users = (await api.get(`/v1/projects/${projectId}/users?search=${encodeURIComponent(email)}`))
      .json as { items: { id: string }[] };
    userId = users.items[0]!.id;
    expect(
      (
        await api.post(`/v1/projects/${projectId}/domains`, {
          domain: `shop-${name}-${tag}.example.com`,
          verified: true,
        })
      ).status,
    ).toBe(201);
  });

  afterAll(async () => {
    await page?.close();
  });

  const shot = (file: string) =>
    page.screenshot({ path: join(screenshots, `${name}-${file}.png`), fullPage: true });

  /** After each flow: nothing went wrong in the console and the page fits the screen. */
  async function clean(): Promise<void> {
    expect(problems).toEqual([]);
    // Nothing the page hides takes up room on screen.
    expect(
      await page.evaluate(
        `[...document.querySelectorAll('[hidden]')].filter((e) => e.getClientRects().length > 0).map((e) => e.id || e.tagName)`,
      ),
    ).toEqual([]);
    if (name === 'phone') expect(await overflow(page)).toBeLessThanOrEqual(0);
  }

  it('asks for the admin token before anything else, says plainly when it is wrong, and signs in', async () => {
    await page.goto(`${origin}/`);
    await page.evaluate('localStorage.clear()');
    await page.reload();
    await page.waitForSelector('#admin-token');
    expect(await visible(page, '#signout')).toBe(false);
    expect(await visible(page, '#content')).toBe(false);
    await page.type('#admin-token', 'not-the-token');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#admin-token-error');
    expect(await text(page, '#admin-token-error')).toBe(
      'This is not the admin token (PLATFORM_ADMIN_TOKEN). Check it and try again.',
    );
    expect(await page.$eval('#admin-token', (e) => e.getAttribute('aria-invalid'))).toBe('true');
    expect(await visible(page, '#admin-token')).toBe(true);
    expect(await visible(page, '#content')).toBe(false);
    await shot('signin-wrong-token');
    await page.click('#admin-token', { count: 3 });
    await page.keyboard.press('Backspace');
    await signIn(page);
    expect(await visible(page, '#signout')).toBe(true);
    expect(await visible(page, '#signin form')).toBe(false);
    await clean();
  });

  it('asks again, with a way to enter another token, when the kept token stops working', async () => {
    await page.evaluate(`localStorage.setItem('dashboard:adminToken', 'stale-token')`);
    await page.reload();
    await page.waitForSelector('#admin-token-error');
    expect(await text(page, '#admin-token-error')).toMatch(
      /admin token was refused.*Enter the current admin token/,
    );
    expect(await visible(page, '#content')).toBe(false);
    expect(await visible(page, '#signout')).toBe(false);
    // The one refused request is the browser's own report of the 401; nothing else went wrong.
    expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
    problems.length = 0;
    await page.type('#admin-token', TOKEN);
    await page.keyboard.press('Enter');
    await page.waitForSelector(READY);
    await clean();
  });

  it('lists projects with their hosts as links and shows a plain-words error next to the slug', async () => {
    await page.goto(`${origin}/`);
    await page.waitForSelector(READY);
    const hosts = await page.$$eval('#projects td[data-label="Hosts"] a', (links) =>
      links.map((a) => a.getAttribute('href')),
    );
    expect(hosts).toEqual(
      expect.arrayContaining([`http://dash-${name}-${tag}.localhost:${new URL(origin).port}`]),
    );
    // The pattern compiles in Chromium (v flag): a bad slug is caught before it is sent...
    expect(
      await page.evaluate(`(() => {
        const input = document.querySelector('#new-slug');
        input.value = '-bad-';
        const mismatch = input.validity.patternMismatch;
        input.value = 'good-slug';
        return [mismatch, input.validity.patternMismatch];
      })()`),
    ).toEqual([true, false]);
    await page.$eval('#new-slug', (e) => ((e as unknown as { value: string }).value = ''));
    // ...and what only the control plane knows is shown next to the field.
    await page.focus('#new-slug');
    await page.keyboard.type('admin');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#new-slug-error');
    expect(await text(page, '#new-slug-error')).toBe('"admin" is reserved.');
    expect(await page.evaluate(`document.activeElement.id`)).toBe('new-slug');
    await shot('projects');
    await clean();
  });

  it('Auth page: the custom client fields show only in Custom mode, and Platform mode says its provider is missing', async () => {
    await page.goto(`${origin}/projects/${projectId}/auth`);
    await page.waitForSelector('#auth-settings:not([hidden])');
    expect(await visible(page, '#custom-client')).toBe(false);
    expect(await visible(page, '#idp-client-id')).toBe(false);
    expect(await visible(page, '#platform-idp-missing')).toBe(true);
    expect(await text(page, '#platform-idp-missing')).toMatch(/not configured/);
    await shot('auth-platform');
    // Keyboard: the radio group is reached with Tab and changed with the arrow keys.
    await page.focus('input[name="idpMode"][value="platform"]');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(`document.querySelector('#auth-settings').idpMode.value`)).toBe('custom');
    expect(await visible(page, '#idp-client-id')).toBe(true);
    expect(await visible(page, '#idp-client-secret')).toBe(true);
    expect(await visible(page, '#platform-idp-missing')).toBe(false);
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(`document.querySelector('#auth-settings').idpMode.value`)).toBe('off');
    expect(await visible(page, '#custom-client')).toBe(false);
    expect(await visible(page, '#platform-idp-missing')).toBe(false);
    // Every column of the users table is there on the phone too (the third one was hidden).
    await page.waitForSelector('#users:not([hidden])');
    expect(await visible(page, '#users tbody td[data-label="Sign-in"]')).toBe(true);
    expect(await text(page, '#users tbody td[data-label="Sign-in"]')).toMatch(/password/);
    await shot('auth');
    await clean();
  });

  it('a user’s detail shows their sign-in methods and sessions, and signs them out everywhere', async () => {
    await page.goto(`${origin}/projects/${projectId}/auth`);
    await page.waitForSelector('#users:not([hidden])');
    await tabTo(page, `#users a[href$="/users/${userId}"]`);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await page.waitForSelector(READY);
    await waitText(page, '#user-facts', 'password');
    expect(await text(page, '#user-facts')).toMatch(/Last sign-in/);
    expect(await page.$$eval('#sessions tbody tr', (rows) => rows.length)).toBe(2);
    expect(await text(page, '#sessions tbody')).toMatch(/active/);
    await shot('user');
    await tabTo(page, '#sign-out-everywhere');
    await page.keyboard.press('Enter');
    await waitText(page, '#message', 'Signed');
    expect(await text(page, '#message')).toMatch(/2 sessions ended/);
    expect(await text(page, '#sessions tbody')).not.toMatch(/\bactive\b/);
    expect(
      await page.$eval('#sign-out-everywhere', (b) => (b as unknown as { disabled: boolean }).disabled),
    ).toBe(true);
    await clean();
  });

  it('Email page: says what to configure when the project has no SMTP server', async () => {
    await page.goto(`${origin}/projects/${bareId}/emails`);
    await page.waitForSelector(READY);
    expect(await visible(page, '#smtp-missing')).toBe(true);
    expect(await text(page, '#smtp-missing')).toMatch(/no SMTP server/);
    expect(await page.$eval('#smtp-missing a', (a) => a.getAttribute('href'))).toBe(
      `/projects/${bareId}/settings`,
    );
    expect(await visible(page, '#emails')).toBe(false);
    expect(await visible(page, '#emails-empty')).toBe(false);
    await shot('emails-empty');
    await clean();
  });

  it('a sign-in mail’s detail hides its link, and Resend mails a fresh one', async () => {
    const host = api.at(`dash-${name}-${tag}.localhost`, undefined);
    await host.get(`/api/user/auth/magic-link?email=${encodeURIComponent(email)}`);
    const first = await smtp.waitFor((m) => m.to === email && /sign-in link/i.test(m.subject), 60_000);
    const code = /code=([A-Za-z0-9_-]{43})/.exec(first.text)![1]!;
    // The worker marks the mail sent after the SMTP server took it: on a loaded machine that can
    // come after the page is drawn, so the page is drawn again until the row says so.
    const sentRow = `[...document.querySelectorAll('#emails tbody tr')].some((r) => r.textContent.includes('magic-link') && r.textContent.includes('sent'))`;
    for (let attempt = 0; ; attempt++) {
      await page.goto(`${origin}/projects/${projectId}/emails`);
      const shown = await page
        .waitForFunction(sentRow, { timeout: 2_000 })
        .then(() => true)
        .catch(() => false);
      if (shown) break;
      if (attempt >= 60) throw new Error('the sign-in mail never showed as sent on the Emails page');
    }
    // Every column, the third (To) included, is on screen.
    expect(await visible(page, '#emails tbody td[data-label="To"]')).toBe(true);
    await shot('emails');
    const link = await page.evaluate(
      `[...document.querySelectorAll('#emails tbody tr')].find((r) => r.textContent.includes('magic-link')).querySelector('a').getAttribute('href')`,
    );
    await page.goto(`${origin}${String(link)}`);
    await waitText(page, '#mail-preview', '[hidden]');
    const preview = await text(page, '#mail-preview');
    expect(preview).toContain('?type=magic&code=[hidden]');
    expect(preview).not.toContain(code);
    expect(await page.content()).not.toContain(code);
    expect(await text(page, '#mail-headers')).toContain(email);
    await shot('mail');
    await tabTo(page, '#resend');
    await page.keyboard.press('Enter');
    await waitText(page, '#message', 'new sign-in link');
    const second = await smtp.waitFor(
      (m) => m.to === email && /sign-in link/i.test(m.subject) && !m.text.includes(code),
      60_000,
    );
    expect(second.text).toMatch(/code=[A-Za-z0-9_-]{43}/);
    const old = await host.get(`/api/user/auth/magic-link/callback?code=${code}`);
    expect(old.status).toBe(400);
    await clean();
  });

  it('SMTP settings: a bad From is named next to its field, saved settings send a test mail', async () => {
    await page.goto(`${origin}/projects/${bareId}/settings`);
    await page.waitForSelector(READY);
    expect(await text(page, '#smtp-state')).toMatch(/Not configured/);
    expect(
      await page.$eval('#smtp-test button', (b) => (b as unknown as { disabled: boolean }).disabled),
    ).toBe(true);
    await page.type('#smtp-host', '127.0.0.1');
    await page.type('#smtp-port', String(smtp.port));
    await page.type('#smtp-from', 'not an address');
    await page.click('#smtp-settings button[type="submit"]');
    await page.waitForSelector('#smtp-from-error');
    expect(await text(page, '#smtp-from-error')).toBe(
      'Must be a mail address, optionally with a name: "Acme <no-reply@acme.com>".',
    );
    await shot('settings-error');
    await page.click('#smtp-from', { count: 3 });
    await page.keyboard.type('Bare <no-reply@bare.test>');
    await page.keyboard.press('Enter');
    await waitText(page, '#message', 'SMTP settings saved');
    expect(await visible(page, '#smtp-from-error')).toBe(false);
    const to = `test-${name}-${tag}@example.com`;
    await tabTo(page, '#test-to');
    await page.keyboard.type(to);
    await page.keyboard.press('Enter');
    await waitText(page, '#smtp-test-result', 'accepted');
    await smtp.waitFor((m) => m.to === to, 60_000);
    await shot('settings');
    await clean();
  });

  it('SMTP test mail: the server’s refusal is shown in plain words', async () => {
    await api.put(`/v1/projects/${bareId}/smtp`, {
      host: '127.0.0.1',
      port: 1,
      secure: false,
      from: 'Bare <no-reply@bare.test>',
    });
    await page.goto(`${origin}/projects/${bareId}/settings`);
    await page.waitForSelector(READY);
    await page.type('#test-to', 'someone@example.com');
    await page.click('#smtp-test button');
    await waitText(page, '#smtp-test-result', 'did not take');
    expect(await text(page, '#smtp-test-result')).toContain('the connection was refused');
    await clean();
  });

  it('Email page: with SMTP saved and no mail yet, says when mail will appear', async () => {
    await page.goto(`${origin}/projects/${bareId}/emails`);
    await page.waitForSelector(READY);
    expect(await visible(page, '#emails-empty')).toBe(true);
    expect(await text(page, '#emails-empty')).toMatch(
      /^No mail yet\. Mail appears here when a user signs up/,
    );
    expect(await visible(page, '#smtp-missing')).toBe(false);
    await clean();
  });

  it('deletes a user from their detail page, after asking', async () => {
    const gone = `gone-${name}-${tag}@example.com`;
    const host = api.at(`dash-${name}-${tag}.localhost`, undefined);
    expect((await host.post('/api/user/auth/register', { email: gone, password: PASSWORD })).status).toBe(
      201,
    );
    const users = (await api.get(`/v1/projects/${projectId}/users?search=${encodeURIComponent(gone)}`))
      .json as {
      items: { id: string }[];
    };
    await page.goto(`${origin}/projects/${projectId}/users/${users.items[0]!.id}`);
    await waitText(page, '#user-email', gone);
    page.once('dialog', (dialog) => void dialog.accept());
    await tabTo(page, '#delete-user');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).pathname).toBe(`/projects/${projectId}/auth`);
    await page.waitForSelector(READY);
    const left = (await api.get(`/v1/projects/${projectId}/users?search=${encodeURIComponent(gone)}`))
      .json as {
      total: number;
    };
    expect(left.total).toBe(0);
    await clean();
  });

  it('custom domains show their verification state and the DNS record to add', async () => {
    await page.goto(`${origin}/projects/${projectId}/settings`);
    await page.waitForSelector(READY);
    const domain = `pending-${name}-${tag}.example.com`;
    await tabTo(page, '#new-domain');
    await page.keyboard.type(domain);
    await page.keyboard.press('Enter');
    await waitText(page, '#domains tbody', domain);
    const rows = await page.$$eval('#domains tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    const pending = rows.find((r) => r.includes(domain))!;
    expect(pending).toMatch(/waiting for the DNS record/);
    expect(pending).toContain(`TXT _platform-verification.${domain}`);
    expect(pending).toMatch(/platform-verification=[0-9a-f]{32}/);
    expect(rows.find((r) => r.includes(`shop-${name}-${tag}.example.com`))).toMatch(/verified/);
    expect(
      await page.$eval(`#domains a[href*="shop-${name}-${tag}"]`, (a) => a.getAttribute('href')),
    ).toMatch(/^http:\/\/shop-/);
    await tabTo(page, 'button[aria-label^="Check the DNS record of"]');
    await page.keyboard.press('Enter');
    await waitText(page, '#message', 'was not found yet');
    await shot('domains');
    await clean();
  });

  it('keeps AA contrast in light and dark mode', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      await page.goto(`${origin}/projects/${projectId}/emails`);
      await page.waitForSelector('#emails:not([hidden])');
      const ratios = await contrasts(page, ['a', 'button', '.status', '.help', 'td', 'h1']);
      expect(ratios.length).toBeGreaterThan(5);
      for (const { selector, ratio } of ratios)
        expect({ scheme, selector, ok: ratio >= 4.5 }).toEqual({ scheme, selector, ok: true });
      if (scheme === 'dark') await shot('emails-dark');
    }
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await clean();
  });
});
