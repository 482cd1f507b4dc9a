import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { schema as ctrfSchema } from 'ctrf';
import { parse as parseJunit, type TestSuite, type TestSuites } from 'junit2json';
import { freePort, repoRoot, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';

// The browser-tests command as a user runs it: a real process against the real jobs-api and a
// browser worker (Chromium), on the example tests of examples/browser-tests and its example site.

const KEY = 'browser-tests-cli-key';
const PASSWORD = 'Sesame-42-open';
const example = join(repoRoot, 'examples', 'browser-tests');
const cli = join(repoRoot, 'tools', 'browser-tests', 'dist', 'main.js');

interface CliRun {
  code: number | string | null;
  stdout: string;
  stderr: string;
}

interface RunningCli {
  child: ReturnType<typeof spawn>;
  stdout: () => string;
  done: Promise<CliRun>;
}

function startCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): RunningCli {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: options.cwd ?? example,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliRun>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code: code ?? signal, stdout, stderr })),
  );
  return { child, stdout: () => stdout, done };
}

const runCli = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  startCli(args, options).done;

describe('browser-tests command', () => {
  const apps: AppProcess[] = [];
  const requests: string[] = [];
  let site: Server;
  let siteUrl = '';
  let runnerUrl = '';
  let api: RunnerClient;
  let work = '';
  let flakyLoads = 0;
  const env: NodeJS.ProcessEnv = {};
  const cliEnv = (): NodeJS.ProcessEnv => ({
    BROWSER_TESTS_RUNNER: runnerUrl,
    BROWSER_TESTS_KEY: KEY,
    BROWSER_TESTS_BASE_URL: siteUrl,
    DEMO_SHOP_PASSWORD: PASSWORD,
  });

  beforeAll(async () => {
    site = createServer((req, res) => {
      requests.push(req.url ?? '/');
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      // The first load of /flaky.html shows an error page, every later one the real page.
      if (path === '/flaky.html')
        return void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            ++flakyLoads === 1
              ? '<title>Oops</title><p>Try again later</p>'
              : '<title>Ready</title><p>All systems go</p>',
          );
      try {
        const body = readFileSync(join(example, 'site', path === '/' ? 'index.html' : path));
        res.writeHead(200, { 'content-type': extname(path) === '.css' ? 'text/css' : 'text/html' }).end(body);
      } catch {
        res.writeHead(404).end('not found');
      }
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
    work = mkdtempSync(join(tmpdir(), 'browser-tests-cli-'));
    Object.assign(env, {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-browser-tests-cli`,
      API_KEYS: KEY,
      ARTIFACTS_DIR: join(work, 'artifacts'),
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
      WORKER_CONCURRENCY: '2',
    });
    const port = await freePort();
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(port) });
    apps.push(jobsApi);
    await waitForHttp(`http://127.0.0.1:${port}/health`, jobsApi);
    runnerUrl = `http://127.0.0.1:${port}`;
    api = new RunnerClient(runnerUrl, KEY);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await new Promise((resolve) => site.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  it('exits 2 with a clear message for a bad key, an unreachable runner and a bad test file', async () => {
    const badKey = await runCli(['run', 'tests'], { env: { ...cliEnv(), BROWSER_TESTS_KEY: 'not-a-key' } });
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain(`the runner at ${runnerUrl} refused the API key (401`);
    expect(badKey.stderr).not.toContain('not-a-key');

    const closed = await freePort();
    const unreachable = await runCli(['run', 'tests', '--runner', `http://127.0.0.1:${closed}`], {
      env: cliEnv(),
    });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain(
      `cannot reach the runner at http://127.0.0.1:${closed} (ECONNREFUSED)`,
    );

    mkdirSync(join(work, 'bad'), { recursive: true });
    writeFileSync(join(work, 'bad', 'typo.test.md'), '---\ntitle: Typo\nstart: /\n---\nOpen /\n');
    const badFile = await runCli(['run', 'bad'], { cwd: work, env: cliEnv() });
    expect(badFile.code).toBe(2);
    expect(badFile.stderr).toContain('bad/typo.test.md:3: unknown front matter key "start"');
  });

  it('--check reads every test on the runner, pointing at the line it cannot read, and queues nothing', async () => {
    mkdirSync(join(work, 'check'), { recursive: true });
    writeFileSync(join(work, 'check', 'fine.test.md'), '- The title is "Demo Shop"\n');
    writeFileSync(
      join(work, 'check', 'odd.test.md'),
      '# Odd\n\n- The title is "Demo Shop"\n- Frobnicate the widget\n',
    );
    const check = await runCli(['run', 'check', '--check'], { cwd: work, env: cliEnv() });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('✓ check/fine.test.md: 1 step readable');
    expect(check.stdout).toContain('check/odd.test.md:4: cannot read "Frobnicate the widget"');
    expect(check.stdout).toContain('1 readable, 1 not readable; nothing was queued');
    // Keys from API_KEYS share one owner, so other suites' jobs are in this list too: look for
    // the jobs this command would have queued, by the file it names in their metadata.
    const listed = (await api.get('/v1/jobs?limit=200')).json as {
      jobs: { metadata?: { file?: string } | null }[];
    };
    expect(listed.jobs.filter((job) => job.metadata?.file?.startsWith('check/'))).toEqual([]);
  });

  it('Ctrl-C cancels the jobs it queued and says so', async () => {
    // No worker runs yet, so every job waits in the queue.
    const cli = startCli(['run', 'tests', '--parallel', '3'], { env: cliEnv() });
    while ((cli.stdout().match(/queued as job/g) ?? []).length < 3) {
      if (cli.child.exitCode !== null) throw new Error(`the command ended early:\n${cli.stdout()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const ids = [...cli.stdout().matchAll(/queued as job ([0-9a-f-]{36})/g)].map((m) => m[1]!);
    cli.child.kill('SIGINT');
    const run = await cli.done;
    expect(run.code).toBe(130);
    expect(run.stdout).toContain('Interrupted: cancelled 3 queued jobs');
    for (const id of ids)
      expect((await api.get(`/v1/jobs/${id}`)).json).toMatchObject({ status: 'cancelled' });
  });

  it('runs the example tests: exit 1 for the failing one, JUnit and CTRF files that a parser and the schema accept, secrets kept out', async () => {
    const port = await freePort();
    const worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(port) });
    apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, worker);

    const summaryFile = join(work, 'step-summary.md');
    const run = await runCli(
      [
        'run',
        'tests/*.test.md',
        '--parallel',
        '2',
        '--reporter',
        `junit=${work}/out/junit.xml,ctrf=${work}/out/ctrf.json,github`,
      ],
      { env: { ...cliEnv(), GITHUB_STEP_SUMMARY: summaryFile } },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Running 3 tests');
    expect(run.stdout).toMatch(/✓ The home page greets visitors passed/);
    expect(run.stdout).toMatch(/✓ A visitor signs up for the Pro plan passed/);
    expect(run.stdout).toContain('failing step 2/3 (line 9): Click "Cart"');
    expect(run.stdout).toMatch(new RegExp(`job page: +${runnerUrl}/jobs/[0-9a-f-]{36}`));
    expect(run.stdout).toMatch(new RegExp(`screenshot: +${runnerUrl}/v1/jobs/[0-9a-f-]{36}/screenshot`));
    expect(run.stdout).toContain('2 passed, 1 failed (3 tests');
    expect(run.stdout).toMatch(
      /^::error file=tests\/checkout\.test\.md,line=9,title=Checkout shows the cart total \(fails on purpose\) failed::Step 2\/3 failed: Click "Cart"/m,
    );

    // The secret was typed into the page (the form sends it), yet appears nowhere in what the command wrote.
    expect(requests.some((url) => url.includes(`password=${PASSWORD}`))).toBe(true);
    const junit = readFileSync(join(work, 'out', 'junit.xml'), 'utf8');
    const ctrf = readFileSync(join(work, 'out', 'ctrf.json'), 'utf8');
    const summary = readFileSync(summaryFile, 'utf8');
    for (const text of [run.stdout, junit, ctrf, summary]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(KEY);
    }

    const parsed = (await parseJunit(junit)) as TestSuites;
    expect(parsed).toMatchObject({ tests: 3, failures: 1 });
    const cases = (parsed.testsuite![0] as TestSuite).testcase!;
    const failing = cases.find((c) => c.classname === 'tests/checkout.test.md')!;
    expect(failing.failure![0]!.message).toMatch(/^Step 2\/3 failed: Click "Cart" — /);
    expect(failing['system-out']![0]).toMatch(
      new RegExp(`\\[\\[ATTACHMENT\\|${runnerUrl}/v1/jobs/[0-9a-f-]{36}/screenshot\\]\\]`),
    );

    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(ctrfSchema);
    const report = JSON.parse(ctrf) as { results: { summary: Record<string, number> } };
    expect(validate(report) ? [] : validate.errors).toEqual([]);
    expect(report.results.summary).toMatchObject({ tests: 3, passed: 2, failed: 1 });
    expect(summary).toContain('## Browser tests: 2 passed, 1 failed');

    // The screenshot link of the failure is real.
    const shot = /screenshot: +(\S+)/.exec(run.stdout)![1]!;
    const png = await fetch(shot, { headers: { authorization: `Bearer ${KEY}` } });
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
  });

  it('--tag and --grep pick tests, and a test that passes on a retry is reported as flaky (exit 0)', async () => {
    const smoke = await runCli(['run', 'tests', '--tag', 'smoke', '--grep', 'greets'], { env: cliEnv() });
    expect(smoke.code).toBe(0);
    expect(smoke.stdout).toContain('Running 1 test');
    expect(smoke.stdout).toContain('1 passed, 0 failed (1 tests');

    mkdirSync(join(work, 'flaky'), { recursive: true });
    writeFileSync(
      join(work, 'flaky', 'status.test.md'),
      '---\ntitle: Status page\nurl: /flaky.html\n---\n- The page contains "All systems go"\n',
    );
    const flaky = await runCli(
      ['run', 'flaky', '--retries', '2', '--reporter', `ctrf=${work}/out/flaky.json`],
      { cwd: work, env: cliEnv() },
    );
    expect(flaky.code).toBe(0);
    expect(flaky.stdout).toMatch(/~ Status page flaky in .* \(passed on attempt 2\)/);
    expect(flaky.stdout).toContain('0 passed, 0 failed, 1 flaky');
    const report = JSON.parse(readFileSync(join(work, 'out', 'flaky.json'), 'utf8')) as {
      results: { tests: Record<string, unknown>[] };
    };
    expect(report.results.tests[0]).toMatchObject({ status: 'passed', flaky: true, retries: 1 });
  });
});
