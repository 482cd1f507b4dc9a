import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchLocalBrowser } from '@suite/browser-agent';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { freePort, repoRoot, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';

// The pages people look at, in real Chromium against real jobs-api and worker processes.
// Screenshots land in artifacts/screenshots/ (kept by CI as test artifacts).

const KEY = 'pages-key';
const screenshots = join(repoRoot, 'artifacts', 'screenshots');

describe('runner pages', () => {
  const apps: AppProcess[] = [];
  let site: Server;
  let siteUrl = '';
  let origin = '';
  let api: RunnerClient;
  let browser: Browser;
  const artifacts = mkdtempSync(join(tmpdir(), 'runner-pages-'));

  const newPage = async (): Promise<Page> => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 900 });
    return page;
  };

  const submit = async (query: string): Promise<string> => {
    const res = await api.request('/v1/jobs', { json: { query, initial_url: siteUrl } });
    expect(res.status).toBe(202);
    return (res.json as { id: string }).id;
  };

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    site = createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<title>Pages</title><label>Name <input name="n"></label><button>Save</button>'),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-pages`,
      API_KEYS: KEY,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
    };
    const [apiPort, workerPort] = [await freePort(), await freePort()];
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(apiPort) });
    const worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(workerPort) });
    apps.push(jobsApi, worker);
    await waitForHttp(`http://127.0.0.1:${apiPort}/health`, jobsApi);
    await waitForHttp(`http://127.0.0.1:${workerPort}/health`, worker);
    origin = `http://127.0.0.1:${apiPort}`;
    api = new RunnerClient(origin, KEY);
    browser = await launchLocalBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await new Promise((resolve) => site.close(resolve));
    rmSync(artifacts, { recursive: true, force: true });
  });

  it('streams a job from queued to succeeded, with steps, log and a seekable video', async () => {
    const id = await submit(
      'Type "Ada" into the Name field. Wait 2 seconds. Click Save. The title is "Pages"',
    );
    const page = await newPage();
    await page.goto(`${origin}/jobs/${id}`);

    // The key is asked for once, with a label, and kept in the browser.
    const label = await page.evaluate(`document.querySelector('label[for="api-key"]').textContent`);
    expect(label).toMatch(/API key/);
    await page.type('#api-key', KEY);
    await page.click('form.key button');

    // Live: the status changes without a reload.
    await page.waitForSelector('#job-status .status-running, #job-status .status-succeeded', {
      timeout: 20_000,
    });
    await page.waitForSelector('#job-status .status-succeeded', { timeout: 30_000 });
    expect(await page.$eval('#job-status', (s) => s.getAttribute('role'))).toBe('status');
    const outcomes = await page.$$eval('#job-steps tr td:nth-child(4)', (cells) =>
      cells.map((c) => c.textContent),
    );
    expect(outcomes).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(await page.evaluate(`document.querySelector('#job-summary').textContent`)).toMatch(
      /4 steps passed/,
    );
    await page.waitForFunction(
      `document.querySelector('#job-log').textContent.includes('verdict: succeeded')`,
    );

    await page.waitForFunction(
      `(() => { const v = document.querySelector('#job-video'); return !v.hidden && v.readyState >= 1 && v.duration > 1; })()`,
      { timeout: 15_000 },
    );
    const seeked = await page.evaluate(`new Promise((resolve) => {
      const v = document.querySelector('#job-video');
      v.addEventListener('seeked', () => resolve(v.currentTime), { once: true });
      v.currentTime = 1;
    })`);
    expect(seeked).toBeCloseTo(1, 0);
    await page.screenshot({ path: join(screenshots, 'job-page.png'), fullPage: true });

    // Kept in the browser: a reload does not ask again.
    await page.reload();
    await page.waitForSelector('#job-status .status-succeeded');
    expect(await page.$('#api-key')).toBeNull();

    // Re-run submits the same test and opens the new job.
    await Promise.all([page.waitForNavigation(), page.click('#job-rerun')]);
    const rerunId = page.url().split('/jobs/')[1]!;
    expect(rerunId).not.toBe(id);
    const rerun = (await api.request(`/v1/jobs/${rerunId}`)).json as { query: string };
    expect(rerun.query).toBe(
      'Type "Ada" into the Name field. Wait 2 seconds. Click Save. The title is "Pages"',
    );
    await page.close();
  });

  it('serves its stylesheet and script itself, without a CDN', async () => {
    for (const [path, type] of [
      ['/assets/base.css', /text\/css/],
      ['/assets/runner.js', /javascript/],
    ] as const) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(type);
    }
    const html = await (await fetch(`${origin}/jobs/x`)).text();
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[^"']*\.(js|css)/);
  });

  it('sends a Content-Security-Policy, anti-framing, nosniff and Referrer-Policy headers, and its pages run under them', async () => {
    for (const path of ['/', '/jobs/x']) {
      const res = await fetch(`${origin}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/default-src 'self'/);
      expect(csp).toMatch(/script-src 'self'/);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).toMatch(/object-src 'none'/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
    expect((await fetch(`${origin}/assets/runner.js`)).headers.get('x-content-type-options')).toBe('nosniff');

    // A finished job's page: runner.js and its modules run, the script panel included.
    const id = await submit('The title is "Pages"');
    for (let i = 0; i < 600; i++) {
      const job = (await api.request(`/v1/jobs/${id}`)).json as { status: string };
      if (job.status === 'succeeded' || job.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const page = await newPage();
    await page.evaluateOnNewDocument(`
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
      localStorage.setItem('runner:apiKey', ${JSON.stringify(KEY)});
    `);
    await page.goto(`${origin}/jobs/${id}`);
    await page.waitForSelector('#job-status .status-succeeded');
    await page.waitForSelector('#script-section:not([hidden])');
    expect(await page.evaluate('window.__violations')).toEqual([]);
    await page.goto(`${origin}/`);
    await page.waitForSelector(`a[href="/jobs/${id}"]`);
    expect(await page.evaluate('window.__violations')).toEqual([]);
    await page.close();
  });

  it('lists the key’s recent jobs on the hub, linking to their pages', async () => {
    const id = await submit('The title is "Pages"');
    const page = await newPage();
    await page.goto(`${origin}/`);
    await page.evaluate(`localStorage.setItem('runner:apiKey', ${JSON.stringify(KEY)})`);
    await page.reload();
    await page.waitForSelector(`#recent-jobs a[href="/jobs/${id}"]`, { timeout: 10_000 });
    await page.screenshot({ path: join(screenshots, 'hub.png') });
    await page.close();
  });

  it('says so when the key is refused, and asks again', async () => {
    // A fresh context: nothing stored yet by the tests above.
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(`${origin}/jobs/${await submit('The title is "Pages"')}`);
    await page.type('#api-key', 'wrong-key');
    await page.click('form.key button');
    await page.waitForFunction(`/refused/.test(document.querySelector('#api-key-error')?.textContent)`);
    expect(await page.evaluate(`localStorage.getItem('runner:apiKey')`)).toBeNull();
    expect(await page.$('#api-key')).not.toBeNull();
    await context.close();
  });
});

