import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClient } from '../../libs/db/src/testing/throwaway-database.js';
import { type ChangeableSite, serveChangeableSite } from '../../libs/llm-agent/testing/changeable-site.js';
import {
  inOrder,
  type Script,
  type ScriptedLlmServer,
  serveScriptedLlm,
} from '../../libs/llm-agent/testing/scripted-llm-server.js';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';

// Replay of passed LLM runs through the whole suite: jobs-api, a worker, a real Chromium, a local
// site that the test changes between jobs, and a scripted model server that counts every request.

const PASSWORD = 'replay-secret-Sesame-42';
const KEY = 'llm-replay-key';
const QUERY = 'Sign in as ada@example.com with the password and check the welcome message.';

interface Job {
  id: string;
  status: string;
  summary: string | null;
  steps: { index: number; action: string; status: string }[];
  replay?: Record<string, unknown>;
}

/** The model's answers for a fresh run of the sign-in test, with the button label of the moment. */
const signIn = (button: string): Script =>
  inOrder(
    (t) => ({
      toolCalls: [
        { name: 'type', args: { ref: t.ref('textbox', 'Email'), text: 'ada@example.com' } },
        { name: 'type', args: { ref: t.ref('textbox', 'Password'), text: '{{secret.password}}' } },
      ],
    }),
    (t) => ({ toolCalls: [{ name: 'click', args: { ref: t.ref('button', button) } }] }),
    { toolCalls: [{ name: 'assert_text', args: { text: 'Welcome back, Ada' } }] },
    { toolCalls: [{ name: 'done', args: { passed: true, summary: 'Signed in and saw the welcome page.' } }] },
  );

