import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromiumArgs, DEFAULT_CHROMIUM_PATH } from '@suite/browser-agent';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';

// `env: hosted_browser` connects over CDP to a browser someone else runs. Here that provider is a
// real Chromium started with --remote-debugging-port, as a hosted provider would expose one.

const chromiumPath = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;

async function startRemoteChromium(profile: string): Promise<{ child: ChildProcess; wsUrl: string }> {
  const child = spawn(
    chromiumPath,
    [
      '--headless',
      ...chromiumArgs(),
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  // Chromium writes the port it chose and the browser's websocket path into DevToolsActivePort.
  const file = join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + 20_000;
  while (!existsSync(file) || readFileSync(file, 'utf8').split('\n').length < 2) {
    if (Date.now() > deadline) throw new Error('Chromium did not open its debugging port');
    await new Promise((r) => setTimeout(r, 100));
  }
  const [port, path] = readFileSync(file, 'utf8').trim().split('\n');
  return { child, wsUrl: `ws://127.0.0.1:${port}${path}` };
}

describe('hosted_browser runs a job in a remote browser over CDP', () => {
  const apps: AppProcess[] = [];
  let chromium: ChildProcess;
  let site: Server;
  let api: RunnerClient;
  let siteUrl = '';
  const profile = mkdtempSync(join(tmpdir(), 'hosted-chromium-'));
  const artifacts = mkdtempSync(join(tmpdir(), 'hosted-artifacts-'));

  beforeAll(async () => {
    site = createServer((req, res) =>
      req.url === '/to-metadata'
        ? res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
        : res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Remote</title><button>Go</button>'),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;

    const remote = await startRemoteChromium(profile);
    chromium = remote.child;
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-hosted`,
      API_KEYS: 'hosted-key',
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      HOSTED_BROWSER_WS_URL: remote.wsUrl,
      // Prove the job did not fall back to a local browser: this path does not exist.
      CHROMIUM_PATH: '/nonexistent/chromium',
      REAPER_INTERVAL_MS: '0',
    };
    const [apiPort, workerPort] = [await freePort(), await freePort()];
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(apiPort) });
    const worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(workerPort) });
    apps.push(jobsApi, worker);
    await waitForHttp(`http://127.0.0.1:${apiPort}/health`, jobsApi);
    await waitForHttp(`http://127.0.0.1:${workerPort}/health`, worker);
    api = new RunnerClient(`http://127.0.0.1:${apiPort}`, 'hosted-key');
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    chromium?.kill('SIGKILL');
    await new Promise((resolve) => site.close(resolve));
    rmSync(profile, { recursive: true, force: true });
    rmSync(artifacts, { recursive: true, force: true });
  });

  it('succeeds in the remote browser and leaves that browser running', async () => {
    const created = await api.request('/v1/jobs', {
      json: { query: 'Click Go. The title is "Remote"', initial_url: siteUrl, env: 'hosted_browser' },
    });
    expect(created.status).toBe(202);
    const id = (created.json as { id: string }).id;

    let job: { status: string; summary: string; env: string } = { status: 'queued', summary: '', env: '' };
    const deadline = Date.now() + 30_000;
    while (!['succeeded', 'failed'].includes(job.status) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      job = (await api.request(`/v1/jobs/${id}`)).json as typeof job;
    }
    expect(job).toMatchObject({ status: 'succeeded', env: 'hosted_browser' });
    // The provider's browser belongs to the provider: the worker disconnects, never closes it.
    expect(chromium.exitCode).toBeNull();
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'the metadata address'],
    ['/to-metadata', 'a redirect to the metadata address'],
  ])('applies the network policy where it can (%s: %s) and says in the log what it cannot', async (url) => {
    // Refused in every mode (this worker runs allow-private); an IP literal, so nothing is sent.
    const created = await api.request('/v1/jobs', {
      json: {
        query: 'The page contains "ami-id"',
        initial_url: url.startsWith('/') ? new URL(url, siteUrl).href : url,
        env: 'hosted_browser',
      },
    });
    const id = (created.json as { id: string }).id;
    let job: { status: string; summary: string } = { status: 'queued', summary: '' };
    const deadline = Date.now() + 60_000;
    while (!['succeeded', 'failed'].includes(job.status) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      job = (await api.request(`/v1/jobs/${id}`)).json as typeof job;
    }
    expect(job.status).toBe('failed');
    expect(job.summary).toMatch(/169\.254\.169\.254 is a cloud metadata address/);
    const log = (await api.request(`/v1/jobs/${id}/log`)).text;
    expect(log).toContain('hosted_browser: the network policy is applied to each request the page makes');
    expect(log).toMatch(/cannot be applied on the address the hosted browser actually connects to/);
  });
});