describe('GET /v1/jobs/{id}/events', () => {
  it('answers 404 for an unknown job and ends the stream of a finished one', async () => {
    const port = await freePort();
    const app = startApp('jobs-api', {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-events`,
      API_KEYS: KEY,
      HOST: '127.0.0.1',
      PORT: String(port),
    });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health`, app);
      const client = new RunnerClient(`http://127.0.0.1:${port}`, KEY);
      const res = await client.request('/v1/jobs/00000000-0000-4000-8000-000000000000/events');
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ code: 'job_not_found' });

      // A finished job: the stream sends the record once and ends.
      const created = await client.request('/v1/jobs', { json: { query: 'The title is "x"' } });
      const id = (created.json as { id: string }).id;
      await client.request(`/v1/jobs/${id}`, { method: 'DELETE' });
      const stream = await client.request(`/v1/jobs/${id}/events`);
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
      expect(stream.text).toMatch(/^event: job\ndata: \{.*"status":"cancelled".*\}\n\n$/s);

      // HEAD of a live stream (a queued job, no worker here) answers with the headers at once.
      const queued = await client.request('/v1/jobs', { json: { query: 'The title is "x"' } });
      const head = await fetch(
        `http://127.0.0.1:${port}/v1/jobs/${(queued.json as { id: string }).id}/events`,
        {
          method: 'HEAD',
          headers: { authorization: `Bearer ${KEY}` },
          signal: AbortSignal.timeout(10_000),
        },
      );
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toMatch(/text\/event-stream/);
    } finally {
      await app.stop('SIGKILL');
    }
  });
});
