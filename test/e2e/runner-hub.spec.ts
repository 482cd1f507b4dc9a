import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchLocalBrowser } from '@suite/browser-agent';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { freePort, repoRoot, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { insertApiKey, RunnerClient } from '../support/runner-client.js';

/** A hang guard for page waits, below Jest's 300 s test guard. */
const HANG_GUARD_MS = 240_000;

// The hub and the job page as a person uses them, in real Chromium against real jobs-api and
// worker processes, on a desktop and a 390 px phone: every console error fails the test.
// Screenshots land in artifacts/screenshots/ (kept by CI).

const screenshots = join(repoRoot, 'artifacts', 'screenshots');
const DESKTOP = { width: 1200, height: 900 };
const PHONE = { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

interface Job {
  id: string;
  status: string;
  links: Record<string, string | null>;
}

/** Console errors and uncaught exceptions of a page; `allow` lists expected network refusals. */
function watchConsole(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} ${message.location()?.url ?? ''}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${String(error)}`));
  return { errors };
}

// Browser-side code is passed as strings: the tests compile without the DOM library.
const inPage = <T>(page: Page, expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;

/** Whether the element is drawn: present, not display:none anywhere up, with a box. */
const isShown = (page: Page, selector: string): Promise<boolean> =>
  inPage(
    page,
    `(() => { const n = document.querySelector(${JSON.stringify(selector)});
      return Boolean(n && n.getClientRects().length > 0 && getComputedStyle(n).visibility !== 'hidden'); })()`,
  );

/** Every element with the `hidden` attribute really is hidden (no base rule overrides it). */
const hiddenLeaks = (page: Page): Promise<string[]> =>
  inPage(
    page,
    `[...document.querySelectorAll('[hidden]')].filter((n) => n.getClientRects().length > 0)
      .map((n) => n.id || n.outerHTML.slice(0, 80))`,
  );

const overflow = (page: Page): Promise<{ scrollWidth: number; innerWidth: number }> =>
  inPage(page, `({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })`);

const focusedHref = (page: Page): Promise<string | null> =>
  inPage(page, `document.activeElement?.getAttribute('href') ?? null`);
const focusedId = (page: Page): Promise<string> => inPage(page, `document.activeElement?.id ?? ''`);

/** WCAG contrast ratio of an element's text against the first opaque background behind it. */
const contrastOf = (page: Page, selector: string): Promise<number> =>
  inPage(
    page,
    `(() => {
      const node = document.querySelector(${JSON.stringify(selector)});
      if (!node) throw new Error('no ' + ${JSON.stringify(selector)});
      const parse = (c) => {
        const m = /rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)(?:,\\s*([\\d.]+))?/.exec(c);
        if (!m) throw new Error('colour ' + c);
        return { r: +m[1], g: +m[2], b: +m[3], a: m[4] === undefined ? 1 : +m[4] };
      };
      let background = { r: 255, g: 255, b: 255, a: 1 };
      for (let at = node; at; at = at.parentElement) {
        const c = parse(getComputedStyle(at).backgroundColor);
        if (c.a === 1) { background = c; break; }
      }
      const lin = (v) => { const x = v / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
      const luminance = ({ r, g, b }) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
      const fg = parse(getComputedStyle(node).color);
      const mixed = {
        r: fg.r * fg.a + background.r * (1 - fg.a),
        g: fg.g * fg.a + background.g * (1 - fg.a),
        b: fg.b * fg.a + background.b * (1 - fg.a),
      };
      const [hi, lo] = [luminance(mixed), luminance(background)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    })()`,
  );

describe('runner hub and job page', () => {
  const apps: AppProcess[] = [];
  let site: Server;
  let siteUrl = '';
  let origin = ''; // jobs-api with a worker
  let idleOrigin = ''; // jobs-api whose queue has no worker: its jobs stay queued
  let key = '';
  let api: RunnerClient;
  let idleApi: RunnerClient;
  let browser: Browser;
  const artifacts = mkdtempSync(join(tmpdir(), 'runner-hub-'));

  const newPage = async (
    viewport = DESKTOP,
    stored: string | null = key,
  ): Promise<{ page: Page; errors: string[] }> => {
    const page = await browser.newPage();
    // Waits follow what the page shows; the limit only guards against a hang (a loaded CI machine
    // may take a minute to run a job), below Jest's own guard so the failure names the wait.
    page.setDefaultTimeout(HANG_GUARD_MS);
    await page.setViewport(viewport);
    const { errors } = watchConsole(page);
    if (stored)
      await page.evaluateOnNewDocument(`localStorage.setItem('runner:apiKey', ${JSON.stringify(stored)})`);
    return { page, errors };
  };

  const submit = async (
    client: RunnerClient,
    query: string,
    extra: Record<string, unknown> = {},
  ): Promise<string> => {
    const res = await client.request('/v1/jobs', { json: { query, initial_url: siteUrl, ...extra } });
    expect(res.status).toBe(202);
    return (res.json as { id: string }).id;
  };

  const settled = async (id: string): Promise<Job> => {
    for (let i = 0; i < 400; i++) {
      const job = (await api.request(`/v1/jobs/${id}`)).json as Job;
      if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`job ${id} did not finish`);
  };

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(screenshots, `runner-${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    site = createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<title>Shop</title><label>Name <input name="n"></label><button>Save</button>'),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-hub`,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
    };
    const [apiPort, workerPort, idlePort] = [await freePort(), await freePort(), await freePort()];
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(apiPort) });
    const worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(workerPort) });
    const idle = startApp('jobs-api', {
      ...env,
      REDIS_PREFIX: `${env.REDIS_PREFIX}-idle`,
      PORT: String(idlePort),
    });
    apps.push(jobsApi, worker, idle);
    await waitForHttp(`http://127.0.0.1:${apiPort}/health`, jobsApi);
    await waitForHttp(`http://127.0.0.1:${workerPort}/health`, worker);
    await waitForHttp(`http://127.0.0.1:${idlePort}/health`, idle);
    origin = `http://127.0.0.1:${apiPort}`;
    idleOrigin = `http://127.0.0.1:${idlePort}`;
    key = (await insertApiKey(`hub-${randomUUID().slice(0, 8)}`)).key;
    api = new RunnerClient(origin, key);
    idleApi = new RunnerClient(idleOrigin, key);
    browser = await launchLocalBrowser();
  }, 300_000); // three apps and a worker start here; a busy machine takes its time

  afterAll(async () => {
    await browser?.close();
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await new Promise((resolve) => site?.close(resolve));
    rmSync(artifacts, { recursive: true, force: true });
  });

  describe('GET /v1/jobs search and paging', () => {
    it('finds jobs by words of their query or title, pages with before, and refuses bad values with a 422', async () => {
      const a = await submit(idleApi, 'The title is "alpha-needle"');
      const b = await submit(idleApi, 'The title is "Beta"', { metadata: { title: 'Checkout needle' } });
      const c = await submit(idleApi, 'The title is "100% gamma"');
      const d = await submit(idleApi, 'The title is "Sale"', { metadata: { title: 'Sale: 50% OFF' } });
      const ids = async (query: string) =>
        ((await api.request(`/v1/jobs?${query}`)).json as { jobs: Job[] }).jobs.map((j) => j.id);

      expect(await ids('q=NEEDLE&limit=10')).toEqual([b, a]);
      expect(await ids(`q=${encodeURIComponent('100%')}`)).toEqual([c]);
      // % and _ are characters, not wildcards, in the query and in the title.
      expect(await ids(`q=${encodeURIComponent('%')}`)).toEqual([d, c]);
      expect(await ids(`q=${encodeURIComponent('0% off')}`)).toEqual([d]);
      expect(await ids(`q=${encodeURIComponent('_')}`)).toEqual([]);
      expect(await ids('q=needle&limit=1')).toEqual([b]);
      expect(await ids(`q=needle&limit=1&before=${b}`)).toEqual([a]);
      expect(await ids(`q=needle&before=${a}`)).toEqual([]);
      // limit and status keep working as the spec says.
      expect(await ids('status=queued&limit=2')).toEqual([d, c]);

      for (const [query, loc, type] of [
        ['before=nope', 'before', 'string_pattern_mismatch'],
        [`before=${randomUUID()}`, 'before', 'value_error'],
        ['q=', 'q', 'string_too_short'],
        [`q=${'x'.repeat(201)}`, 'q', 'string_too_long'],
        ['q=a%00b', 'q', 'value_error'],
      ] as const) {
        const res = await api.request(`/v1/jobs?${query}`);
        expect(res.status).toBe(422);
        expect((res.json as { detail: { loc: string[]; type: string }[] }).detail[0]).toMatchObject({
          loc: ['query', loc],
          type,
        });
      }
      for (const id of [a, b, c, d]) await idleApi.request(`/v1/jobs/${id}`, { method: 'DELETE' });
    });

    it('checks instructions without queueing anything: readable steps, or the ones it cannot read with the phrasings', async () => {
      const before = ((await api.request('/v1/jobs?limit=200')).json as { jobs: Job[] }).jobs.length;
      const ok = await api.request('/v1/instructions/check', {
        json: { query: 'Click Save. The title is "Shop"' },
      });
      expect(ok.status).toBe(200);
      expect(ok.json).toMatchObject({ readable: true, steps: [{ index: 1, action: 'click' }, { index: 2 }] });
      const bad = await api.request('/v1/instructions/check', {
        json: { query: 'Click Save\nFrobnicate the widget' },
      });
      expect(bad.status).toBe(200);
      expect(bad.json).toMatchObject({
        readable: false,
        unknown: [{ index: 2, text: 'Frobnicate the widget' }],
        phrasings: expect.arrayContaining([expect.stringMatching(/^click/)]),
      });
      expect((await api.request('/v1/instructions/check', { json: {} })).status).toBe(422);
      expect((await api.request('/v1/instructions/check', { json: { query: 'x' }, key: null })).status).toBe(
        401,
      );
      expect(((await api.request('/v1/jobs?limit=200')).json as { jobs: Job[] }).jobs.length).toBe(before);
    });
  });

  it('runs a test from the hub: the job page shows its steps live, then a video each step links into', async () => {
    const { page, errors } = await newPage();
    await page.evaluateOnNewDocument(`
      window.__liveSteps = 0;
      new MutationObserver(() => {
        const status = document.querySelector('#job-status')?.textContent;
        const rows = document.querySelectorAll('#job-steps tr').length;
        if (status === 'running' && rows > 0) window.__liveSteps = Math.max(window.__liveSteps, rows);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    `);
    await page.goto(`${origin}/`);
    await page.waitForSelector('#submit-form:not([hidden])');
    expect(await hiddenLeaks(page)).toEqual([]);
    await page.type(
      '#test-query',
      'Type "Ada" into the Name field\nWait 2 seconds\nClick Save\nThe title is "Shop"',
    );
    await page.type('#test-url', siteUrl);
    await page.click('#submit-form summary');
    await page.type('#test-title', 'Save the name');
    await shot(page, 'hub-form');
    await Promise.all([page.waitForNavigation(), page.click('#submit-test')]);
    const id = page.url().split('/jobs/')[1]!;
    const job = (await api.request(`/v1/jobs/${id}`)).json as {
      metadata: Record<string, unknown>;
      initial_url: string;
    };
    expect(job).toMatchObject({ metadata: { title: 'Save the name' }, initial_url: siteUrl });

    await page.waitForSelector('#job-status .status-succeeded');
    // Steps showed while the job ran, before the finished record arrived.
    expect(await page.evaluate('window.__liveSteps')).toBeGreaterThan(0);
    expect(await page.$eval('#job-title', (h) => h.textContent)).toBe('Save the name');
    // Times in the viewer's locale, and the total duration.
    const started = await page.$eval('#job-started time', (t) => ({
      text: t.textContent,
      local: new Date(t.getAttribute('datetime')!).toLocaleString(undefined, {
        dateStyle: 'medium',
        timeStyle: 'medium',
      }),
    }));
    expect(started.text).toBe(started.local);
    expect(await page.$eval('#job-duration', (d) => d.textContent)).toMatch(/^\d+(\.\d)? s$/);

    // The video shows a frame before it is played, and every step links to its moment in it.
    await page.waitForFunction(
      `(() => { const v = document.querySelector('#job-video'); return v.readyState >= 2 && v.currentTime > 0; })()`,
    );
    await page.waitForSelector('#job-steps tr:nth-child(4) button.link');
    const offsets = await inPage<number[]>(
      page,
      `[...document.querySelectorAll('#job-steps button.link')].map((b) => Number(b.dataset.offset))`,
    );
    expect(offsets).toHaveLength(4);
    expect(offsets).toEqual([...offsets].sort((x, y) => x - y));
    expect(offsets[3]! - offsets[1]!).toBeGreaterThan(1.5); // the 2 s wait lies between steps 2 and 4
    await page.click('#job-steps tr:nth-child(3) button.link');
    await page.waitForFunction(
      `Math.abs(document.querySelector('#job-video').currentTime - ${offsets[2]!}) < 1.5`,
    );
    // Nothing hidden shows: no Cancel on a finished job, no empty sections.
    expect(await isShown(page, '#job-cancel')).toBe(false);
    expect(await isShown(page, '#job-rerun')).toBe(true);
    expect(await isShown(page, '#screenshot-section')).toBe(false);
    expect(await hiddenLeaks(page)).toEqual([]);
    await shot(page, 'job-succeeded');
    // A phone (Puppeteer reloads the page to emulate one): the page comes back whole.
    await page.setViewport(PHONE);
    await page.waitForSelector('#job-steps tr:nth-child(4) button.link');
    const o = await overflow(page);
    expect(o.scrollWidth).toBeLessThanOrEqual(o.innerWidth);
    await shot(page, 'job-succeeded-phone');
    // No column dropped on a phone (a base rule used to hide every third one).
    const cells = await inPage<string[]>(
      page,
      `[...document.querySelectorAll('#job-steps tr:first-child td')].map((td) => td.getClientRects().length > 0 ? td.textContent : '')`,
    );
    expect(cells.slice(0, 4)).toEqual(['1', 'Type "Ada" into the Name field', 'type', 'passed']);
    expect(cells[5]).toMatch(/^▶ 0:0\d\.\d$/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the steps so far when a running job is opened in the middle', async () => {
    const id = await submit(api, 'Click Save\nWait 4 seconds\nThe title is "Shop"');
    for (let i = 0; i < 200; i++) {
      const log = (await api.request(`/v1/jobs/${id}/log`)).text;
      if (log.includes('step 2 wait started')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { page, errors } = await newPage();
    await page.goto(`${origin}/jobs/${id}`);
    await page.waitForSelector('#job-status .status-running');
    await page.waitForSelector('#job-steps tr:nth-child(2)');
    const rows = await inPage<string[][]>(
      page,
      `[...document.querySelectorAll('#job-steps tr')].map((tr) => [...tr.children].slice(1, 4).map((td) => td.textContent))`,
    );
    expect(rows.slice(0, 2)).toEqual([
      ['Click Save', 'click', 'passed'],
      ['Wait 4 seconds', 'wait', 'running'],
    ]);
    await page.waitForSelector('#job-status .status-succeeded');
    expect(await page.$$eval('#job-steps tr', (trs) => trs.length)).toBe(3);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses instructions the interpreter cannot read, listing them and the phrasings it knows, and queues nothing', async () => {
    const { page, errors } = await newPage(PHONE);
    await page.goto(`${origin}/`);
    await page.waitForSelector('#submit-form:not([hidden])');
    const count = async () => ((await api.request('/v1/jobs?limit=200')).json as { jobs: Job[] }).jobs.length;
    const before = await count();
    // By keyboard: the instructions, then Tab past the start URL and the options to Run test.
    await page.focus('#test-query');
    await page.keyboard.type('Click Save\nFrobnicate the widget');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('submit-test');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#submit-problem:not([hidden]) li');
    const items = await page.$$eval('#submit-problem li', (lis) => lis.map((li) => li.textContent));
    expect(items[0]).toBe('Step 2: “Frobnicate the widget”');
    expect(items.length).toBeGreaterThan(5);
    expect(items.some((i) => /^click/.test(i!))).toBe(true);
    expect(await focusedId(page)).toBe('submit-problem');
    expect(page.url()).toBe(`${origin}/`);
    expect(await count()).toBe(before);
    const o = await overflow(page);
    expect(o.scrollWidth).toBeLessThanOrEqual(o.innerWidth);
    await shot(page, 'hub-refused-phone');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the job list up to date in place: focus stays, nothing is re-announced, filters, search and pages work', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(await submit(api, `The title is "Shop"\nThe page contains "Name ${i}"`));
    await Promise.all(ids.map(settled));
    const { page, errors } = await newPage();
    let listCalls = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/v1/jobs' && r.method() === 'GET') listCalls++;
    });
    await page.goto(`${origin}/`);
    await page.waitForSelector(`#jobs-table a[href="/jobs/${ids[2]}"]`);
    expect(await page.$eval('#jobs-table tbody', (t) => t.getAttribute('aria-live'))).toBeNull();
    // A readable title, not the raw query.
    expect(await page.$eval(`#jobs-table a[href="/jobs/${ids[2]}"]`, (a) => a.textContent)).toBe(
      `${new URL(siteUrl).host} · The title is "Shop"`,
    );
    expect(
      await page.$eval(`#jobs-table tr[data-id="${ids[2]}"] td:nth-child(4)`, (td) => td.textContent),
    ).toMatch(/\d/);

    // Keyboard focus on a link survives refreshes; nothing changes, so nothing is announced.
    await page.focus(`#jobs-table a[href="/jobs/${ids[1]}"]`);
    await page.evaluate(`
      window.__mutations = 0;
      new MutationObserver((m) => { window.__mutations += m.length; })
        .observe(document.querySelector('#jobs-table tbody'), { subtree: true, childList: true, characterData: true, attributes: true });
    `);
    const calls = listCalls;
    while (listCalls < calls + 2) await new Promise((resolve) => setTimeout(resolve, 200));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await focusedHref(page)).toBe(`/jobs/${ids[1]}`);
    expect(await page.evaluate('window.__mutations')).toBe(0);
    expect(await page.$eval('#jobs-announce', (p) => p.textContent)).toBe('');

    // A new job appears on the next refresh, focus still where it was, and it is announced.
    const added = await submit(api, 'The title is "Shop"');
    await page.waitForSelector(`#jobs-table a[href="/jobs/${added}"]`);
    expect(await focusedHref(page)).toBe(`/jobs/${ids[1]}`);
    expect(await page.$eval('#jobs-announce', (p) => p.textContent)).toMatch(/New job/);
    await settled(added);

    // Search, status filter and paging.
    await page.type('#filter-q', 'Name 1');
    await page.waitForFunction(`document.querySelectorAll('#jobs-table tbody tr').length === 1`);
    expect(await page.$eval('#jobs-table tbody a', (a) => a.getAttribute('href'))).toBe(`/jobs/${ids[1]}`);
    await page.click('#filter-q', { count: 3 });
    await page.keyboard.press('Backspace');
    await page.select('#filter-status', 'cancelled');
    await page.waitForSelector('[data-empty]:not([hidden])');
    expect(await page.$eval('[data-empty]', (p) => p.textContent)).toMatch(/No jobs match/);
    expect(await isShown(page, '#jobs-table')).toBe(false);
    await page.select('#filter-status', '');
    await page.waitForSelector(`#jobs-table a[href="/jobs/${added}"]`);
    await shot(page, 'hub');
    // More than a page: 20 a page, Older goes on after the last one shown.
    const total = ((await api.request('/v1/jobs?limit=200')).json as { jobs: Job[] }).jobs.length;
    for (let i = total; i < 22; i++) await submit(idleApi, `The title is "filler ${i}"`);
    await page.reload();
    await page.waitForSelector('#page-older:not([disabled])');
    expect(await page.$$eval('#jobs-table tbody tr', (rows) => rows.length)).toBe(20);
    await page.click('#page-older');
    await page.waitForFunction(`document.querySelector('#page-label').textContent === 'Page 2'`);
    await page.waitForFunction(`document.querySelectorAll('#jobs-table tbody tr').length >= 2`);
    expect(await page.$eval('#page-newer', (b) => b.hasAttribute('disabled'))).toBe(false);
    expect(errors).toEqual([]);

    await page.click('#page-newer');
    await page.waitForFunction(`document.querySelector('#page-label').textContent === 'Page 1'`);
    await page.waitForSelector('#page-newer[disabled]');
    // A phone (Puppeteer reloads the page to emulate one).
    await page.setViewport(PHONE);
    await page.waitForFunction(`document.querySelectorAll('#jobs-table tbody tr').length === 20`);
    const o = await overflow(page);
    expect(o.scrollWidth).toBeLessThanOrEqual(o.innerWidth);
    expect(await isShown(page, '#jobs-table tbody tr:first-child td:nth-child(3)')).toBe(true);
    await shot(page, 'hub-phone');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('cancels a queued job from its page; Run again shows only once it ended', async () => {
    const id = await submit(idleApi, 'The title is "Shop"');
    const { page, errors } = await newPage(PHONE);
    await page.goto(`${idleOrigin}/jobs/${id}`);
    await page.waitForSelector('#job-status .status-queued');
    expect(await isShown(page, '#job-cancel')).toBe(true);
    expect(await isShown(page, '#job-rerun')).toBe(false);
    expect(await isShown(page, '#steps-section')).toBe(false);
    expect(await isShown(page, '#video-section')).toBe(false);
    expect(await hiddenLeaks(page)).toEqual([]);
    const o = await overflow(page);
    expect(o.scrollWidth).toBeLessThanOrEqual(o.innerWidth);
    await shot(page, 'job-queued-phone');
    await page.click('#job-cancel');
    await page.waitForSelector('#job-status .status-cancelled');
    // The event stream may show the new status before the DELETE's answer has been read and
    // written as the note, so the note is waited for rather than read at once.
    await page.waitForFunction(`/cancelled/i.test(document.querySelector('#job-action-note').textContent)`);
    expect(await isShown(page, '#job-cancel')).toBe(false);
    expect(await isShown(page, '#job-rerun')).toBe(true);
    expect(((await api.request(`/v1/jobs/${id}`)).json as Job).status).toBe('cancelled');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows an unclear job’s summary with its line breaks, and asks for no script it does not have', async () => {
    const id = await submit(api, 'Click Save\nFrobnicate the widget');
    const job = await settled(id);
    expect(job.links.script).toBeUndefined();
    const { page, errors } = await newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(`${origin}/jobs/${id}`);
    await page.waitForSelector('#job-status .status-failed');
    await page.waitForSelector('#log-section:not([hidden])');
    const summary = await inPage<{ whiteSpace: string; lines: number }>(
      page,
      `(() => { const s = document.querySelector('#job-summary');
        return { whiteSpace: getComputedStyle(s).whiteSpace, lines: s.innerText.split('\\n').length }; })()`,
    );
    expect(summary.whiteSpace).toBe('pre-line');
    expect(summary.lines).toBeGreaterThan(5);
    // The step it could not read, and the phrasings, are lists.
    expect(await page.$$eval('#job-summary ul', (uls) => uls.map((ul) => ul.children.length))).toEqual([
      1,
      expect.any(Number),
    ]);
    expect(await page.$eval('#job-summary ul li', (li) => li.textContent)).toBe(
      'step 2: "Frobnicate the widget"',
    );
    expect(requested.filter((p) => p.endsWith('/script'))).toEqual([]);
    expect(await isShown(page, '#script-section')).toBe(false);
    expect(await isShown(page, '#video-section')).toBe(false);
    expect(await hiddenLeaks(page)).toEqual([]);
    await shot(page, 'job-unclear');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the failure screenshot of a failed step inline', async () => {
    const id = await submit(api, 'Click Save\nThe page contains "Not on this page"');
    const job = await settled(id);
    expect(job.status).toBe('failed');
    const { page, errors } = await newPage();
    await page.goto(`${origin}/jobs/${id}`);
    await page.waitForSelector('#job-status .status-failed');
    if (job.links.screenshot) {
      await page.waitForFunction(`document.querySelector('#job-screenshot').naturalWidth > 0`);
      expect(await isShown(page, '#job-screenshot')).toBe(true);
      expect(await page.$eval('#job-screenshot', (i) => i.getAttribute('alt'))).toMatch(/step 2/);
    } else {
      expect(await isShown(page, '#screenshot-section')).toBe(false);
    }
    await shot(page, 'job-failed');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says when the key is refused, keeps the key field, and lets the key be changed', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport(DESKTOP);
    const { errors } = watchConsole(page);
    await page.goto(`${origin}/`);
    await page.type('#api-key', 'wrong-key');
    await page.click('form.key button[type="submit"]');
    await page.waitForSelector('#api-key-error');
    expect(await page.$eval('#api-key-error', (p) => p.textContent)).toMatch(/refused/);
    expect(await isShown(page, '#api-key')).toBe(true);
    expect(await isShown(page, '#recent-jobs')).toBe(false);
    expect(await focusedId(page)).toBe('api-key');
    // The refused requests themselves are the only console entries: no uncaught error.
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    await shot(page, 'hub-key-refused');

    await page.type('#api-key', key);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#recent-jobs:not([hidden])');
    await page.click('#change-key');
    expect(await isShown(page, '#api-key')).toBe(true);
    await page.click('form.key button[type="button"]'); // keep the current key
    expect(await isShown(page, '#change-key')).toBe(true);
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    await context.close();
  });

  it('meets WCAG AA contrast for intro text, links, hints and status colours, light and dark', async () => {
    await settled(await submit(api, 'Click Missing button'));
    await settled(await submit(api, 'The title is "Shop"'));
    const cancelled = await submit(idleApi, 'The title is "Shop"');
    await idleApi.request(`/v1/jobs/${cancelled}`, { method: 'DELETE' });
    for (const scheme of ['light', 'dark'] as const) {
      const { page, errors } = await newPage();
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      await page.goto(`${origin}/`);
      await page.waitForSelector(`#jobs-table a[href="/jobs/${cancelled}"]`);
      await page.waitForSelector('#jobs-table .status-failed');
      await page.waitForSelector('#jobs-table .status-succeeded');
      for (const selector of [
        'header p.intro',
        'nav a',
        '#jobs-table tbody a',
        '.hint',
        '#jobs-table .status-succeeded',
        '#jobs-table .status-failed',
        '#jobs-table .status-cancelled',
        '#recent-jobs h2',
      ]) {
        const ratio = await contrastOf(page, selector);
        expect({ scheme, selector, ok: ratio >= 4.5, ratio }).toMatchObject({ ok: true });
      }
      await shot(page, `hub-${scheme}`);
      await page.goto(`${idleOrigin}/jobs/${await submit(idleApi, 'The title is "Shop"')}`);
      await page.waitForSelector('#job-status .status-queued');
      for (const selector of ['#job-status .status-queued', 'header a', 'dl.facts dt']) {
        const ratio = await contrastOf(page, selector);
        expect({ scheme, selector, ok: ratio >= 4.5, ratio }).toMatchObject({ ok: true });
      }
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});
