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

/** A passing run whose video the encoder is still finishing; `finishFile` settles it. */
function finishingRun() {
  let finishFile!: (ok: boolean) => void;
  const finishing = new Promise<boolean>((resolve) => (finishFile = resolve));
  const { jobs, service } = setUp(() =>
    Promise.resolve({ outcome: { kind: 'passed', summary: 'ok' }, steps: [], videoWritten: finishing }),
  );
  return { jobs, service, job: jobs.seed(), finishFile };
}

describe('JobRunService and a video the encoder completes after the job ended', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => rmSync(artifacts, { recursive: true, force: true }));

  it('ends the job as soon as the capture has ended, the video linked while the encoder completes it', async () => {
    const { jobs, service, job, finishFile } = finishingRun();
    // The run returns with the file still unfinished: the job's final status does not wait for it.
    expect(await service.run({ jobId: job.id, workerId: 'w', attempt: 1, attempts: 1 })).toBe('succeeded');
    expect(jobs.jobs.get(job.id)).toMatchObject({
      status: 'succeeded',
      videoPath: expect.stringMatching(/video\.mp4$/),
    });
    let settled = false;
    const settling = service.videosSettled().then(() => (settled = true));
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    // A worker that stops waits for the file first.
    expect(settled).toBe(false);
    finishFile(true);
    await settling;
    expect(jobs.jobs.get(job.id)?.videoPath).toMatch(/video\.mp4$/);
  });

  it('removes the link when the encoder fails after the job ended', async () => {
    const { jobs, service, job, finishFile } = finishingRun();
    expect(await service.run({ jobId: job.id, workerId: 'w', attempt: 1, attempts: 1 })).toBe('succeeded');
    expect(jobs.jobs.get(job.id)?.videoPath).toMatch(/video\.mp4$/);
    finishFile(false);
    await service.videosSettled();
    expect(jobs.jobs.get(job.id)).toMatchObject({ status: 'succeeded', videoPath: null });
  });

  it('ends the job without a video link when nothing was captured', async () => {
    const { jobs, service } = setUp(() =>
      Promise.resolve({
        outcome: { kind: 'failed', summary: 'step 1 failed' },
        steps: [],
        videoWritten: false,
      }),
    );
    const job = jobs.seed();
    expect(await service.run({ jobId: job.id, workerId: 'w', attempt: 1, attempts: 1 })).toBe('failed');
    expect(jobs.jobs.get(job.id)).toMatchObject({ status: 'failed', videoPath: null });
  });
});
