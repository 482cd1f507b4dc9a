import { describe, expect, it } from '@jest/globals';
import { jobStatusesOf, needsInput, toTask } from './a2a-task.mapper.js';
import { INSTRUCTIONS_NOT_UNDERSTOOD } from './job-state.js';
import { InMemoryJobRepository } from './testing/index.js';

describe('a2a-task.mapper', () => {
  it('shows a job waiting for input as INPUT_REQUIRED, with the failed run’s verdict and artifacts', () => {
    const waiting = new InMemoryJobRepository().seed({
      status: 'needs_input',
      error: INSTRUCTIONS_NOT_UNDERSTOOD,
      summary: 'I could not understand step 1.',
      finishedAt: new Date('2026-01-01T00:00:05Z'),
    });
    expect(needsInput(waiting)).toBe(true);
    const task = toTask(waiting, { publicUrl: 'http://runner' });
    expect(task.status).toMatchObject({
      state: 'TASK_STATE_INPUT_REQUIRED',
      message: { parts: [{ text: 'I could not understand step 1.' }] },
      timestamp: '2026-01-01T00:00:05.000Z',
    });
    expect(task.artifacts?.map((artifact) => artifact.artifactId)).toEqual(['summary', 'steps', 'log']);
  });

  it("lists a failed task's screenshot as an image/png artifact, and none when the job has none", () => {
    const jobs = new InMemoryJobRepository();
    const finishedAt = new Date('2026-01-01T00:00:05Z');
    const failed = jobs.seed({
      status: 'failed',
      finishedAt,
      screenshotPath: 'jobs/x/failure-screenshot.png',
    });
    const artifact = toTask(failed, { publicUrl: 'http://runner' }).artifacts?.find(
      (a) => a.artifactId === 'screenshot',
    );
    expect(artifact?.parts).toEqual([
      {
        url: `http://runner/v1/jobs/${failed.id}/screenshot`,
        mediaType: 'image/png',
        filename: 'failure-screenshot.png',
      },
    ]);
    const plain = jobs.seed({ status: 'failed', finishedAt });
    expect(toTask(plain, { publicUrl: 'http://runner' }).artifacts?.map((a) => a.artifactId)).not.toContain(
      'screenshot',
    );
  });

  it('filters FAILED and INPUT_REQUIRED apart, and knows no jobs in states the runner never uses', () => {
    expect(jobStatusesOf('TASK_STATE_FAILED')).toEqual(['failed']);
    expect(jobStatusesOf('TASK_STATE_INPUT_REQUIRED')).toEqual(['needs_input']);
    expect(jobStatusesOf('TASK_STATE_AUTH_REQUIRED')).toBeNull();
  });
});
