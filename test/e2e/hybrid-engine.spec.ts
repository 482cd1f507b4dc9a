import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClient } from '../../libs/db/src/testing/throwaway-database.js';
import { type PetsSite, servePetsSite } from '../../libs/llm-agent/testing/pets-site.js';
import {
  inOrder,
  type Script,
  type ScriptedLlmServer,
  serveScriptedLlm,
} from '../../libs/llm-agent/testing/scripted-llm-server.js';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';

// The hybrid engine through the whole suite: jobs-api, a worker with an OpenAI-compatible provider
// configured (a scripted server that counts every request), a real Chromium and a local page the
// test changes between jobs. Jobs ask for the built-in interpreter; the model gets only its gaps.

const KEY = 'hybrid-engine-key';
// Step 2 is not a phrasing the interpreter reads; step 4 names a button the page calls "Stroke the dog".
const QUERY = `1. Give the cat a treat
2. The page shows "The cat purrs"
3. Click the "Pet the dog" button
4. The page shows "The dog wags"`;

interface Job {
  id: string;
  status: string;
  summary: string | null;
  steps: { index: number; action: string; status: string; resolved_by?: string }[];
}

const done = (summary: string) => ({ toolCalls: [{ name: 'done', args: { passed: true, summary } }] });
const clickButton =
  (name: string): Script =>
  (t) => ({ toolCalls: [{ name: 'click', args: { ref: t.ref('button', name) } }] });

describe('hybrid engine: interpreter jobs hand only their gaps to the model, once', () => {
  const apps: AppProcess[] = [];
  const jobIds: string[] = [];
  let llm: ScriptedLlmServer;
  let site: PetsSite;
  let api: RunnerClient;
  let phase: Script = () => ({ text: 'no model call was expected here' });
  let phaseStart = 0;
  const artifacts = mkdtempSync(join(tmpdir(), 'hybrid-engine-'));

  function expectModel(script: Script): void {
    phaseStart = llm.requests.length;
    phase = script;
  }

  async function runJob(): Promise<Job> {
    const created = await api.request('/v1/jobs', {
      json: {
        query: QUERY,
        initial_url: `${site.url}/pets`,
        model: 'instruction-interpreter',
        highlight_mouse: false,
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
    site = await servePetsSite();
    llm = await serveScriptedLlm((turn) => phase({ ...turn, index: turn.index - phaseStart }));
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-hybrid`,
      API_KEYS: KEY,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
      BROWSER_NETWORK_POLICY: 'allow-private',
      // A target that is not there fails after this long, then the model is asked.
      ACTION_TIMEOUT_MS: '4000',
      OPENAI_API_KEY: 'sk-test-provider-key',
      OPENAI_BASE_URL: llm.openaiBaseUrl,
    };
    const [apiPort, workerPort] = [await freePort(), await freePort()];
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(apiPort) });
    const worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(workerPort) });
    apps.push(jobsApi, worker);
    await waitForHttp(`http://127.0.0.1:${apiPort}/health`, jobsApi, 150_000);
    await waitForHttp(`http://127.0.0.1:${workerPort}/health`, worker, 150_000);
    api = new RunnerClient(`http://127.0.0.1:${apiPort}`, KEY);
  }, 330_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await llm?.close();
    await site?.close();
    rmSync(artifacts, { recursive: true, force: true });
    if (jobIds.length > 0 && process.env.DATABASE_URL) {
      await withClient(process.env.DATABASE_URL, async (client) => {
        await client.query('DELETE FROM step_resolutions WHERE job_id = ANY($1::uuid[])', [jobIds]);
        await client.query('DELETE FROM jobs WHERE id = ANY($1::uuid[])', [jobIds]);
      });
    }
  }, 300_000);

  it('a first run asks the model for exactly the two steps the interpreter cannot do', async () => {
    expectModel(
      inOrder(
        clickButton('Feed the cat'),
        done('Fed the cat.'),
        clickButton('Stroke the dog'),
        done('Stroked the dog.'),
      ),
    );
    const job = await runJob();
    expect(job.status).toBe('succeeded');
    expect(llm.requests.length - phaseStart).toBe(4);
    expect(job.steps.map((s) => [s.index, s.action, s.status, s.resolved_by])).toEqual([
      [1, 'click', 'passed', 'model'],
      [2, 'assertText', 'passed', 'interpreted'],
      [3, 'click', 'passed', 'model'],
      [4, 'assertText', 'passed', 'interpreted'],
    ]);
    expect(job.summary).toMatch(/Steps: 2 interpreted, 2 resolved by the model\.$/);
    expect(await logOf(job.id)).toMatch(/step 1 click passed \d+ ms \(resolved by the model\)/);
  }, 300_000);

  it('the same test again passes with zero model requests', async () => {
    expectModel(() => ({ text: 'the second run must not ask the model' }));
    const job = await runJob();
    expect(job.status).toBe('succeeded');
    expect(llm.requests.length - phaseStart).toBe(0);
    expect(job.steps.map((s) => s.resolved_by)).toEqual([
      'replayed',
      'interpreted',
      'replayed',
      'interpreted',
    ]);
    expect(job.summary).toMatch(/Steps: 2 interpreted, 2 replayed without the model\.$/);
  }, 300_000);

  it('a changed page makes the model re-resolve the broken step once, and the next run is offline again', async () => {
    site.look.cat = 'Treat the cat';
    expectModel(inOrder(clickButton('Treat the cat'), done('Treated the cat.')));
    const healed = await runJob();
    expect(healed.status).toBe('succeeded');
    expect(llm.requests.length - phaseStart).toBe(2);
    expect(healed.steps.map((s) => s.resolved_by)).toEqual([
      'healed',
      'interpreted',
      'replayed',
      'interpreted',
    ]);
    expect(await logOf(healed.id)).toMatch(
      /self-healing: stored action 1 of 1 of step 1 \(click the "Feed the cat" button\) no longer finds its target/,
    );

    expectModel(() => ({ text: 'the healed resolution must replay without the model' }));
    const again = await runJob();
    expect(again.status).toBe('succeeded');
    expect(llm.requests.length - phaseStart).toBe(0);
  }, 300_000);
});
