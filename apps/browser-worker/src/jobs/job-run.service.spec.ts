import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import {
  INSTRUCTIONS_NOT_UNDERSTOOD,
  LocalArtifactStore,
  type JobEvent,
  type JobEventsPublisher,
} from '@suite/jobs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryJobRepository } from '../../../../libs/jobs/src/testing/index.js';
import {
  InfrastructureError,
  type AgentRunContext,
  type AgentRunner,
  type AgentRunResult,
} from '../agent/agent-runner.js';
import { JobRunService } from './job-run.service.js';

const artifacts = mkdtempSync(join(tmpdir(), 'job-run-'));

/** A run service over in-memory jobs, a real local artifact store and an agent that does `agent`. */
function setUp(agent: (context: AgentRunContext) => Promise<AgentRunResult>) {
  const jobs = new InMemoryJobRepository();
  const lines: JobEvent[] = [];
  const events = {
    publish: (event: JobEvent) => {
      lines.push(event);
      return Promise.resolve();
    },
  } as unknown as JobEventsPublisher;
  const runner: AgentRunner = { run: agent };
  const service = new JobRunService(
    { JOB_TIMEOUT_MS: 60_000 },
    jobs,
    events,
    new LocalArtifactStore(artifacts),
    runner,
  );
  const statuses = () =>
    jobs.events.filter((e) => e.type === 'status').map((e) => e.type === 'status' && e.status);
  return { jobs, lines, service, statuses };
}

const result = (fields: Partial<AgentRunResult> = {}): AgentRunResult => ({
  outcome: { kind: 'passed', summary: 'All 1 steps passed.' },
  steps: [],
  videoWritten: false,
  ...fields,
});

describe('JobRunService', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => rmSync(artifacts, { recursive: true, force: true }));

  it('claims the job, records each step as the agent logs it, and finishes it with the verdict', async () => {
    const { jobs, service, statuses } = setUp(async ({ log }) => {
      await log({ outcome: 'started', step: 1, action: 'navigate', message: 'Open /' });
      await log({ outcome: 'passed', step: 1, action: 'navigate', message: 'opened /', durationMs: 5 });
      return result();
    });
    const job = jobs.seed();
    expect(await service.run({ jobId: job.id, workerId: 'w', attempt: 1, attempts: 2 })).toBe('succeeded');
    expect(statuses()).toEqual(['running', 'succeeded']);
    expect(jobs.steps.get(job.id)?.map((step) => [step.index, step.status, step.text])).toEqual([
      [1, 'started', 'Open /'],
      [1, 'passed', 'Open /'],
    ]);
    expect(jobs.jobs.get(job.id)).toMatchObject({
      status: 'succeeded',
      logPath: expect.any(String),
      videoPath: null,
    });
  });

  it("stores the failed step's screenshot with the job's artifacts and records it on the job", async () => {
    const png = Buffer.from('\x89PNG\r\n\x1a\n a picture', 'latin1');
    const { jobs, service } = setUp(() =>
      Promise.resolve(result({ outcome: { kind: 'failed', summary: 'Step 2 failed.' }, screenshot: png })),
    );
    const job = jobs.seed();
    expect(await service.run({ jobId: job.id, workerId: 'w', attempt: 1, attempts: 1 })).toBe('failed');
    const stored = jobs.jobs.get(job.id);
    expect(stored).toMatchObject({ status: 'failed', screenshotPath: expect.any(String) });
    const store = new LocalArtifactStore(artifacts);
    expect(stored?.screenshotPath).toBe(await store.localPath(job.id, 'screenshot'));
    expect(readFileSync(stored!.screenshotPath!).equals(png)).toBe(true);
    expect(await store.size(job.id, 'screenshot')).toBe(png.length);
    // Deleted with the job's other artifacts.
    await store.remove(job.id);
    expect(await store.size(job.id, 'screenshot')).toBeUndefined();
  });

  it('records no screenshot when the agent took none', async () => {
    const { jobs, service } = setUp(() =>
      Promise.resolve(result({ outcome: { kind: 'failed', summary: 'failed' } })),
    );
    const job = jobs.seed();
    await service.run({ jobId: job.id, workerId: 'w', attempt: 1, attempts: 1 });
    expect(jobs.jobs.get(job.id)).toMatchObject({ status: 'failed', screenshotPath: null });
  });

  it('leaves a job whose instructions were not understood waiting for input', async () => {
    const { jobs, service } = setUp(() =>
      Promise.resolve(
        result({
          outcome: {
            kind: 'needs_input',
            summary: 'not understood',
            question: 'Could you rephrase step 1 ("frobnicate")?',
            notUnderstood: [{ index: 1, text: 'frobnicate' }],
          },
        }),
      ),
    );
    const job = jobs.seed();
    expect(await service.run({ jobId: job.id, workerId: 'w', attempt: 1, attempts: 1 })).toBe('failed');
    expect(jobs.jobs.get(job.id)).toMatchObject({
      status: 'needs_input',
      error: INSTRUCTIONS_NOT_UNDERSTOOD,
    });
  });

  it('throws an infrastructure error back while attempts remain, and fails the job on the last one', async () => {
    const { jobs, service } = setUp(() => Promise.reject(new InfrastructureError('the browser crashed')));
    const job = jobs.seed();
    await expect(service.run({ jobId: job.id, workerId: 'w', attempt: 1, attempts: 2 })).rejects.toThrow(
      'the browser crashed',
    );
    expect(jobs.jobs.get(job.id)?.status).toBe('running');
    expect(await service.run({ jobId: job.id, workerId: 'w', attempt: 2, attempts: 2 })).toBe('failed');
    expect(jobs.jobs.get(job.id)).toMatchObject({
      status: 'failed',
      summary: 'The job could not run: the browser crashed',
      attempts: 2,
    });
  });

  it('skips a cancelled or settled job without running the agent', async () => {
    let ran = 0;
    const { jobs, service } = setUp(() => {
      ran++;
      return Promise.resolve(result());
    });
    const cancelled = jobs.seed({ status: 'cancelled' });
    const waiting = jobs.seed({ status: 'needs_input' });
    expect(await service.run({ jobId: cancelled.id, workerId: 'w', attempt: 1, attempts: 1 })).toBe(
      'cancelled',
    );
    expect(await service.run({ jobId: waiting.id, workerId: 'w', attempt: 1, attempts: 1 })).toBe(
      'already-finished',
    );
    expect(ran).toBe(0);
  });

  it('fails a job it gives up on once, and says so only the first time', async () => {
    const { jobs, service } = setUp(() => Promise.resolve(result()));
    const job = jobs.seed({ status: 'running' });
    expect(await service.giveUp(job.id, 'the worker running it stopped')).toBe(true);
    expect(await service.giveUp(job.id, 'the worker running it stopped')).toBe(false);
    expect(jobs.jobs.get(job.id)).toMatchObject({ status: 'failed', error: 'the worker running it stopped' });
  });
});
