import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { LocalArtifactStore, type JobEventsPublisher } from '@suite/jobs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryJobRepository } from '../../../../libs/jobs/src/testing/index.js';
import type { AgentRunContext, AgentRunResult } from '../agent/agent-runner.js';
import { JobRunService } from './job-run.service.js';

const artifacts = mkdtempSync(join(tmpdir(), 'job-run-video-'));

/** A run service whose agent hands back a video the encoder is still finishing. */
function setUp(agent: (context: AgentRunContext) => Promise<AgentRunResult>) {
  const jobs = new InMemoryJobRepository();
  const events = { publish: () => Promise.resolve() } as unknown as JobEventsPublisher;
  const service = new JobRunService(
    { JOB_TIMEOUT_MS: 60_000 },
    jobs,
    events,
    new LocalArtifactStore(artifacts),
    { run: agent },
  );
  return { jobs, service };
}

describe('JobRunService and a video still being finished', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => rmSync(artifacts, { recursive: true, force: true }));

  it('links the video once the encoder has finished it, in the same update that ends the job', async () => {
    let finishFile!: (ok: boolean) => void;
    const finishing = new Promise<boolean>((resolve) => (finishFile = resolve));
    let agentDone!: () => void;
    const agentReturned = new Promise<void>((resolve) => (agentDone = resolve));
    const { jobs, service } = setUp(() => {
      agentDone();
      return Promise.resolve({ verdict: 'succeeded', summary: 'ok', steps: [], videoWritten: finishing });
    });
    const job = jobs.seed();
    const run = service.run({ jobId: job.id, workerId: 'w', attempt: 1, attempts: 1 });
    await agentReturned;
    // Until the file is complete the job is not finished, so nobody sees a link to an unfinished file.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(jobs.jobs.get(job.id)).toMatchObject({ status: 'running', videoPath: null });
    finishFile(true);
    expect(await run).toBe('succeeded');
    expect(jobs.jobs.get(job.id)).toMatchObject({
      status: 'succeeded',
      videoPath: expect.stringMatching(/video\.mp4$/),
    });
  });

  it('ends the job without a video when the encoder could not finish it', async () => {
    const { jobs, service } = setUp(() =>
      Promise.resolve({
        verdict: 'failed',
        summary: 'step 1 failed',
        steps: [],
        videoWritten: Promise.resolve(false),
      }),
    );
    const job = jobs.seed();
    expect(await service.run({ jobId: job.id, workerId: 'w', attempt: 1, attempts: 1 })).toBe('failed');
    expect(jobs.jobs.get(job.id)).toMatchObject({ status: 'failed', videoPath: null });
  });
});
