import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';
import { startSmtpCapture, type SmtpCapture } from '../support/smtp-capture.js';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  uniqueEmail,
  type TestProject,
} from '../support/user-client.js';
import { deploy } from './project-code-harness.js';
import { GENEROUS_LIMITS, startProjectHost, type Host } from './user-auth-harness.js';

// GET /metrics of running apps after real work: the Prometheus text a scraper would read.

const BOOT_MS = 300_000;
const RUN_MS = 150_000;

type Labels = Record<string, string>;

/** Parses the text exposition format into samples (name, labels, value). */
function parseMetrics(text: string): { name: string; labels: Labels; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels: Labels = {};
      for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
        labels[key!] = value!;
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

async function scrape(
  url: string,
  headers: Record<string, string> = {},
): Promise<{
  contentType: string;
  value: (name: string, labels?: Labels) => number | undefined;
  names: Set<string>;
  all: ReturnType<typeof parseMetrics>;
}> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  expect(res.status).toBe(200);
  const all = parseMetrics(await res.text());
  const value = (name: string, labels: Labels = {}) =>
    all
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce<number | undefined>((sum, s) => (sum ?? 0) + s.value, undefined);
  return {
    contentType: res.headers.get('content-type') ?? '',
    value,
    names: new Set(all.map((s) => s.name)),
    all,
  };
}

