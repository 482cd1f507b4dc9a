import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromiumArgs, DEFAULT_CHROMIUM_PATH, launchLocalBrowser } from '@suite/browser-agent';
import { withClient } from '../../libs/db/src/testing/throwaway-database.js';
import { type ChangeableSite, serveChangeableSite } from '../../libs/llm-agent/testing/changeable-site.js';
import {
  inOrder,
  type ScriptedLlmServer,
  serveScriptedLlm,
} from '../../libs/llm-agent/testing/scripted-llm-server.js';
import { freePort, repoRoot, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';

// GET /v1/jobs/{id}/script end to end: jobs run by the interpreter and by the LLM agent (a
// scripted model server), their exported Playwright and Puppeteer scripts run for real against
// the same local site, and fail once the site no longer satisfies an assertion.

const PASSWORD = 'export-secret-Opal-7';
const KEY = 'script-export-key';
const chromium = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;

interface Job {
  id: string;
  status: string;
  summary: string | null;
  links: { script?: string };
}

interface Ran {
  code: number | null;
  output: string;
}

/** Runs a command without blocking this process (the site it tests is served from here). */
function run(command: string, args: string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    // Without Jest's variables: Playwright refuses to run when it thinks Jest loaded it.
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('JEST')),
    );
    const child = spawn(command, args, { cwd: repoRoot, env: { ...inherited, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('GET /v1/jobs/{id}/script', () => {
  const apps: AppProcess[] = [];
  const jobIds: string[] = [];
  let llm: ScriptedLlmServer;
  let site: ChangeableSite;
  let api: RunnerClient;
  let passedInterpreterJob: string | undefined;
  const artifacts = mkdtempSync(join(tmpdir(), 'script-export-'));
  // Scripts run from inside the repository so that '@playwright/test' and 'puppeteer-core' resolve.
  mkdirSync(join(repoRoot, '.data'), { recursive: true });
  const work = mkdtempSync(join(repoRoot, '.data', 'script-export-'));

  async function runJob(body: Record<string, unknown>): Promise<Job> {
    const created = await api.request('/v1/jobs', {
      json: { initial_url: `${site.url}/login`, highlight_mouse: false, ...body },
    });
    expect(created.status).toBe(202);
    let job = created.json as Job;
    jobIds.push(job.id);
    const deadline = Date.now() + 150_000;
    while (!['succeeded', 'failed'].includes(job.status) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      job = (await api.request(`/v1/jobs/${job.id}`)).json as Job;
    }
    return job;
  }

  /** Writes the exported Playwright test and runs it with the Playwright CLI on Debian's Chromium. */
  async function runPlaywright(script: string, name: string): Promise<Ran> {
    const dir = join(work, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'exported.spec.mjs'), script);
    writeFileSync(
      join(dir, 'playwright.config.mjs'),
      `export default {
  testDir: '.',
  outputDir: ${JSON.stringify(join(dir, 'results'))},
  reporter: 'line',
  timeout: 120000,
  expect: { timeout: 5000 },
  use: { launchOptions: { executablePath: process.env.EXPORT_CHROMIUM, args: ${JSON.stringify(chromiumArgs())} } },
};\n`,
    );
    return run(
      join(repoRoot, 'node_modules', '.bin', 'playwright'),
      ['test', '--config', join(dir, 'playwright.config.mjs')],
      { EXPORT_CHROMIUM: chromium, PASSWORD },
    );
  }

  /** Runs the exported Puppeteer script with puppeteer-core (what is installed here) instead of puppeteer. */
  async function runPuppeteer(script: string, name: string): Promise<Ran> {
    const file = join(work, `${name}.mjs`);
    writeFileSync(file, script.replace("from 'puppeteer';", "from 'puppeteer-core';"));
    return run(process.execPath, [file], {
      PUPPETEER_EXECUTABLE_PATH: chromium,
      PUPPETEER_NO_SANDBOX: '1',
      STEP_TIMEOUT_MS: '5000',
      PASSWORD,
    });
  }

  beforeAll(async () => {
    site = await serveChangeableSite(PASSWORD);
    llm = await serveScriptedLlm(
      inOrder(
        (t) => ({
          toolCalls: [
            { name: 'type', args: { ref: t.ref('textbox', 'Email'), text: 'ada@example.com' } },
            { name: 'type', args: { ref: t.ref('textbox', 'Password'), text: '{{secret.password}}' } },
          ],
        }),
        (t) => ({ toolCalls: [{ name: 'click', args: { ref: t.ref('button', 'Sign in') } }] }),
        (t) => ({
          toolCalls: [
            { name: 'assert_text', args: { text: 'Welcome back, Ada' } },
            {
              name: 'assert_element_text',
              args: { ref: t.ref('heading', 'Welcome back, Ada'), expected: 'Welcome' },
            },
          ],
        }),
        { toolCalls: [{ name: 'done', args: { passed: true, summary: 'Signed in.' } }] },
      ),
    );
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-export`,
      API_KEYS: KEY,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
      OPENAI_API_KEY: 'sk-test-provider-key',
      OPENAI_BASE_URL: llm.openaiBaseUrl,
    };
    const [apiPort, workerPort] = [await freePort(), await freePort()];
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(apiPort) });
    const worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(workerPort) });
    apps.push(jobsApi, worker);
    await waitForHttp(`http://127.0.0.1:${apiPort}/health`, jobsApi);
    await waitForHttp(`http://127.0.0.1:${workerPort}/health`, worker);
    api = new RunnerClient(`http://127.0.0.1:${apiPort}`, KEY);
  }, 330_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await llm?.close();
    await site?.close();
    rmSync(artifacts, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
    if (jobIds.length > 0 && process.env.DATABASE_URL) {
      await withClient(process.env.DATABASE_URL, async (client) => {
        await client.query('DELETE FROM replay_scripts WHERE job_id = ANY($1::uuid[])', [jobIds]);
        await client.query('DELETE FROM jobs WHERE id = ANY($1::uuid[])', [jobIds]);
      });
    }
  }, 300_000);

  it('answers 404 for unknown and foreign jobs, and 422 for a bad format or a job without a passed run', async () => {
    expect((await api.request(`/v1/jobs/${randomUUID()}/script`)).status).toBe(404);
    expect((await api.request('/v1/jobs/not-a-uuid/script')).status).toBe(404);
    const foreign = randomUUID();
    jobIds.push(foreign);
    await withClient(process.env.DATABASE_URL!, (client) =>
      client.query(
        `INSERT INTO jobs (id, owner, query, initial_url, model, status, actions)
         VALUES ($1, 'someone-else', 'open x', 'http://127.0.0.1/', 'instruction-interpreter', 'succeeded', '[]')`,
        [foreign],
      ),
    );
    const notMine = await api.request(`/v1/jobs/${foreign}/script`);
    expect(notMine.status).toBe(404);
    expect(notMine.json).toMatchObject({ code: 'job_not_found' });

    const failing = await api.request('/v1/jobs', {
      json: {
        model: 'instruction-interpreter',
        query: `open ${site.url}/login\nverify the page contains "No such text anywhere"`,
        initial_url: `${site.url}/login`,
        highlight_mouse: false,
      },
    });
    const failingId = (failing.json as Job).id;
    jobIds.push(failingId);
    // Queued, running or failed: in none of these states is there a script.
    const early = await api.request(`/v1/jobs/${failingId}/script`);
    expect(early.status).toBe(422);
    expect(early.json).toEqual({
      detail: [expect.objectContaining({ type: 'script_unavailable', loc: ['path', 'job_id'] })],
    });
    const badFormat = await api.request(`/v1/jobs/${failingId}/script?format=selenium`);
    expect(badFormat.status).toBe(422);
    expect(badFormat.json).toEqual({
      detail: [expect.objectContaining({ type: 'enum', loc: ['query', 'format'], input: 'selenium' })],
    });
  }, 300_000);

  it('exports an interpreter job as a Playwright test and a Puppeteer script that pass, then fail once the page changed', async () => {
    const job = await runJob({
      model: 'instruction-interpreter',
      query: [
        `open ${site.url}/login`,
        'type "ada@example.com" into the "Email" field',
        `type "${PASSWORD}" into the "Password" field`,
        'click the "Sign in" button',
        'verify the page contains "Welcome back, Ada"',
        'the title is "Welcome"',
      ].join('\n'),
      metadata: { secrets: { password: PASSWORD } },
    });
    expect(job.status).toBe('succeeded');
    expect(job.links.script).toBe(`/v1/jobs/${job.id}/script`);
    passedInterpreterJob = job.id;

    const playwright = await api.request(job.links.script!);
    expect(playwright.status).toBe(200);
    expect(playwright.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(playwright.headers.get('content-disposition')).toBe(
      `attachment; filename="job-${job.id.slice(0, 8)}.spec.mjs"`,
    );
    expect(playwright.text).toContain("from '@playwright/test'");
    expect(playwright.text).toContain('process.env.PASSWORD');
    expect(playwright.text).not.toContain(PASSWORD);
    expect(playwright.text).toContain('"role":"button","name":"Sign in"');

    const puppeteer = await api.request(`${job.links.script!}?format=puppeteer`);
    expect(puppeteer.status).toBe(200);
    expect(puppeteer.headers.get('content-disposition')).toBe(
      `attachment; filename="job-${job.id.slice(0, 8)}.puppeteer.mjs"`,
    );
    expect(puppeteer.text).toContain("from 'puppeteer'");
    expect(puppeteer.text).not.toContain(PASSWORD);

    const passedPw = await runPlaywright(playwright.text, 'interpreter-pass');
    expect(passedPw.output).toMatch(/1 passed/);
    expect(passedPw.code).toBe(0);
    const passedPp = await runPuppeteer(puppeteer.text, 'interpreter-pass');
    expect(passedPp.output).toMatch(/^passed: /m);
    expect(passedPp.code).toBe(0);

    site.look.welcome = 'Good to see you, Ada';
    try {
      const failedPw = await runPlaywright(playwright.text, 'interpreter-fail');
      expect(failedPw.code).not.toBe(0);
      expect(failedPw.output).toMatch(/toContainText/);
      expect(failedPw.output).toMatch(/Welcome back, Ada/);
      const failedPp = await runPuppeteer(puppeteer.text, 'interpreter-fail');
      expect(failedPp.code).toBe(1);
      expect(failedPp.output).toMatch(/assertion failed: the page contains "Welcome back, Ada"/);
    } finally {
      site.look.welcome = 'Welcome back, Ada';
    }
  }, 400_000);

  it('exports an LLM job with the elements the agent used, and the script passes', async () => {
    const job = await runJob({
      model: 'gpt-4.1-mini',
      query: 'Sign in as ada@example.com with the password and check the welcome message.',
      metadata: { secrets: { password: PASSWORD }, replay: false },
    });
    expect(job.status).toBe('succeeded');
    const playwright = await api.request(`/v1/jobs/${job.id}/script?format=playwright`);
    expect(playwright.status).toBe(200);
    expect(playwright.text).not.toContain(PASSWORD);
    expect(playwright.text).not.toContain('data-agent-ref');
    expect(playwright.text).toContain('process.env.PASSWORD');
    expect(playwright.text).toContain('"role":"textbox","name":"Email"');
    expect(playwright.text).toContain('"role":"heading","name":"Welcome back, Ada"');
    const ran = await runPlaywright(playwright.text, 'llm-pass');
    expect(ran.output).toMatch(/1 passed/);
    expect(ran.code).toBe(0);
    const puppeteer = await api.request(`/v1/jobs/${job.id}/script?format=puppeteer`);
    const ranPp = await runPuppeteer(puppeteer.text, 'llm-pass');
    expect(ranPp.output).toMatch(/^passed: /m);
    expect(ranPp.code).toBe(0);
    expect(readFileSync(join(work, 'llm-pass.mjs'), 'utf8')).toContain("from 'puppeteer-core'");
  }, 400_000);

  it('the job page shows the finished job\u2019s script, with a Playwright/Puppeteer switch and a copy button', async () => {
    expect(passedInterpreterJob).toBeDefined();
    const browser = await launchLocalBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${api.baseUrl}/jobs/${passedInterpreterJob}`);
      await page.type('#api-key', KEY);
      await page.click('form.key button');
      await page.waitForFunction(
        `document.querySelector('#job-script')?.textContent.includes("from '@playwright/test'")`,
        { timeout: 30_000 },
      );
      expect(await page.evaluate(`document.querySelector('#script-section').hidden`)).toBe(false);
      expect(await page.evaluate(`document.querySelector('#job-script').textContent`)).not.toContain(
        PASSWORD,
      );
      await page.click('input[name="script-format"][value="puppeteer"]');
      await page.waitForFunction(
        `document.querySelector('#job-script').textContent.includes("from 'puppeteer'")`,
        { timeout: 30_000 },
      );
      expect(await page.evaluate(`document.querySelector('#script-copy').textContent`)).toBe('Copy script');
    } finally {
      await browser.close();
    }
  }, 300_000);
});
