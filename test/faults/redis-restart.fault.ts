import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AppProcess } from '../support/app-process.js';
import type { RunnerClient } from '../support/runner-client.js';
import { FaultStack, sleep, type JobView } from './support/fault-stack.js';
import {
  expectRestUnavailable,
  expectRpcUnavailable,
  expectToolUnavailable,
  GatewayClient,
  until,
} from './support/gateway-client.js';

// Redis dies (SIGKILL, no persistence: every queue entry is gone) and comes back while clients
// keep submitting. Postgres is the truth: every job the API accepted (202) must still be run,
// including the ones that were waiting in the lost queue. The worker's JobReaper re-enqueues
// `queued` jobs older than a minute that Redis no longer knows (job-reaper.ts, requeueLost).

describe('fault: Redis restarted under load', () => {
  const stack = new FaultStack('redis-restart', {
    redisPersistent: false,
    env: { REAPER_INTERVAL_MS: '5000', WORKER_CONCURRENCY: '1' },
  });
  let api: RunnerClient;
  let worker: AppProcess;
  let gateway: GatewayClient;

  beforeAll(async () => {
    await stack.start();
    api = (await stack.startJobsApi()).client;
    worker = await stack.startWorker();
    const started = await stack.startHttpApp('agent-gateway', (port) => ({
      PUBLIC_RUNNER_URL: `http://127.0.0.1:${port}`,
    }));
    gateway = new GatewayClient(started.url, stack.siteUrl);
  });

  afterAll(() => stack.stop());

  it('runs every accepted job, re-enqueuing the ones Redis lost', async () => {
    const accepted: string[] = [];
    const refused: { status: number; json: unknown }[] = [];
    let submitting = true;
    const submit = async (ms: number): Promise<void> => {
      const res = await api
        .post('/v1/jobs', {
          query: 'The page contains "Loaded"',
          initial_url: `${stack.siteUrl}slow?ms=${ms}`,
        })
        .catch((error: Error) => ({ status: 0, json: { transport: error.message } }));
      if (res.status === 202) accepted.push((res.json as JobView).id);
      else refused.push({ status: res.status, json: res.json });
    };
    // A steady trickle of submissions for the whole run, Redis outage included.
    const load = (async () => {
      while (submitting) {
        await submit(200);
        await sleep(300);
      }
    })();

    // A backlog that is still waiting in Redis when it dies (one worker, one job at a time).
    await Promise.all(Array.from({ length: 6 }, () => submit(1_500)));
    await sleep(1_000);
    await stack.redis.stop();
    // The agent gateway refuses new tasks on each transport in its own error shape (no 500, no hang).
    expectRpcUnavailable(await gateway.rpc('SendMessage', gateway.message()));
    expectRestUnavailable(await gateway.rest('POST', '/message:send', gateway.message()));
    expectToolUnavailable(
      await gateway.tool('run_browser_test', { query: 'Open /', initial_url: stack.siteUrl }),
    );
    await sleep(2_000);
    await stack.redis.start();
    await sleep(3_000);
    submitting = false;
    await load;

    // ...and takes them again once Redis is back; they are run like the API's.
    const taskId = (answer: { status: number; body: Record<string, unknown> }): string | undefined =>
      answer.status === 200
        ? (answer.body.result as { task?: { id: string } } | undefined)?.task?.id
        : undefined;
    let viaRpc: string | undefined;
    await until(
      async () => (viaRpc = taskId(await gateway.rpc('SendMessage', gateway.message()))) !== undefined,
    );
    accepted.push(viaRpc!);
    const viaRest = await gateway.rest('POST', '/message:send', gateway.message());
    expect(viaRest).toMatchObject({ status: 200, body: { task: { id: expect.any(String) } } });
    accepted.push((viaRest.body.task as { id: string }).id);
    const viaTool = await gateway.tool('run_browser_test', { query: 'Open /', initial_url: stack.siteUrl });
    expect(viaTool.isError).toBeFalsy();
    accepted.push((viaTool.structuredContent as { job: { id: string } }).job.id);

    expect(accepted.length).toBeGreaterThanOrEqual(8);
    // While Redis was down the API refused new jobs in its error contract (no 500, no hang).
    for (const res of refused) {
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ code: 'service_unavailable', detail: expect.any(String) });
    }
    // A refused job left no row behind: Postgres holds exactly the accepted ones.
    const rows = await stack.query<{ id: string }>('SELECT id FROM jobs');
    expect(rows.map((row) => row.id).sort()).toEqual([...accepted].sort());

    // The lost ones wait for the reaper's one-minute threshold, then run.
    const final = await stack.waitForFinal(accepted, 150_000);
    const notSucceeded = [...final.values()].filter((job) => job.status !== 'succeeded');
    expect(notSucceeded).toEqual([]);
    expect(worker.output()).toMatch(/re-enqueued a queued job that Redis had lost/);
  });
});
