import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ProjectRuntimeConfig } from '../runtime.config.js';
import { ProjectJobsQueue } from './project-jobs.queue.js';

// The count of a project's pending jobs, in the test run's Redis.

describe('ProjectJobsQueue pending jobs', () => {
  const jobs = new ProjectJobsQueue({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    PROJECT_JOBS_MAX_PENDING: 3,
  } as ProjectRuntimeConfig);

  afterAll(() => jobs.onApplicationShutdown());

  it('holds a project to its cap until a job ends, each project on its own', async () => {
    const project = randomUUID();
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push(await jobs.reserve(project, `job-${i}`, 60_000));
    expect(taken).toEqual([true, true, true, false]);
    expect(await jobs.reserve(randomUUID(), 'job-0', 0)).toBe(true);
    await jobs.release(project, 'job-1');
    expect(await jobs.reserve(project, 'job-4', 0)).toBe(true);
    expect(await jobs.reserve(project, 'job-5', 0)).toBe(false);
  });
});
