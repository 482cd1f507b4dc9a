import { afterAll, describe, expect, it } from '@jest/globals';
import { RunnerErrorCode } from '@suite/errors';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalArtifactStore } from './artifact-store.js';
import { JobService } from './job.service.js';
import { ModelRegistry } from './model-registry.js';
import { InMemoryJobQueue, InMemoryJobRepository, runnerFailure } from './testing/index.js';

const root = mkdtempSync(join(tmpdir(), 'job-video-'));
const ada = { owner: 'ada', keyId: 'k1' };

/** A service over a real artifact directory, and a job that ended with its video still being finished. */
function setUp(waitMs = 5_000) {
  const jobs = new InMemoryJobRepository();
  const store = new LocalArtifactStore(root);
  const service = new JobService({
    jobs,
    queue: new InMemoryJobQueue(),
    models: new ModelRegistry(),
    store,
    hostedBrowser: false,
    videoCompletionWaitMs: waitMs,
  });
  const job = jobs.seed({ owner: 'ada', status: 'succeeded', finishedAt: new Date() });
  return { jobs, store, service, job };
}

const failure = runnerFailure;

describe('GET a job’s video while the encoder completes it after the job ended', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('waits for the file and answers it whole', async () => {
    const { jobs, store, service, job } = setUp();
    const path = await store.localPath(job.id, 'video');
    jobs.jobs.set(job.id, { ...job, videoPath: path });
    const asked = service.video(ada, job.id, undefined);
    // The file appears (renamed into place, whole) a moment after the request came in.
    setTimeout(() => void writeFile(path, Buffer.alloc(2048, 7)), 300);
    const answer = await asked;
    expect(answer.status).toBe(200);
    expect(answer.headers['content-length']).toBe('2048');
  });

  it('answers 404 "could not be completed" once the worker unlinks a video the encoder failed', async () => {
    const { jobs, store, service, job } = setUp();
    jobs.jobs.set(job.id, { ...job, videoPath: await store.localPath(job.id, 'video') });
    const asked = failure(service.video(ada, job.id, undefined));
    setTimeout(() => void jobs.dropVideo(job.id), 200);
    const error = await asked;
    expect(error.code).toBe(RunnerErrorCode.ArtifactNotFound);
    expect(error.message).toContain('could not be completed');
  });

  it('answers 404 when the file never comes within the wait', async () => {
    const { jobs, store, service, job } = setUp(300);
    jobs.jobs.set(job.id, { ...job, videoPath: await store.localPath(job.id, 'video') });
    const error = await failure(service.video(ada, job.id, undefined));
    expect(error.code).toBe(RunnerErrorCode.ArtifactNotFound);
    expect(error.message).toContain('could not be completed');
  });

  it('does not wait for a video that should have been complete long ago (its worker was lost)', async () => {
    const { jobs, store, service, job } = setUp(60_000);
    jobs.jobs.set(job.id, {
      ...job,
      finishedAt: new Date(Date.now() - 10 * 60_000),
      videoPath: await store.localPath(job.id, 'video'),
    });
    const error = await failure(service.video(ada, job.id, undefined));
    expect(error.message).toContain('could not be completed');
  });

  it('does not wait for a job that is still running', async () => {
    const { jobs, store, service, job } = setUp(60_000);
    jobs.jobs.set(job.id, { ...job, status: 'running', videoPath: await store.localPath(job.id, 'video') });
    const error = await failure(service.video(ada, job.id, undefined));
    expect(error.message).toContain('the job is running');
  });
});
