import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchLocalBrowser } from '@suite/browser-agent';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { schema as ctrfSchema } from 'ctrf';
import { parse as parseJunit, type TestSuites } from 'junit2json';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { insertApiKey, RunnerClient } from '../support/runner-client.js';

// Suites kept by the runner, with the real jobs-api and a real browser worker (Chromium), the
// test run's Postgres and Redis, a local site and a local webhook. Waits have no deadline of
// their own: they follow the runner, and only Jest's timeout stops a hang.

interface RunTest {
  title: string;
  job_id: string;
  job_status: string;
  verdict: string;
  failing_step: { index: number; text: string; error: string | null } | null;
  job_url: string;
}
interface Run {
  id: string;
  trigger: string;
  status: string;
  passed: number;
  failed: number;
  total: number;
  tests: RunTest[];
  created_at: string;
}
interface Detail {
  detail: { loc: (string | number)[]; msg: string; type: string }[];
}

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
};

const cli = join(repoRoot, 'tools', 'browser-tests', 'dist', 'main.js');

/** The browser-tests command as a process; `onOutput` sees its stdout as it comes. */
function runCli(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; onOutput?: (text: string, kill: () => void) => void },
): Promise<{ code: number | string | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    options.onOutput?.(stdout, () => child.kill('SIGINT'));
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code: code ?? signal, stdout, stderr })),
  );
}

