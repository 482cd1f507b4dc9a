import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RunnerClient } from '../support/runner-client.js';
import { FaultStack, type JobView } from './support/fault-stack.js';

// A browser worker killed with SIGKILL in the middle of a job. What the code promises
// (browser-job.consumer.ts): BullMQ notices the lost lock within STALLED_INTERVAL_MS and hands the
// job out once more; a job whose worker dies a second time ends `failed` with the reason. Never a
// job left `running`. The reaper (the JOB_TIMEOUT_MS path) is off here, so every takeover below can
// only be BullMQ's stall detection; no wall-clock bound is asserted (a busy machine is slow).

const STALLED_MS = 8_000;

describe('fault: a worker killed mid-job', () => {
  const stack = new FaultStack('worker-kill', {
    env: { STALLED_INTERVAL_MS: String(STALLED_MS), REAPER_INTERVAL_MS: '0' },
  });
  let api: RunnerClient;

  /** `firstVisitOnly`: the page is slow for the first run only, so a rerun finishes quickly. */
  const submitSlow = async (ms: number, firstVisitOnly = false): Promise<string> => {
    const once = firstVisitOnly ? `&once=${Math.random().toString(36).slice(2)}` : '';
    const res = await api.post('/v1/jobs', {
      query: 'The page contains "Loaded"',
      initial_url: `${stack.siteUrl}slow?ms=${ms}${once}`,
    });
    expect(res.status).toBe(202);
    return (res.json as JobView).id;
  };

  const waitUntilRunning = async (ids: string[], workerId: string): Promise<void> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const rows = await stack.query(
        `SELECT id FROM jobs WHERE id = ANY($1::uuid[]) AND status = 'running' AND worker_id = $2`,
        [ids, workerId],
      );
      if (rows.length === ids.length) return;
      if (Date.now() > deadline) throw new Error(`jobs never all ran on ${workerId}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    await stack.start();
    api = (await stack.startJobsApi()).client;
  });

  afterAll(() => stack.stop());

  it('hands the killed worker’s jobs to another worker, which finishes them', async () => {
    const doomed = await stack.startWorker({ WORKER_ID: 'doomed', WORKER_CONCURRENCY: '2' });
    const ids = [await submitSlow(60_000, true), await submitSlow(60_000, true)];
    await waitUntilRunning(ids, 'doomed');
    const queuedBehind = await submitSlow(0);
    // The survivor is up before the kill, so the takeover time is BullMQ's, not a boot's.
    await stack.startWorker({ WORKER_ID: 'survivor', WORKER_CONCURRENCY: '2' });

    await doomed.stop('SIGKILL');
    const killedAt = Date.now();

    const final = await stack.waitForFinal([...ids, queuedBehind], 120_000);
    const outcomes = [...ids, queuedBehind].map((id) => final.get(id));
    expect(outcomes.filter((job) => job?.status !== 'succeeded')).toEqual([]);
    const rows = await stack.query<{ worker_id: string; attempts: number; started_at: Date }>(
      'SELECT worker_id, attempts, started_at FROM jobs WHERE id = ANY($1::uuid[])',
      [ids],
    );
    expect(rows.map((row) => row.worker_id)).toEqual(['survivor', 'survivor']);
    expect(rows.map((row) => row.attempts)).toEqual([2, 2]);
    // Started again after the kill, by the survivor (the reaper is off: stall detection did it).
    for (const row of rows) expect(row.started_at.getTime()).toBeGreaterThan(killedAt);
  });

  it('fails a job whose worker dies twice, with the reason, and leaves nothing running', async () => {
    const first = await stack.startWorker({ WORKER_ID: 'first-victim' });
    // Only the victims may take this job: stop every worker from the previous test.
    for (const app of stack.apps.slice(1)) if (app !== first) await app.stop('SIGKILL');
    const id = await submitSlow(30_000);
    await waitUntilRunning([id], 'first-victim');
    await first.stop('SIGKILL');

    const second = await stack.startWorker({ WORKER_ID: 'second-victim' });
    await waitUntilRunning([id], 'second-victim');
    await second.stop('SIGKILL');

    await stack.startWorker({ WORKER_ID: 'witness' });
    const final = await stack.waitForFinal([id], 60_000);
    expect(final.get(id)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/worker running it stopped/),
    });
    const running = await stack.query(`SELECT id FROM jobs WHERE status = 'running'`);
    expect(running).toEqual([]);
  });
});
