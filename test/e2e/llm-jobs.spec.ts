import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  inOrder,
  serveScriptedLlm,
  type ScriptedLlmServer,
} from '../../libs/llm-agent/testing/scripted-llm-server.js';
import { serveTestSite, type TestSite } from '../../libs/llm-agent/testing/test-pages.js';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';

// An LLM job through the whole suite: jobs-api and a worker configured for an OpenAI-compatible
// provider, which here is a real local HTTP server speaking that API, scripted for the test.

const PASSWORD = 'correct-horse-battery-staple';
const KEY = 'llm-jobs-key';

describe('LLM jobs', () => {
  const apps: AppProcess[] = [];
  let llm: ScriptedLlmServer;
  let site: TestSite;
  let api: RunnerClient;
  const artifacts = mkdtempSync(join(tmpdir(), 'llm-jobs-'));

  beforeAll(async () => {
    site = await serveTestSite(PASSWORD);
    llm = await serveScriptedLlm(
      inOrder(
        (t) => ({
          toolCalls: [
            { name: 'type', args: { ref: t.ref('textbox', 'Email'), text: 'ada@example.com' } },
            { name: 'type', args: { ref: t.ref('textbox', 'Password'), text: '{{secret.password}}' } },
          ],
          usage: { input: 1200, output: 60 },
        }),
        (t) => ({ toolCalls: [{ name: 'click', args: { ref: t.ref('button', 'Sign in') } }] }),
        { toolCalls: [{ name: 'assert_text', args: { text: 'Welcome back, Ada' } }] },
        {
          toolCalls: [
            { name: 'done', args: { passed: true, summary: 'Signed in and saw the welcome page.' } },
          ],
        },
      ),
    );
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-llm`,
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
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await llm?.close();
    await site?.close();
    rmSync(artifacts, { recursive: true, force: true });
  });

  it('lists the provider’s models, a fast-tier one as the default', async () => {
    const { models } = (await api.request('/v1/models')).json as {
      models: { id: string; default: boolean }[];
    };
    expect(models.find((m) => m.default)?.id).toBe('gpt-4.1-mini');
    expect(models.map((m) => m.id)).toEqual(
      expect.arrayContaining(['instruction-interpreter', 'gpt-4.1-mini']),
    );
  });

  it('runs a job with the LLM agent and never reveals the secret it typed', async () => {
    const created = await api.request('/v1/jobs', {
      json: {
        query: 'Sign in as ada@example.com with the password and check the welcome message.',
        initial_url: `${site.url}/login`,
        metadata: { secrets: { password: PASSWORD }, ticket: 'QA-7' },
      },
    });
    expect(created.status).toBe(202);
    const record = created.json as { id: string; model: string; metadata: Record<string, unknown> };
    expect(record.model).toBe('gpt-4.1-mini');
    expect(record.metadata).toEqual({ secrets: { password: '••••••' }, ticket: 'QA-7' });

    let job = { status: 'queued', summary: '', steps: [] as { action: string; status: string }[] };
    const deadline = Date.now() + 45_000;
    while (!['succeeded', 'failed'].includes(job.status) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      job = (await api.request(`/v1/jobs/${record.id}`)).json as typeof job;
    }
    expect(job.status).toBe('succeeded');
    expect(job.summary).toMatch(/Signed in/);
    expect(job.steps.map((s) => [s.action, s.status])).toEqual([
      ['type', 'passed'],
      ['type', 'passed'],
      ['click', 'passed'],
      ['assertText', 'passed'],
    ]);

    const log = (await api.request(`/v1/jobs/${record.id}/log`)).text;
    expect(log).toMatch(/tokens/);
    expect(log).not.toContain(PASSWORD);
    expect(llm.requests.length).toBeGreaterThanOrEqual(4);
    for (const request of llm.requests) {
      expect(request.raw).not.toContain(PASSWORD);
      expect(request.headers.authorization).toBe('Bearer sk-test-provider-key');
    }
  });

  it('a failed LLM job keeps a screenshot of the page it ended on', async () => {
    // The script is used up: the model now only says it is done, with no assertion that held, which
    // fails the job.
    const created = await api.request('/v1/jobs', {
      json: { query: 'Check that the login page has a Sign in button.', initial_url: `${site.url}/login` },
    });
    const { id } = created.json as { id: string };
    let job = { status: 'queued', links: {} as { screenshot?: string } };
    const deadline = Date.now() + 45_000;
    while (!['succeeded', 'failed'].includes(job.status) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      job = (await api.request(`/v1/jobs/${id}`)).json as typeof job;
    }
    expect(job.status).toBe('failed');
    expect(job.links.screenshot).toBe(`/v1/jobs/${id}/screenshot`);
    const shot = await api.request(job.links.screenshot!);
    expect(shot.headers.get('content-type')).toBe('image/png');
    expect(shot.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});

describe('a bad LLM setting stops the apps at boot, naming the variable', () => {
  it.each(['jobs-api', 'browser-worker'] as const)('%s', async (name) => {
    const app = startApp(name, {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      OPENAI_API_KEY: 'sk-x',
      LLM_MODELS: 'gpt-4.1-mini=openai,local-llama=ollama',
    });
    await expect(app.exited).resolves.toBe(1);
    expect(app.output()).toMatch(`Invalid environment for ${name}`);
    expect(app.output()).toMatch(/LLM_MODELS/);
    expect(app.output()).not.toContain('sk-x');
  });
});
