import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRedisConnection } from '@suite/queue';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { JobEventsHub } from './job-events-hub.js';
import { jobChannel, JobEventsPublisher, type JobEvent, type JobLogEvent } from './job-events.js';

// Real Redis: watchers of one job share one subscription on the hub's one connection.
describe('JobEventsHub', () => {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  let subscriber: Redis;
  let publisherConnection: Redis;
  let hub: JobEventsHub;
  let publisher: JobEventsPublisher;

  const log = (jobId: string, line: string): JobLogEvent => ({ type: 'log', jobId, line, at: 'now' });
  /** Publishes, then waits until Redis delivered to this connection's listeners. */
  const deliver = async (event: JobEvent) => {
    await publisher.publish(event);
    await subscriber.ping();
  };

  /** Resolves once Redis counts a subscriber of the job's channel. */
  const subscribed = async (jobId: string) => {
    for (;;) {
      const [, count] = (await publisherConnection.pubsub('NUMSUB', jobChannel(jobId))) as [string, number];
      if (Number(count) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  beforeAll(() => {
    subscriber = createRedisConnection(redisUrl);
    publisherConnection = createRedisConnection(redisUrl);
    hub = new JobEventsHub(subscriber);
    publisher = new JobEventsPublisher(publisherConnection);
  });

  afterAll(() => {
    subscriber.disconnect();
    publisherConnection.disconnect();
  });

  it('delivers a job’s events to each of its watchers, and keeps the channel while one is left', async () => {
    const jobId = randomUUID();
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = await hub.subscribe(jobId, (e) => e.type === 'log' && first.push(e.line));
    const stopSecond = await hub.subscribe(jobId, (e) => e.type === 'log' && second.push(e.line));
    await deliver(log(jobId, 'one'));
    await stopFirst();
    await deliver(log(jobId, 'two'));
    await deliver(log(randomUUID(), 'another job'));
    expect(first).toEqual(['one']);
    expect(second).toEqual(['one', 'two']);
    await stopSecond();
    await deliver(log(jobId, 'three'));
    expect(second).toEqual(['one', 'two']);
  });

  it('subscribes again after the last watcher left, even while that unsubscribe is under way', async () => {
    const jobId = randomUUID();
    const seen: string[] = [];
    const stop = await hub.subscribe(jobId, () => undefined);
    const leaving = stop();
    const again = await hub.subscribe(jobId, (e) => e.type === 'log' && seen.push(e.line));
    await leaving;
    await deliver(log(jobId, 'after'));
    expect(seen).toEqual(['after']);
    await again();
  });

  it('waits until the job settles, as published, and not after a timeout that already passed', async () => {
    const jobId = randomUUID();
    let settled = false;
    const waiting = hub
      .waitUntilSettled(jobId, () => Promise.resolve('running'), 60_000)
      .then(() => (settled = true));
    await subscribed(jobId);
    await deliver(log(jobId, 'still running'));
    expect(settled).toBe(false);
    const snapshot = {} as never;
    await publisher.publish({
      type: 'status',
      jobId,
      status: 'needs_input',
      summary: null,
      job: snapshot,
      at: 'now',
    });
    await waiting;
    expect(settled).toBe(true);
  });
});