describe('suites', () => {
  const apps: AppProcess[] = [];
  const servers: Server[] = [];
  const hooks: { path: string; body: Record<string, unknown> }[] = [];
  let statusServed = 0;
  let flipServed = 0;
  let siteUrl = '';
  let hookUrl = '';
  let artifacts = '';
  let api: RunnerClient;
  let other: RunnerClient;
  let runnerUrl = '';
  let ownerKey = '';
  let otherKey = '';

  const listen = async (server: Server): Promise<number> => {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };

  beforeAll(async () => {
    const site = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      // /status is down the first time it is asked for, and up from then on.
      const body =
        path === '/'
          ? '<!doctype html><title>Shop</title><h1>Welcome</h1>'
          : path === '/status'
            ? `<!doctype html><title>Status</title><p>${statusServed++ === 0 ? 'Broken' : 'All good'}</p>`
            : path === '/flip' // broken, good, broken, …
              ? `<!doctype html><title>Flip</title><p>${flipServed++ % 2 === 0 ? 'Broken' : 'All good'}</p>`
              : undefined;
      if (!body) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    });
    siteUrl = `http://127.0.0.1:${await listen(site)}/`;
    const hook = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        hooks.push({ path: req.url ?? '', body: JSON.parse(text) as Record<string, unknown> });
        res.writeHead(204).end();
      });
    });
    const hookPort = await listen(hook);
    hookUrl = `http://127.0.0.1:${hookPort}/hook`;

    artifacts = mkdtempSync(join(tmpdir(), 'suites-'));
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-suites`,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      // Only the local webhook's own port is let through: every other loopback port stays refused.
      PUSH_ALLOWED_HOSTS: `127.0.0.1:${hookPort}`,
      SUITE_MIN_SCHEDULE_SECONDS: '1',
      SUITE_RUN_POLL_MS: '200',
      REAPER_INTERVAL_MS: '0',
      WORKER_CONCURRENCY: '2',
    };
    const port = await freePort();
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(port) });
    apps.push(jobsApi);
    const healthPort = await freePort();
    const worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(healthPort) });
    apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, jobsApi);
    await waitForHttp(`http://127.0.0.1:${healthPort}/health`, worker);
    const owner = `suites-${Date.now()}`;
    runnerUrl = `http://127.0.0.1:${port}`;
    ownerKey = (await insertApiKey(owner)).key;
    otherKey = (await insertApiKey(`${owner}-other`)).key;
    api = new RunnerClient(runnerUrl, ownerKey);
    other = new RunnerClient(runnerUrl, otherKey);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    rmSync(artifacts, { recursive: true, force: true });
  });

  const suiteBody = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    base_url: siteUrl,
    tags: ['e2e'],
    tests: [
      { title: 'Home says welcome', steps: ['The page contains "Welcome"'], tags: ['smoke'] },
      { title: 'Home says nope', start_url: '/', steps: ['The page contains "Nope"'] },
    ],
    ...extra,
  });

  const runsOf = async (id: string): Promise<Run[]> =>
    ((await api.get(`/v1/suites/${id}/runs`)).json as { runs: Run[] }).runs;

  it('stores, lists, replaces and deletes a suite; another key’s suite is not found', async () => {
    const created = await api.post('/v1/suites', suiteBody('crud'));
    expect(created.status).toBe(201);
    const suite = created.json as { id: string; name: string; tests: unknown[]; schedule: null };
    expect(suite).toMatchObject({
      name: 'crud',
      base_url: siteUrl,
      tags: ['e2e'],
      schedule: null,
      webhook: null,
    });
    expect(suite.tests).toEqual(suiteBody('crud').tests);

    expect((await api.get(`/v1/suites/${suite.id}`)).json).toMatchObject({ id: suite.id, name: 'crud' });
    expect((await api.get('/v1/suites?name=crud')).json).toMatchObject({ suites: [{ id: suite.id }] });

    const replaced = await api.request(`/v1/suites/${suite.id}`, {
      method: 'PUT',
      json: suiteBody('crud-renamed', { tests: [{ title: 'Only', steps: ['The page contains "Welcome"'] }] }),
    });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toMatchObject({ id: suite.id, name: 'crud-renamed', tests: [{ title: 'Only' }] });

    const taken = await api.post('/v1/suites', suiteBody('crud-renamed'));
    expect(taken.status).toBe(422);
    expect((taken.json as Detail).detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'name'],
        msg: expect.stringContaining('already have a suite'),
      }),
    ]);

    // Another owner sees nothing, can change nothing and cannot run it.
    expect((await other.get('/v1/suites')).json).toEqual({ suites: [] });
    for (const res of [
      await other.get(`/v1/suites/${suite.id}`),
      await other.request(`/v1/suites/${suite.id}`, { method: 'PUT', json: suiteBody('stolen') }),
      await other.delete(`/v1/suites/${suite.id}`),
      await other.post(`/v1/suites/${suite.id}/runs`, {}),
      await other.get(`/v1/suites/${suite.id}/runs`),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await api.get(`/v1/suites/${suite.id}`)).status).toBe(200);

    expect((await api.delete(`/v1/suites/${suite.id}`)).json).toEqual({ id: suite.id, deleted: true });
    expect((await api.get(`/v1/suites/${suite.id}`)).status).toBe(404);
    expect((await api.get('/v1/suites/not-a-uuid')).status).toBe(404);
    expect((await api.get('/v1/suites', { key: null })).status).toBe(401);
  });

  it('is documented in the OpenAPI document like the rest of /v1', async () => {
    const doc = (await api.get('/openapi.json', { key: null })).json as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(doc.paths['/v1/suites']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/suites/{suite_id}']!).sort()).toEqual(['delete', 'get', 'put']);
    expect(Object.keys(doc.paths['/v1/suites/{suite_id}/runs']!).sort()).toEqual(['get', 'post']);
    expect(doc.paths['/v1/suites']!.post!.responses).toHaveProperty('422');
    expect(Object.keys(doc.paths['/v1/suites/overview']!)).toEqual(['get']);
    expect(Object.keys(doc.paths['/v1/suites/{suite_id}/runs/{run_id}']!)).toEqual(['get']);
  });

  it('refuses invalid suites with a 422 detail naming each field', async () => {
    const res = await api.post('/v1/suites', {
      name: '',
      tests: [
        { title: 'x', steps: [] },
        { steps: ['Open /'] },
        { title: 'rel', start_url: '/a', steps: ['x'] },
      ],
      schedule: 'every minute',
    });
    expect(res.status).toBe(422);
    const locs = (res.json as Detail).detail.map((d) => d.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        ['body', 'name'],
        ['body', 'tests', 0, 'steps'],
        ['body', 'tests', 1, 'title'],
        ['body', 'tests', 2, 'start_url'],
        ['body', 'schedule'],
      ]),
    );
    const many = await api.post('/v1/suites', {
      name: 'many',
      tests: Array.from({ length: 101 }, (_, i) => ({ title: `t${i}`, steps: ['x'] })),
    });
    expect(many.status).toBe(422);
    expect((many.json as Detail).detail[0]!.loc).toEqual(['body', 'tests']);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data',
    'http://127.0.0.1:9/hook',
    'http://localhost:9/hook',
    'http://[::1]:9/hook',
    'http://[::ffff:127.0.0.1]:9/hook',
    'http://2130706433:9/hook',
    'http://0x7f.0.0.1:9/hook',
    'http://10.0.0.1/hook',
    'http://100.100.100.200/hook',
    'http://0.0.0.0:9/hook',
    'file:///etc/passwd',
    'gopher://93.184.215.14/',
    'http://user:pass@93.184.215.14/hook',
  ])('refuses the webhook %s as A2A push refuses it', async (webhook) => {
    const res = await api.post('/v1/suites', suiteBody(`hostile-${webhook}`, { webhook }));
    expect(res.status).toBe(422);
    const [problem] = (res.json as Detail).detail;
    expect(problem!.loc).toEqual(['body', 'webhook']);
    expect(problem!.msg).toMatch(/refused \(webhooks must be public\)|must use http or https|credentials/);
  });

  it('runs every test as a job and reports each test’s verdict and failing step', async () => {
    const suite = (await api.post('/v1/suites', suiteBody('two-tests'))).json as { id: string };
    const started = await api.post(`/v1/suites/${suite.id}/runs`, {});
    expect(started.status).toBe(202);
    expect(started.json).toMatchObject({ trigger: 'manual', status: 'running', total: 2 });

    const [run] = await until(
      () => runsOf(suite.id),
      (runs) => runs[0]?.status !== 'running',
    );
    expect(run).toMatchObject({ status: 'failed', passed: 1, failed: 1, total: 2 });
    const [pass, fail] = run!.tests;
    expect(pass).toMatchObject({ title: 'Home says welcome', verdict: 'passed', failing_step: null });
    expect(fail).toMatchObject({
      title: 'Home says nope',
      verdict: 'failed',
      failing_step: { index: 1, text: expect.stringContaining('Nope') },
    });
    const job = (await api.get(fail!.job_url)).json as {
      metadata: Record<string, unknown>;
      initial_url: string;
    };
    expect(job.initial_url).toBe(siteUrl);
    expect(job.metadata).toMatchObject({
      title: 'Home says nope',
      suite: { id: suite.id, trigger: 'manual' },
    });
    // The other owner cannot read the run's jobs either.
    expect((await other.get(fail!.job_url)).status).toBe(404);
  });

  it('runs on its schedule, one run at a time, and notifies the webhook of a failure and the recovery', async () => {
    const created = await api.post('/v1/suites', {
      name: 'scheduled',
      base_url: siteUrl,
      schedule: '* * * * * *',
      webhook: hookUrl,
      tests: [{ title: 'Status is good', start_url: '/status', steps: ['The page contains "All good"'] }],
    });
    expect(created.status).toBe(201);
    const suite = created.json as { id: string };

    await until(
      () => runsOf(suite.id),
      (runs) => runs.filter((r) => r.status !== 'running').length >= 2,
    );
    await until(
      async () => hooks.length,
      (count) => count >= 2,
    );
    expect((await api.delete(`/v1/suites/${suite.id}`)).status).toBe(200);

    expect((await api.get(`/v1/suites/${suite.id}/runs`)).status).toBe(404); // gone with the suite
    // Ticks while a run was going were skipped: each run followed the previous one's end.
    const [failure, recovery] = hooks;
    expect(failure!.body).toMatchObject({
      event: 'suite.run.failed',
      text: expect.stringContaining('Suite "scheduled" failed'),
      suite: { id: suite.id, name: 'scheduled' },
      run: { status: 'failed', failed: 1, total: 1 },
      failures: [{ title: 'Status is good', step: expect.stringContaining('All good') }],
    });
    expect(recovery!.body).toMatchObject({
      event: 'suite.run.recovered',
      text: expect.stringContaining('passes again'),
      run: { status: 'passed', passed: 1 },
    });
    expect(hooks.filter((h) => h.body.event === 'suite.run.failed')).toHaveLength(1);
    expect(statusServed).toBeGreaterThanOrEqual(2);
  });

  describe('from the browser-tests command, and on the hub', () => {
    const cliEnv = () => ({ BROWSER_TESTS_RUNNER: runnerUrl, BROWSER_TESTS_KEY: ownerKey });
    const write = (dir: string, files: Record<string, string>) => {
      mkdirSync(dir, { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    };

    it('push refuses what a suite cannot hold by file and line, and a usage mistake, with exit 2', async () => {
      const dir = join(artifacts, 'bad-tests');
      write(dir, {
        'secret.test.md': '---\nurl: /\nsecrets: [TOKEN]\n---\nType "{{secret.TOKEN}}" into Token\n',
        'typo.test.md': '---\ntittle: x\n---\nClick Go\n',
      });
      const unreadable = await runCli(['push', dir, '--suite', 'bad', '--base-url', siteUrl], {
        cwd: artifacts,
        env: cliEnv(),
      });
      expect(unreadable.code).toBe(2);
      expect(unreadable.stderr).toContain('bad-tests/typo.test.md:2: unknown front matter key "tittle"');

      writeFileSync(join(dir, 'typo.test.md'), 'Click Go\n');
      const secret = await runCli(['push', 'bad-tests', '--suite', 'bad', '--base-url', siteUrl], {
        cwd: artifacts,
        env: cliEnv(),
      });
      expect(secret.code).toBe(2);
      expect(secret.stderr).toContain('bad-tests/secret.test.md:3: a suite cannot hold secrets');

      const both = await runCli(['run', 'bad-tests', '--suite', 'bad'], { cwd: artifacts, env: cliEnv() });
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('either test files or --suite, not both');
      const retries = await runCli(['run', '--suite', 'bad', '--retries', '1'], {
        cwd: artifacts,
        env: cliEnv(),
      });
      expect(retries.code).toBe(2);
      expect(retries.stderr).toContain('--retries does not apply to a stored suite');
      const missing = await runCli(['run', '--suite', 'no-such-suite'], { cwd: artifacts, env: cliEnv() });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('you have no suite named "no-such-suite"');
      // Nothing was stored by the refused pushes.
      expect((await api.get('/v1/suites?name=bad')).json).toEqual({ suites: [] });
    });

    it('pushes a folder, runs it with --suite (exit 1, valid reports), replaces it and runs it green (exit 0)', async () => {
      const dir = join(artifacts, 'shop-tests');
      write(dir, {
        'home.test.md': '---\ntitle: Home says welcome\ntags: [smoke]\n---\n1. The page contains "Welcome"\n',
        'nope.test.md': '# Home says nope\n\n- The page contains "Nope"\n',
      });
      const pushed = await runCli(['push', 'shop-tests', '--suite', 'cli-shop', '--base-url', siteUrl], {
        cwd: artifacts,
        env: cliEnv(),
      });
      expect(pushed).toMatchObject({ code: 0, stderr: '' });
      expect(pushed.stdout).toContain('Created suite "cli-shop"');
      expect(pushed.stdout).not.toContain(ownerKey);
      const [stored] = (
        (await api.get('/v1/suites?name=cli-shop')).json as { suites: { id: string; tests: unknown[] }[] }
      ).suites;
      expect(stored!.tests).toEqual([
        { title: 'Home says welcome', steps: ['The page contains "Welcome"'], tags: ['smoke'] },
        { title: 'Home says nope', steps: ['The page contains "Nope"'] },
      ]);

      const red = await runCli(
        ['run', '--suite', 'cli-shop', '--reporter', 'junit=out/junit.xml,ctrf=out/ctrf.json'],
        { cwd: artifacts, env: cliEnv() },
      );
      expect(red.stderr).toBe('');
      expect(red.code).toBe(1);
      expect(red.stdout).toMatch(/Suite "cli-shop": run [0-9a-f-]+, 2 jobs queued/);
      expect(red.stdout).toContain('1 passed, 1 failed');
      expect(red.stdout).toMatch(/failing step 1\/1: The page contains "Nope"/);
      expect(red.stdout).toMatch(new RegExp(`job page: +${runnerUrl}/jobs/[0-9a-f-]+`));
      expect(red.stdout).toMatch(new RegExp(`Run page: ${runnerUrl}/suites/${stored!.id}/runs/[0-9a-f-]+`));

      const junit = (await parseJunit(
        readFileSync(join(artifacts, 'out', 'junit.xml'), 'utf8'),
      )) as TestSuites;
      expect(junit).toMatchObject({ tests: 2, failures: 1 });
      const ctrf = JSON.parse(readFileSync(join(artifacts, 'out', 'ctrf.json'), 'utf8')) as {
        results: { summary: Record<string, number> };
      };
      const ajv = new Ajv({ strict: false });
      addFormats.default(ajv);
      expect(ajv.validate(ctrfSchema, ctrf)).toBe(true);
      expect(ctrf.results.summary).toMatchObject({ tests: 2, passed: 1, failed: 1 });

      // Replaced from the same folder without the failing test: the stored base URL is kept.
      rmSync(join(dir, 'nope.test.md'));
      const replaced = await runCli(['push', 'shop-tests', '--suite', 'cli-shop'], {
        cwd: artifacts,
        env: cliEnv(),
      });
      expect(replaced.code).toBe(0);
      expect(replaced.stdout).toContain(`Replaced suite "cli-shop" (${stored!.id}) with 1 test`);
      const green = await runCli(['run', '--suite', 'cli-shop', '--no-live'], {
        cwd: artifacts,
        env: cliEnv(),
      });
      expect(green.code).toBe(0);
      expect(green.stdout).toContain('1 passed, 0 failed');
    });

    it('Ctrl-C on run --suite cancels the run’s queued jobs and exits 130', async () => {
      // More tests than the worker runs at once (2): some are still queued when Ctrl-C comes.
      const dir = join(artifacts, 'many-tests');
      write(
        dir,
        Object.fromEntries(
          Array.from({ length: 6 }, (_, i) => [
            `t${i}.test.md`,
            `Wait 2 seconds\nThe page contains "Welcome"\n`,
          ]),
        ),
      );
      expect(
        (
          await runCli(['push', 'many-tests', '--suite', 'cli-many', '--base-url', siteUrl], {
            cwd: artifacts,
            env: cliEnv(),
          })
        ).code,
      ).toBe(0);
      let sent = false;
      const interrupted = await runCli(['run', '--suite', 'cli-many', '--no-live'], {
        cwd: artifacts,
        env: cliEnv(),
        onOutput: (text, kill) => {
          if (!sent && /\] running/.test(text)) {
            sent = true;
            kill();
          }
        },
      });
      expect(interrupted.code).toBe(130);
      expect(interrupted.stdout).toMatch(/Interrupted: cancelled [1-9]\d* queued job/);
      const [suite] = ((await api.get('/v1/suites?name=cli-many')).json as { suites: { id: string }[] })
        .suites;
      const [run] = await until(
        () => runsOf(suite!.id),
        (runs) => runs[0]?.status !== 'running',
      );
      expect(run!.tests.filter((t) => t.job_status === 'cancelled').length).toBeGreaterThan(0);
    });

    it('lists the owner’s suites on the hub with their pass rate and flipping tests; a run’s page links each job', async () => {
      const overview = (await api.get('/v1/suites/overview')).json as {
        runs: number;
        suites: {
          id: string;
          name: string;
          pass_rate: number | null;
          last_runs: { id: string; status: string }[];
          flipping_tests: { title: string; flips: number }[];
        }[];
      };
      const shop = overview.suites.find((s) => s.name === 'cli-shop')!;
      expect(shop.last_runs.map((r) => r.status)).toEqual(['passed', 'failed']);
      expect(shop.pass_rate).toBe(0.5);
      expect((await other.get('/v1/suites/overview')).json).toEqual({ runs: 10, suites: [] });
      expect((await other.get(`/v1/suites/${shop.id}/runs/${shop.last_runs[0]!.id}`)).status).toBe(404);

      // A suite whose one test flips: /flip is broken on every other load.
      const flip = (
        await api.post('/v1/suites', {
          name: 'flipper',
          base_url: siteUrl,
          tests: [{ title: 'Status flips', start_url: '/flip', steps: ['The page contains "All good"'] }],
        })
      ).json as { id: string };
      for (let i = 0; i < 3; i++) {
        const started = (await api.post(`/v1/suites/${flip.id}/runs`, {})).json as { id: string };
        await until(
          async () => (await api.get(`/v1/suites/${flip.id}/runs/${started.id}`)).json as Run,
          (run) => run.status !== 'running',
        );
      }
      const flipper = ((await api.get('/v1/suites/overview')).json as typeof overview).suites.find(
        (s) => s.name === 'flipper',
      )!;
      expect(flipper.flipping_tests).toEqual([
        { title: 'Status flips', flips: 2, history: ['failed', 'passed', 'failed'] },
      ]);

      const browser = await launchLocalBrowser();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(String(error)));
        page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
        const open = async (path: string, key: string) => {
          await page.evaluateOnNewDocument(`localStorage.setItem('runner:apiKey', ${JSON.stringify(key)})`);
          const res = await page.goto(`${runnerUrl}${path}`);
          expect(res!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
        };
        await open('/suites', ownerKey);
        await page.waitForSelector(`section.suite[data-suite-id="${shop.id}"] .pass-rate`);
        const text = (await page.evaluate('document.querySelector("#suites-list").innerText')) as string;
        expect(text).toMatch(/cli-shop[\s\S]*Pass rate\s+50 % \(1 of 2 finished runs\)/);
        expect(text).toMatch(/flipper[\s\S]*Status flips — 2 flips/);
        const runLink = (await page.evaluate(
          `document.querySelector('section.suite[data-suite-id="${shop.id}"] ol.runs a').getAttribute('href')`,
        )) as string;
        expect(runLink).toBe(`/suites/${shop.id}/runs/${shop.last_runs[0]!.id}`);

        await open(runLink, ownerKey);
        await page.waitForSelector('#run-tests tbody a');
        const jobLinks = (await page.evaluate(
          `[...document.querySelectorAll('#run-tests tbody a')].map((a) => a.getAttribute('href'))`,
        )) as string[];
        expect(jobLinks).toEqual([expect.stringMatching(/^\/jobs\/[0-9a-f-]+$/)]);
        expect(errors).toEqual([]);

        const otherPage = await browser.newPage();
        await otherPage.evaluateOnNewDocument(
          `localStorage.setItem('runner:apiKey', ${JSON.stringify(otherKey)})`,
        );
        await otherPage.goto(`${runnerUrl}/suites`);
        await otherPage.waitForSelector('#suites-empty:not([hidden])');
        expect(await otherPage.evaluate('document.querySelectorAll("section.suite").length')).toBe(0);
      } finally {
        await browser.close();
      }
    });
  });
});
