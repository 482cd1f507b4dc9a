import { describe, expect, it } from '@jest/globals';
import type { MainDb } from '@suite/db';
import {
  A2aTaskViews,
  type A2aConversationRepository,
  type JobEvent,
  type JobEventsHub,
  type JobRepository,
  type StreamResponse,
} from '@suite/jobs';
import type { PushConfig, PushConfigRepository } from '@suite/push-delivery';
import { InMemoryJobRepository } from '../../../libs/jobs/src/testing/index.js';
import type { PushNotificationQueue } from './push-notification.queue.js';
import { FollowInterruptedError, TaskFollower } from './task-follower.js';

/** A task with two configs, its status events fired by hand, and what the follower queued. */
function harness(fields: Partial<MainDb.Job> = {}) {
  let job = new InMemoryJobRepository().seed({ owner: 'ada', ...fields });
  const configs = ['a', 'b'].map((id) => ({ id, jobId: job.id, owner: 'ada' }) as PushConfig);
  const listeners = new Set<(event: JobEvent) => void>();
  const queued: { configId: string; status: string; event: StreamResponse }[] = [];
  const follower = new TaskFollower(
    { find: async () => job } as unknown as JobRepository,
    {
      ofTask: async () => configs,
      find: async (_jobId: string, id: string) => configs.find((c) => c.id === id) ?? null,
    } as unknown as PushConfigRepository,
    new A2aTaskViews({ history: async () => [] } as unknown as A2aConversationRepository, 'http://runner'),
    {
      subscribe: async (_jobId: string, listener: (event: JobEvent) => void) => {
        listeners.add(listener);
        return async () => void listeners.delete(listener);
      },
    } as unknown as JobEventsHub,
    {
      add: async (_owner: string, _jobId: string, configId: string, status: string, event: StreamResponse) =>
        void queued.push({ configId, status, event }),
    } as unknown as PushNotificationQueue,
  );
  const change = (status: string, more: Partial<MainDb.Job> = {}) => {
    job = { ...job, status, ...more } as MainDb.Job;
    for (const listener of [...listeners]) listener({ type: 'status', status } as JobEvent);
  };
  const until = async (ready: () => boolean) => {
    while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { job, follower, queued, listeners, change, until };
}

const kinds = (queued: { configId: string; event: StreamResponse }[]) =>
  queued.map(({ configId, event }) => `${configId}:${Object.keys(event)[0]}`);

describe('TaskFollower (the push worker follows tasks, not the gateway)', () => {
  it('queues every change of a task for each config, in order, and ends when it settles', async () => {
    const { follower, job, queued, listeners, change, until } = harness({ status: 'queued' });
    const following = follower.follow({ jobId: job.id });
    await until(() => listeners.size === 1);
    change('running', { startedAt: new Date() });
    change('succeeded', { finishedAt: new Date() });
    await following;
    expect(kinds(queued)).toEqual(['a:statusUpdate', 'b:statusUpdate', 'a:task', 'b:task']);
    expect(queued[0]!.event).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_WORKING' } } });
    expect(queued[2]!.event).toMatchObject({
      task: { id: job.id, status: { state: 'TASK_STATE_COMPLETED' } },
    });
    expect(listeners.size).toBe(0);
  });

  it('tells of a task that worked and ended before it was followed (a follow started again)', async () => {
    const { follower, job, queued, listeners } = harness({
      status: 'failed',
      startedAt: new Date(),
      finishedAt: new Date(),
    });
    await follower.follow({ jobId: job.id });
    expect(kinds(queued)).toEqual(['a:statusUpdate', 'b:statusUpdate', 'a:task', 'b:task']);
    expect(queued.map((q) => q.status)).toEqual(['running', 'running', 'failed', 'failed']);
    expect(listeners.size).toBe(0);
  });

  it('tells only the new config where a settled task ended', async () => {
    const { follower, job, queued } = harness({ status: 'succeeded', finishedAt: new Date() });
    await follower.follow({ jobId: job.id, configId: 'b' });
    expect(kinds(queued)).toEqual(['b:task']);
  });

  it('hands a follow back (it fails, to be tried again) when the worker stops', async () => {
    const { follower, job, listeners, until } = harness({ status: 'running', startedAt: new Date() });
    const following = follower.follow({ jobId: job.id });
    await until(() => listeners.size === 1);
    follower.interrupt();
    await expect(following).rejects.toBeInstanceOf(FollowInterruptedError);
    expect(listeners.size).toBe(0);
  });
});