describe('LLM jobs replay a passed run without the model', () => {
  const apps: AppProcess[] = [];
  const jobIds: string[] = [];
  let llm: ScriptedLlmServer;
  let site: ChangeableSite;
  let api: RunnerClient;
  // The server's script for the current phase; turns count from the phase's first request.
  let phase: Script = () => ({ text: 'no model call was expected here' });
  let phaseStart = 0;
  const artifacts = mkdtempSync(join(tmpdir(), 'llm-replay-'));

  function expectModel(script: Script): void {
    phaseStart = llm.requests.length;
    phase = script;
  }

  async function runJob(metadata: Record<string, unknown> = {}): Promise<Job> {
    const created = await api.request('/v1/jobs', {
      json: {
        query: QUERY,
        initial_url: `${site.url}/login`,
        // No drawn cursor, no typing delay: fewer chances for a loaded machine to time a step out.
        highlight_mouse: false,
        metadata: { secrets: { password: PASSWORD }, ...metadata },
      },
    });
    expect(created.status).toBe(202);
    const id = (created.json as Job).id;
    jobIds.push(id);
    let job = created.json as Job;
    const deadline = Date.now() + 150_000;
    while (!['succeeded', 'failed'].includes(job.status) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      job = (await api.request(`/v1/jobs/${id}`)).json as Job;
    }
    if (job.status !== 'succeeded') console.log(job, await logOf(id));
    return job;
  }

  async function logOf(id: string): Promise<string> {
    return (await api.request(`/v1/jobs/${id}/log`)).text;
  }

  beforeAll(async () => {
    site = await serveChangeableSite(PASSWORD);
    llm = await serveScriptedLlm((turn) => phase({ ...turn, index: turn.index - phaseStart }));
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-replay`,
      API_KEYS: KEY,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
      // A recorded step that no longer works fails after this long, then the model takes over.
      ACTION_TIMEOUT_MS: '5000',
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
    if (jobIds.length > 0 && process.env.DATABASE_URL) {
      await withClient(process.env.DATABASE_URL, async (client) => {
        await client.query('DELETE FROM replay_scripts WHERE job_id = ANY($1::uuid[])', [jobIds]);
        await client.query('DELETE FROM jobs WHERE id = ANY($1::uuid[])', [jobIds]);
      });
    }
  }, 300_000);

  it('a first run calls the model and passes', async () => {
    expectModel(signIn('Sign in'));
    const job = await runJob();
    expect(job.status).toBe('succeeded');
    expect(llm.requests.length - phaseStart).toBe(4);
    expect(job.replay).toBeUndefined();
  }, 300_000);

  it('the same test again replays the recorded steps with zero model requests', async () => {
    expectModel(() => ({ text: 'the replay must not ask the model' }));
    const job = await runJob();
    expect(job.status).toBe('succeeded');
    expect(llm.requests.length - phaseStart).toBe(0);
    expect(job.summary).toMatch(/^Replayed the recorded run without the model \(4 model calls saved\)/);
    expect(job.steps.map((s) => [s.action, s.status])).toEqual([
      ['navigate', 'passed'],
      ['type', 'passed'],
      ['type', 'passed'],
      ['click', 'passed'],
      ['assertText', 'passed'],
    ]);
    expect(job.replay).toEqual({
      replayed_steps: 5,
      total_steps: 5,
      healed_from_step: null,
      model_calls: 0,
      model_calls_saved: 4,
    });
    const log = await logOf(job.id);
    expect(log).toMatch(/replay: all 5 recorded steps passed without calling the model/);
    expect(log).not.toContain(PASSWORD);
  }, 300_000);

  it('metadata.replay: false runs the model even though a recording exists', async () => {
    expectModel(signIn('Sign in'));
    const job = await runJob({ replay: false });
    expect(job.status).toBe('succeeded');
    expect(llm.requests.length - phaseStart).toBe(4);
    expect(job.replay).toBeUndefined();
    expect(await logOf(job.id)).toMatch(/replay: off for this job/);
  }, 300_000);

  it('a button renamed to a usual other name of the same control ("Log in" for "Sign in") still replays without the model', async () => {
    site.look.button = 'Log in';
    expectModel(() => ({ text: 'the replay must not ask the model' }));
    const job = await runJob();
    expect(job.status).toBe('succeeded');
    expect(llm.requests.length - phaseStart).toBe(0);
    expect(job.replay).toMatchObject({ replayed_steps: 5, healed_from_step: null, model_calls: 0 });
  }, 300_000);

  it('after the page changed, the model is asked only from the broken step, and the healed run is replayed next', async () => {
    site.look.button = 'Continue';
    expectModel(
      inOrder(
        (t) => ({ toolCalls: [{ name: 'click', args: { ref: t.ref('button', 'Continue') } }] }),
        { toolCalls: [{ name: 'assert_text', args: { text: 'Welcome back, Ada' } }] },
        {
          toolCalls: [
            { name: 'done', args: { passed: true, summary: 'Signed in with the renamed button.' } },
          ],
        },
      ),
    );
    const healed = await runJob();
    expect(healed.status).toBe('succeeded');
    expect(llm.requests.length - phaseStart).toBe(3);
    // The model was told what already ran, and never saw the password.
    const first = llm.requests[phaseStart]!.raw;
    expect(first).toContain('already ran and passed');
    expect(first).toContain('Sign in');
    for (const request of llm.requests.slice(phaseStart)) expect(request.raw).not.toContain(PASSWORD);
    expect(healed.summary).toMatch(/step 4 no longer worked, so the model continued from there/);
    expect(healed.replay).toMatchObject({ replayed_steps: 3, healed_from_step: 4, model_calls: 3 });
    expect(healed.steps.map((s) => [s.index, s.action, s.status])).toEqual([
      [1, 'navigate', 'passed'],
      [2, 'type', 'passed'],
      [3, 'type', 'passed'],
      [4, 'click', 'passed'],
      [5, 'assertText', 'passed'],
    ]);
    expect(await logOf(healed.id)).toMatch(
      /self-healing: recorded step 4 of 5 \("click the "Sign in" button"\) no longer works/,
    );

    expectModel(() => ({ text: 'the healed script must replay without the model' }));
    const again = await runJob();
    expect(again.status).toBe('succeeded');
    expect(llm.requests.length - phaseStart).toBe(0);
    expect(again.summary).toMatch(/^Replayed the recorded run without the model/);
  }, 300_000);
});
