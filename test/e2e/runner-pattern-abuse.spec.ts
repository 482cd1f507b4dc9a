import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';

// Patterns from tests run in the worker's process: a catastrophic one ("(a+)+$" against a long
// title) must neither freeze the worker (its health port, its neighbour jobs, its queue lock) nor
// give a wrong answer. Beside it, the bounds on how much instruction text jobs-api reads.

interface Job {
  id: string;
  status: string;
  summary: string | null;
  steps: { index: number; status: string; error: string | null }[];
}

const KEY = 'runner-pattern-key';
const POISON_TITLE = `${'a'.repeat(32)}!`;
const pages: Record<string, string> = {
  '/poison': `<!doctype html><title>${POISON_TITLE}</title><p>Poison</p>`,
  '/neighbour': `<!doctype html><title>Neighbour</title><p>Neighbour page</p>`,
};

describe('patterns from tests cannot hold the worker', () => {
  const apps: AppProcess[] = [];
  let site: Server;
  let siteUrl = '';
  let api: RunnerClient;
  let artifacts = '';
  let healthUrl = '';

  const submit = async (query: string): Promise<Job> => {
    const res = await api.request('/v1/jobs', { json: { query, initial_url: siteUrl } });
    expect(res.status).toBe(202);
    return res.json as Job;
  };

  const status = async (id: string): Promise<Job> => (await api.request(`/v1/jobs/${id}`)).json as Job;
  const ended = (job: Job) => ['succeeded', 'failed', 'cancelled'].includes(job.status);

  beforeAll(async () => {
    site = createServer((req, res) => {
      const body = pages[(req.url ?? '/').split('?')[0]!];
      if (!body) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;

    artifacts = mkdtempSync(join(tmpdir(), 'runner-pattern-'));
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-runner-pattern`,
      API_KEYS: KEY,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
      WORKER_CONCURRENCY: '2',
    };
    const port = await freePort();
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(port) });
    apps.push(jobsApi);
    const healthPort = await freePort();
    healthUrl = `http://127.0.0.1:${healthPort}/health`;
    const worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(healthPort) });
    apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, jobsApi);
    await waitForHttp(healthUrl, worker);
    api = new RunnerClient(`http://127.0.0.1:${port}`, KEY);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await new Promise((resolve) => site.close(resolve));
    rmSync(artifacts, { recursive: true, force: true });
  });

  it('a catastrophic pattern gets the right answer while health and a neighbour job go on', async () => {
    // RE2 answers at once (32 a's and "!" do not match), so the negated check holds and the job passes.
    const poisoned = await submit('Open /poison. The title does not match "/^(a+)+$/"');
    const neighbour = await submit('Open /neighbour. The page contains "Neighbour page"');

    // Health is asked one request after the other until both jobs end: with the pattern run by a
    // backtracking engine the worker's event loop is stuck, and no answer comes.
    let healthy = 0;
    let poisonedJob: Job;
    let neighbourJob: Job;
    const deadline = Date.now() + 60_000;
    do {
      const health = await fetch(healthUrl, { signal: AbortSignal.timeout(20_000) });
      expect(health.status).toBe(200);
      healthy += 1;
      poisonedJob = await status(poisoned.id);
      neighbourJob = await status(neighbour.id);
      if (Date.now() > deadline) throw new Error(`jobs still ${poisonedJob.status}, ${neighbourJob.status}`);
      await new Promise((r) => setTimeout(r, 100));
    } while (!ended(poisonedJob) || !ended(neighbourJob));

    expect(healthy).toBeGreaterThan(0);
    expect(neighbourJob.status).toBe('succeeded');
    expect(poisonedJob.status).toBe('succeeded');
    expect(poisonedJob.steps.map((s) => s.status)).toEqual(['passed', 'passed']);
  }, 300_000);

  it('a pattern RE2 cannot run fails its step at once, saying what is not supported', async () => {
    const job = await submit('Open /neighbour. The title matches "/Neigh(?=bour)/"');
    const deadline = Date.now() + 45_000;
    let seen = await status(job.id);
    while (!ended(seen)) {
      if (Date.now() > deadline) throw new Error(`job ${job.id} still ${seen.status}`);
      await new Promise((r) => setTimeout(r, 200));
      seen = await status(job.id);
    }
    expect(seen.status).toBe('failed');
    expect(seen.steps.find((s) => s.status === 'failed')?.error).toMatch(/lookahead .*not supported.*RE2/i);
  }, 300_000);

  it('jobs-api refuses instructions over the interpreter limits with a 422 naming the limit', async () => {
    const tooMany = Array.from({ length: 201 }, (_, i) => `Click "Item ${i}"`).join('\n');
    for (const path of ['/v1/instructions/check', '/v1/jobs']) {
      const res = await api.request(path, { json: { query: tooMany, initial_url: siteUrl } });
      expect(res.status).toBe(422);
      expect(res.json).toMatchObject({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'query'],
            msg: 'Value error, the instructions have more than 200 steps (the limit is 200); split the test into smaller tests',
          },
        ],
      });
    }
    // Long adversarial lines are read to the end: 19,000 spaces inside a step, 9,000 unclosed quotes.
    const spaces = await api.request('/v1/instructions/check', {
      json: { query: `Click${' '.repeat(19_000)}"Save"`, initial_url: siteUrl },
    });
    expect(spaces.status).toBe(200);
    expect(spaces.json).toMatchObject({ readable: true, steps: [{ action: 'click' }] });
    const quotes = await api.request('/v1/instructions/check', {
      json: { query: `Click ${'“a'.repeat(9_000)}`, initial_url: siteUrl },
    });
    expect(quotes.status).toBe(422);
    expect(JSON.stringify(quotes.json)).toContain('step 1 is 18,006 characters long');
  });
});