describe('runner metrics', () => {
  const apps: AppProcess[] = [];
  let site: Server;
  let siteUrl = '';
  let api: RunnerClient;
  let worker: AppProcess;
  let apiMetrics = '';
  let workerMetrics = '';
  let artifacts = '';
  const KEY = 'metrics-key';

  const run = async (query: string): Promise<string> => {
    const res = await api.request('/v1/jobs', { json: { query, initial_url: siteUrl } });
    expect(res.status).toBe(202);
    const { id } = res.json as { id: string };
    const deadline = Date.now() + 90_000;
    for (;;) {
      const { status } = (await api.request(`/v1/jobs/${id}`)).json as { status: string };
      if (['succeeded', 'failed'].includes(status)) return status;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${status}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  beforeAll(async () => {
    site = createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Shop</title><h1>Welcome</h1>'),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
    artifacts = mkdtempSync(join(tmpdir(), 'metrics-'));
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-metrics`,
      API_KEYS: KEY,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
    };
    const port = await freePort();
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(port) });
    apps.push(jobsApi);
    const healthPort = await freePort();
    worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(healthPort) });
    apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, jobsApi);
    await waitForHttp(`http://127.0.0.1:${healthPort}/health`, worker);
    api = new RunnerClient(`http://127.0.0.1:${port}`, KEY);
    apiMetrics = `http://127.0.0.1:${port}/metrics`;
    workerMetrics = `http://127.0.0.1:${healthPort}/metrics`;
  }, BOOT_MS);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await new Promise((resolve) => site.close(resolve));
    rmSync(artifacts, { recursive: true, force: true });
  });

  it(
    'the API serves Prometheus text without an API key: process metrics and request durations by route',
    async () => {
      expect(await run('The page contains "Welcome"')).toBe('succeeded');
      // Through the ingress (which adds X-Forwarded-For) metrics are not there.
      const proxied = await fetch(apiMetrics, { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(proxied.status).toBe(404);
      expect(await proxied.text()).not.toContain('process_cpu');
      const metrics = await scrape(apiMetrics);
      expect(metrics.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(metrics.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(metrics.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(
        metrics.value('http_request_duration_seconds_count', {
          method: 'POST',
          route: '/v1/jobs',
          status_code: '202',
        }),
      ).toBe(1);
      // Polling GET /v1/jobs/{id} is one route label, never one per job id.
      const routes = metrics.all
        .filter((s) => s.name === 'http_request_duration_seconds_count')
        .map((s) => s.labels.route);
      expect(routes).toContain('/v1/jobs/:job_id');
      expect(routes.some((route) => /[0-9a-f]{8}-/.test(route ?? ''))).toBe(false);
    },
    RUN_MS,
  );

  it(
    'the worker reports job durations by status, queue wait, steps, job states and queue depth',
    async () => {
      expect(await run('1. The page contains "Welcome"\n2. The page contains "Nowhere to be seen"')).toBe(
        'failed',
      );
      const metrics = await scrape(workerMetrics);
      expect(
        metrics.value('suite_job_duration_seconds_count', { status: 'succeeded' }),
      ).toBeGreaterThanOrEqual(1);
      expect(metrics.value('suite_job_duration_seconds_count', { status: 'failed' })).toBeGreaterThanOrEqual(
        1,
      );
      expect(metrics.value('suite_job_queue_wait_seconds_count')).toBeGreaterThanOrEqual(2);
      expect(metrics.value('suite_job_steps_total', { outcome: 'passed' })).toBeGreaterThanOrEqual(2);
      expect(metrics.value('suite_job_steps_total', { outcome: 'failed' })).toBeGreaterThanOrEqual(1);
      // Read from Postgres and Redis on scrape: this database holds at least the jobs run here.
      expect(metrics.value('suite_jobs', { state: 'succeeded' })).toBeGreaterThanOrEqual(1);
      expect(metrics.value('suite_jobs', { state: 'failed' })).toBeGreaterThanOrEqual(1);
      expect(metrics.value('suite_queue_jobs', { queue: 'browser-jobs', state: 'waiting' })).toBe(0);
      expect(metrics.value('suite_browser_restarts_total')).toBe(0);
      expect(metrics.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    },
    RUN_MS,
  );

  it(
    'a browser that died is counted as a restart when the next job opens a new one',
    async () => {
      const chromium = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(worker.child.pid)])
        .toString()
        .split('\n')
        .filter((line) => /chrom/i.test(line))
        .map((line) => Number(line.trim().split(/\s+/)[0]));
      expect(chromium.length).toBeGreaterThan(0);
      for (const pid of chromium) process.kill(pid, 'SIGKILL');
      expect(await run('The page contains "Welcome"')).toBe('succeeded');
      expect((await scrape(workerMetrics)).value('suite_browser_restarts_total')).toBe(1);
    },
    RUN_MS,
  );
});

describe('auth metrics', () => {
  // This host and its worker want a bearer for /metrics (as Prometheus in a cluster sends it).
  const METRICS_TOKEN = 'metrics-scrape-token-0123456789';
  const bearer = { authorization: `Bearer ${METRICS_TOKEN}` };
  let host: Host;
  let smtp: SmtpCapture;
  let project: TestProject;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    // Queues of its own: another spec's host must not deliver (and count) this host's mail, nor
    // this host theirs.
    host = await startProjectHost({
      ...GENEROUS_LIMITS,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-auth-metrics`,
      METRICS_TOKEN,
    });
    project = await createTestProject({
      databaseUrl: process.env.DATABASE_URL!,
      port: host.port,
      smtpPort: smtp.port,
    });
    const deployed = await deploy(host, project.id, {
      'hooks/auth.ts': `import { defineAuthHook } from '@suite/platform-sdk';
        export default defineAuthHook({ onUserCreated: async () => undefined });`,
    });
    expect(deployed.status).toBe(201);
  }, BOOT_MS);

  afterAll(async () => {
    await host?.app.stop();
    await smtp?.close();
    if (project) await dropTestProject(process.env.DATABASE_URL!, project).catch(() => undefined);
  });

  it(
    'counts auth outcomes by action and error code, mail outcomes by kind, and hook latency',
    async () => {
      const email = uniqueEmail('metrics');
      const password = strongPassword();
      expect((await project.client.register(email, password)).status).toBe(201);
      expect((await project.client.login(email, `${password}-wrong`)).status).toBe(401);
      expect((await project.client.login(email, password)).status).toBe(200);
      await smtp.waitFor((m) => m.to.includes(email), 60_000);

      const metrics = await scrape(`http://127.0.0.1:${host.port}/metrics`, bearer);
      // Mail delivery and the hook batch run on the project worker, from queues, just after the answers.
      const workerUrl = `http://127.0.0.1:${host.workerHealthPort}/metrics`;
      const deadline = Date.now() + 30_000;
      let workerMetrics = await scrape(workerUrl, bearer);
      while (
        (!workerMetrics.value('suite_mail_outcomes_total', { kind: 'welcome', outcome: 'sent' }) ||
          !workerMetrics.value('suite_auth_hook_duration_seconds_count', {
            event: 'user.created+user.signed_in',
          })) &&
        Date.now() < deadline
      ) {
        await new Promise((r) => setTimeout(r, 250));
        workerMetrics = await scrape(workerUrl, bearer);
      }
      expect(metrics.value('suite_auth_outcomes_total', { action: 'register', outcome: 'success' })).toBe(1);
      expect(
        metrics.value('suite_auth_outcomes_total', { action: 'login', outcome: 'invalid-credentials' }),
      ).toBe(1);
      expect(metrics.value('suite_auth_outcomes_total', { action: 'login', outcome: 'success' })).toBe(1);
      expect(workerMetrics.value('suite_mail_outcomes_total', { kind: 'welcome', outcome: 'sent' })).toBe(1);
      expect(
        workerMetrics.value('suite_auth_hook_duration_seconds_count', {
          event: 'user.created+user.signed_in',
          outcome: 'ok',
        }),
      ).toBe(1);
      // No label carries an address or an id.
      const labelValues = [...metrics.all, ...workerMetrics.all].flatMap((s) => Object.values(s.labels));
      expect(labelValues.some((v) => v.includes('@') || v.includes(project.id))).toBe(false);
    },
    RUN_MS,
  );

  it('with METRICS_TOKEN set, /metrics of the host and of its worker refuses a scrape without it, even from loopback', async () => {
    for (const url of [
      `http://127.0.0.1:${host.port}/metrics`,
      `http://127.0.0.1:${host.workerHealthPort}/metrics`,
    ]) {
      for (const headers of [{}, { authorization: 'Bearer not-the-metrics-token-0123' }]) {
        const res = await fetch(url, { headers });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        expect(await res.text()).not.toContain('process_cpu');
      }
      // Through a proxy not even the token helps.
      expect((await fetch(url, { headers: { ...bearer, 'x-forwarded-for': '203.0.113.7' } })).status).toBe(
        404,
      );
      expect((await scrape(url, bearer)).value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    }
  });
});
