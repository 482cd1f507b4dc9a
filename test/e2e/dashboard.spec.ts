import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchLocalBrowser } from '@suite/browser-agent';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { adminUrl } from '../../libs/db/src/testing/throwaway-database.js';
import { dropTenantDatabase } from '../../libs/db/src/tenant-provisioning.js';
import { createQueue, createRedisConnection, QueueName } from '../../libs/queue/src/index.js';
import { freePort, repoRoot, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { HostClient } from '../support/host-client.js';
import { startSmtpCapture, type SmtpCapture } from '../support/smtp-capture.js';

// The control plane's pages in real Chromium against the BUILT project host, real Postgres, Redis
// and SMTP. Screenshots land in artifacts/screenshots/.

const TOKEN = `dash-admin-${randomBytes(12).toString('hex')}`;
const PREFIX = `${process.env.REDIS_PREFIX}-dashboard`;
const slug = `dash-${randomBytes(3).toString('hex')}`;
const screenshots = join(repoRoot, 'artifacts', 'screenshots');

describe('dashboard pages', () => {
  let app: AppProcess;
  let worker: AppProcess;
  let browser: Browser;
  let page: Page;
  let smtp: SmtpCapture;
  let origin = '';
  let api: HostClient;
  let projectId = '';

  const text = (selector: string) =>
    page.evaluate(`document.querySelector(${JSON.stringify(selector)}).textContent`);

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
    };
    app = startApp('project-host', { ...env, PORT: String(port) });
    // The Email page shows what the project worker delivered.
    worker = startApp('project-worker', { ...env, HEALTH_PORT: '0' });
    await waitForHttp(`http://127.0.0.1:${port}/health`, app);
    origin = `http://localhost:${port}`;
    api = new HostClient(port, `localhost:${port}`, TOKEN);
    browser = await launchLocalBrowser();
    page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 900 });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop('SIGKILL');
    await worker?.stop('SIGKILL');
    await smtp?.close();
    if (projectId) await dropTenantDatabase({ adminUrl: adminUrl(), projectId }).catch(() => undefined);
  });

  it('signs in with the admin token and creates a project', async () => {
    await page.goto(`${origin}/`);
    expect(await text('label[for="admin-token"]')).toMatch(/Admin token/);
    await page.type('#admin-token', TOKEN);
    await page.click('#signin button');
    await page.waitForSelector('#content:not([hidden])');
    await page.type('#new-slug', slug);
    await page.type('#new-name', 'Dashboard demo');
    await page.click('#create-project button');
    await page.waitForFunction(
      `document.querySelector('#message').textContent.includes(${JSON.stringify(slug)})`,
    );
    await page.waitForSelector(`#projects a[href$="/auth"]`);
    const list = (await api.get('/v1/projects?pageSize=100')).json as {
      items: { id: string; slug: string }[];
    };
    projectId = list.items.find((p) => p.slug === slug)!.id;
    expect(projectId).toMatch(/^[0-9a-f-]{36}$/);
    await page.screenshot({ path: join(screenshots, 'dashboard-projects.png') });
  });

  it('configures a custom identity provider on the Auth page and shows the redirect URI to copy', async () => {
    await api.put(`/v1/projects/${projectId}/smtp`, {
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      from: 'Demo <no-reply@demo.test>',
    });
    await page.goto(`${origin}/projects/${projectId}/auth`);
    await page.waitForSelector('#auth-settings:not([hidden])');
    expect(await text('#redirect-uri')).toBe(`${origin}/internal/auth/idp/callback`);
    await page.click('input[name="idpMode"][value="custom"]');
    await page.waitForSelector('#custom-client:not([hidden])');
    await page.type('#idp-client-id', 'client-123');
    await page.type('#idp-client-secret', 'shh-secret');
    await page.type('#redirect-schemes', 'com.demo.app, demo');
    await page.click('#auth-settings button[type="submit"]');
    await page.waitForFunction(`document.querySelector('#message').textContent.includes('saved')`);

    const project = (await api.get(`/v1/projects/${projectId}`)).json as { auth: Record<string, unknown> };
    expect(project.auth).toMatchObject({
      idpMode: 'custom',
      idpClientId: 'client-123',
      hasClientSecret: true,
      redirectSchemes: ['com.demo.app', 'demo'],
      mcpEnabled: true,
    });
    expect(JSON.stringify(project)).not.toContain('shh-secret');
    // Shown again as saved; emptied, it allows any app scheme again (null).
    await page.reload();
    await page.waitForSelector('#auth-settings:not([hidden])');
    expect(
      await page.$eval('#redirect-schemes', (input) => (input as unknown as { value: string }).value),
    ).toBe('com.demo.app, demo');
    await page.click('#redirect-schemes', { count: 3 });
    await page.keyboard.press('Backspace');
    await page.click('input[name="mcpEnabled"]');
    await page.click('#auth-settings button[type="submit"]');
    await page.waitForFunction(`document.querySelector('#message').textContent.includes('saved')`);
    await page.waitForFunction(`document.querySelector('#redirect-schemes').value === ''`);
    const cleared = (await api.get(`/v1/projects/${projectId}`)).json as { auth: Record<string, unknown> };
    expect(cleared.auth).toMatchObject({ redirectSchemes: null, mcpEnabled: false });
  });

  it('lists signed-up users, searches them, and deletes one, firing user.deleted', async () => {
    const host = api.at(`${slug}.localhost`, undefined);
    for (const email of ['ada@example.com', 'bob@example.com']) {
      const res = await host.post('/api/user/auth/register', {
        email,
        password: 'correct horse battery staple',
      });
      expect(res.status).toBe(201);
    }
    await page.goto(`${origin}/projects/${projectId}/auth`);
    await page.waitForFunction(`document.querySelectorAll('#users tbody tr').length === 2`);
    await page.type('#search', 'ada');
    await page.click('#user-search button');
    await page.waitForFunction(`document.querySelectorAll('#users tbody tr').length === 1`);
    await page.screenshot({ path: join(screenshots, 'dashboard-auth.png'), fullPage: true });

    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('button[aria-label="Delete ada@example.com"]');
    await page.waitForFunction(
      `document.querySelector('#message').textContent.includes('Deleted ada@example.com')`,
    );
    const users = (await api.get(`/v1/projects/${projectId}/users`)).json as { items: { email: string }[] };
    expect(users.items.map((u) => u.email)).toEqual(['bob@example.com']);

    const connection = createRedisConnection(process.env.REDIS_URL!);
    const queue = createQueue(QueueName.AuthHooks, connection, { prefix: PREFIX });
    try {
      const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed']);
      const deleted = jobs.flatMap((job) => job.data.events).find((e) => e.kind === 'user.deleted');
      expect(deleted).toMatchObject({ kind: 'user.deleted', user: { email: 'ada@example.com' } });
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  it('shows the mail log with each mail’s status on the Email page', async () => {
    await smtp.waitFor((m) => m.to.includes('bob@example.com'), 20_000);
    await page.goto(`${origin}/projects/${projectId}/emails`);
    await page.waitForFunction(
      `[...document.querySelectorAll('#emails tbody tr')].some((r) => r.textContent.includes('bob@example.com') && r.textContent.includes('sent'))`,
      { timeout: 20_000 },
    );
    await page.screenshot({ path: join(screenshots, 'dashboard-emails.png') });
  });

  it('serves the shared and its own stylesheet and its script', async () => {
    for (const path of ['/assets/base.css', '/assets/dashboard.css', '/assets/dashboard.js']) {
      const res = await api.get(path);
      expect(res.status).toBe(200);
    }
  });

  it('sends a Content-Security-Policy, anti-framing, nosniff and Referrer-Policy headers, and runs under them', async () => {
    for (const path of ['/', `/projects/${projectId}/auth`, `/projects/${projectId}/emails`]) {
      const res = await api.get(path);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/script-src 'self'/);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
    expect((await api.get('/assets/dashboard.js')).headers['x-content-type-options']).toBe('nosniff');
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${origin}/projects/${projectId}/auth`);
    await page.waitForSelector('#auth-settings:not([hidden])');
    expect(violations).toEqual([]);
  });

  it('refuses the dashboard on a project host', async () => {
    const res = await api.at(`${slug}.localhost`, undefined).get('/');
    expect(res.status).toBe(404);
  });
});
