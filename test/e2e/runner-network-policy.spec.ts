import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';
import { TestDns } from '../support/test-dns.js';

// Hostile jobs against a real worker in BROWSER_NETWORK_POLICY=public-only: the job's verdict,
// summary and log say what was blocked, by which rule, and which setting to change. "Public" is
// stood in for by 127.0.0.2 (allow-listed, reached as public.test through a test DNS server); the
// private targets are listeners on 127.0.0.1 that must never see a request. Then the same fixture
// app on 127.0.0.1 is tested as today by a worker in allow-private mode.

interface Job {
  id: string;
  status: string;
  summary: string | null;
  steps: { index: number; status: string; error: string | null }[];
}

const KEY = 'runner-network-key';

describe('runner network policy', () => {
  const dns = new TestDns();
  const apps: AppProcess[] = [];
  const servers: Server[] = [];
  const privateHits: string[] = [];
  let worker: AppProcess | undefined;
  let api: RunnerClient;
  let artifacts = '';
  let publicPort = 0;
  let privatePort = 0;
  let intranetPort = 0;
  const env: NodeJS.ProcessEnv = {};

  const listen = async (host: string, handler: Parameters<typeof createServer>[1], port = 0) => {
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    servers.push(server);
    return (server.address() as AddressInfo).port;
  };

  let healthPort = 0;
  const startWorker = async (extra: NodeJS.ProcessEnv) => {
    const port = await freePort();
    healthPort = port;
    worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(port), ...extra });
    apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, worker);
  };

  const run = async (query: string, initialUrl: string): Promise<Job & { log: string }> => {
    const res = await api.request('/v1/jobs', { json: { query, initial_url: initialUrl } });
    expect(res.status).toBe(202);
    const { id } = res.json as Job;
    const deadline = Date.now() + 90_000;
    for (;;) {
      const job = (await api.request(`/v1/jobs/${id}`)).json as Job;
      if (['succeeded', 'failed', 'cancelled'].includes(job.status))
        return { ...job, log: (await api.request(`/v1/jobs/${id}/log`)).text };
      if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  beforeAll(async () => {
    const resolver = await dns.start();
    dns.set('public.test', '127.0.0.2');
    dns.set('intranet.test', '127.0.0.3');
    dns.set('rebind.test', '127.0.0.2', '127.0.0.1');

    privatePort = await listen('127.0.0.1', (req, res) => {
      if (req.url !== '/app') privateHits.push(req.url ?? '');
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<title>Local app</title><p>Local app works</p>');
    });
    publicPort = await listen('127.0.0.2', (req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/redirect')
        return void res.writeHead(302, { location: `http://127.0.0.1:${privatePort}/secret` }).end();
      if (path === '/ws')
        return void res.writeHead(200, { 'content-type': 'text/html' })
          .end(`<title>WS</title><p id="out">pending</p>
          <script>const ws = new WebSocket('ws://127.0.0.1:${privatePort}/socket');
            ws.onopen = () => (document.getElementById('out').textContent = 'ws open');
            ws.onerror = () => (document.getElementById('out').textContent = 'ws refused');</script>`);
      if (path === '/flood')
        return void res.writeHead(200, { 'content-type': 'text/html' })
          .end(`<title>Flood</title><p id="out">pending</p>
          <script>Promise.allSettled(Array.from({ length: 60 }, (_, i) =>
            fetch('http://169.254.169.254/' + i, { mode: 'no-cors' }))).then(
            () => (document.getElementById('out').textContent = 'all settled'));</script>`);
      if (path === '/metadata')
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Metadata</title>
          <iframe src="http://169.254.169.254/latest/meta-data/"></iframe><p id="out">pending</p>
          <script>fetch('http://169.254.169.254/latest/meta-data/').then(
            () => (document.getElementById('out').textContent = 'fetch reached'),
            () => (document.getElementById('out').textContent = 'fetch refused'));</script>`);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Public</title><h1>Welcome</h1>');
    });
    intranetPort = await listen('127.0.0.3', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Intranet</title><p>Intranet home</p>');
    });

    artifacts = mkdtempSync(join(tmpdir(), 'runner-network-'));
    Object.assign(env, {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-runner-network`,
      API_KEYS: KEY,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
      WORKER_CONCURRENCY: '1',
      BROWSER_DNS_SERVERS: resolver,
    });
    const port = await freePort();
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(port) });
    apps.push(jobsApi);
    await waitForHttp(`http://127.0.0.1:${port}/health`, jobsApi);
    api = new RunnerClient(`http://127.0.0.1:${port}`, KEY);
    // 127.0.0.2 plays a public address; intranet.test:PORT is the one private host let through.
    await startWorker({
      BROWSER_NETWORK_POLICY: 'public-only',
      BROWSER_ALLOWED_HOSTS: `127.0.0.2,intranet.test:${intranetPort}`,
    });
  }, 300_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await dns.stop();
    rmSync(artifacts, { recursive: true, force: true });
  });

  it.each([
    ['file:///etc/passwd', 'file:'],
    ['chrome://settings', 'chrome:'],
    ['view-source:http://public.test/', 'view-source:'],
    ['data:text/html,<h1>hi</h1>', 'data:'],
  ])(
    'refuses to open %s, before any request',
    async (url, scheme) => {
      const job = await run('The page contains "root"', url);
      expect(job.status).toBe('failed');
      expect(job.summary).toContain(
        `could not be opened (blocked by the browser network policy: ${scheme} addresses cannot be opened (only http:, https: and about:blank)`,
      );
      expect(job.log).toContain(
        `blocked by the browser network policy: ${scheme} addresses cannot be opened`,
      );
    },
    120_000,
  );

  it('refuses an "open" step to a file: address', async () => {
    const job = await run(
      '1. Open file:///etc/passwd\n2. The page contains "root"',
      `http://public.test:${publicPort}/`,
    );
    expect(job.status).toBe('failed');
    expect(job.steps[0]).toMatchObject({ status: 'failed' });
    expect(job.summary).toMatch(/Step 1 of 2 failed .*file: addresses cannot be opened/);
  }, 300_000);

  it('fails a job that opens a loopback app, naming the rule and the setting to change', async () => {
    const job = await run('The page contains "Local app works"', `http://127.0.0.1:${privatePort}/secret`);
    expect(job.status).toBe('failed');
    const message = `blocked by BROWSER_NETWORK_POLICY=public-only: 127.0.0.1 is a loopback address; set BROWSER_NETWORK_POLICY=allow-private or add 127.0.0.1 (or 127.0.0.1:${privatePort}) to BROWSER_ALLOWED_HOSTS`;
    expect(job.summary).toContain(message);
    expect(job.log).toContain(message);
    expect(privateHits).toEqual([]);
    const metrics = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
    expect(metrics).toMatch(
      /suite_browser_requests_blocked_total\{rule="BROWSER_NETWORK_POLICY=public-only"\} [1-9]/,
    );
  }, 300_000);

  it.each([
    ['http://2130706433:PORT/', '127.0.0.1 is a loopback address'],
    ['http://0x7f.0.0.1:PORT/', '127.0.0.1 is a loopback address'],
    ['http://[::1]:PORT/', '::1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]:PORT/', '::ffff:7f00:1 (127.0.0.1) is a loopback address'],
  ])(
    'fails a job that opens %s',
    async (url, what) => {
      const job = await run('The page contains "Local app works"', url.replace('PORT', String(privatePort)));
      expect(job.status).toBe('failed');
      expect(job.summary).toContain(`blocked by BROWSER_NETWORK_POLICY=public-only: ${what}`);
      expect(job.log).toContain(what);
      expect(privateHits).toEqual([]);
    },
    120_000,
  );

  it('fails a step whose host name has rebound to 127.0.0.1 since the page before', async () => {
    const job = await run(
      [
        `1. Open http://rebind.test:${publicPort}/`,
        '2. The title is "Public"',
        `3. Open http://rebind.test:${publicPort}/again`,
        '4. The title is "Public"',
      ].join('\n'),
      `http://public.test:${publicPort}/`,
    );
    expect(job.status).toBe('failed');
    expect(job.steps.map((s) => s.status)).toEqual(['passed', 'passed', 'failed', 'skipped']);
    expect(job.summary).toContain(
      'blocked by BROWSER_NETWORK_POLICY=public-only: rebind.test resolved to 127.0.0.1, a loopback address',
    );
    expect(privateHits).toEqual([]);
  }, 300_000);

  it('blocks a WebSocket to a private port, and the summary says so', async () => {
    const job = await run('The page contains "ws refused"', `http://public.test:${publicPort}/ws`);
    expect(job.status).toBe('succeeded');
    expect(job.summary).toMatch(
      new RegExp(
        `The browser network policy blocked \\d+ requests? or navigations?; the first, 127\\.0\\.0\\.1:${privatePort}: blocked by BROWSER_NETWORK_POLICY=public-only`,
      ),
    );
    expect(privateHits).toEqual([]);
  }, 300_000);

  it('fails a navigation that an allowed host redirects to 127.0.0.1', async () => {
    const job = await run(
      '1. Open /redirect\n2. The page contains "Local app works"',
      `http://public.test:${publicPort}/`,
    );
    expect(job.status).toBe('failed');
    expect(job.summary).toMatch(
      /Step 1 of 2 failed .*127\.0\.0\.1 is a loopback address; set BROWSER_NETWORK_POLICY=allow-private/,
    );
    expect(job.log).toContain(`blocked http://127.0.0.1:${privatePort}/secret`);
    expect(privateHits).toEqual([]);
  }, 300_000);

  it('blocks an iframe and a fetch() to the cloud metadata address, and the summary says so', async () => {
    const job = await run('The page contains "fetch refused"', `http://public.test:${publicPort}/metadata`);
    expect(job.status).toBe('succeeded');
    expect(job.summary).toMatch(
      /The browser network policy blocked \d+ requests or navigations; the first, http:\/\/169\.254\.169\.254\/latest\/meta-data\/: blocked by the browser network policy in every BROWSER_NETWORK_POLICY mode: 169\.254\.169\.254 is a cloud metadata address/,
    );
    expect(job.log).toMatch(
      /blocked http:\/\/169\.254\.169\.254\/latest\/meta-data\/: .*add 169\.254\.169\.254/,
    );
  }, 300_000);

  it('logs the first 50 blocks of a page that floods, and counts them all in the summary', async () => {
    const job = await run('The page contains "all settled"', `http://public.test:${publicPort}/flood`);
    expect(job.status).toBe('succeeded');
    expect(job.summary).toContain('The browser network policy blocked 60 requests or navigations');
    expect(job.log.match(/blocked http:\/\/169\.254\.169\.254\/\d+/g)).toHaveLength(50);
    expect(job.log).toContain('more requests were blocked; only the first 50 are logged');
  }, 300_000);

  it('lets the one allow-listed private host through', async () => {
    const job = await run('The page contains "Intranet home"', `http://intranet.test:${intranetPort}/`);
    expect(job.status).toBe('succeeded');
    expect(job.summary).not.toContain('blocked');
  }, 300_000);

  it('in allow-private mode, tests a local app as before; metadata stays blocked', async () => {
    await worker!.stop('SIGTERM');
    await startWorker({ BROWSER_NETWORK_POLICY: 'allow-private' });
    const local = await run('The page contains "Local app works"', `http://127.0.0.1:${privatePort}/app`);
    expect(local.status).toBe('succeeded');
    const metadata = await run(
      'The page contains "fetch refused"',
      `http://public.test:${publicPort}/metadata`,
    );
    expect(metadata.summary).toMatch(/169\.254\.169\.254 is a cloud metadata address/);
  }, 300_000);
});
