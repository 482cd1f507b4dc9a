import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import {
  createQueue,
  createWorker,
  MissingJobHandlerError,
  queueSnapshot,
  type JobHandlers,
} from './queue-factory.js';
import { JobNames, QueueName, type BrowserJobPayload } from './queue-names.js';
import { createRedisConnection } from './redis-connection.js';

// Real Redis: tools/devstack sets REDIS_URL and a REDIS_PREFIX of its own for every test run.
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('browser job queue (real Redis)', () => {
  let connection: Redis;
  let workerConnection: Redis;
  const prefix = `${process.env.REDIS_PREFIX ?? 'test'}-${randomUUID().slice(0, 8)}`;

  beforeAll(() => {
    process.env.REDIS_PREFIX = prefix;
    connection = createRedisConnection(redisUrl);
    workerConnection = createRedisConnection(redisUrl);
  });

  afterAll(async () => {
    const keys = await connection.keys(`${prefix}:*`);
    if (keys.length) await connection.del(...keys);
    connection.disconnect();
    workerConnection.disconnect();
  });

  it('delivers a typed payload with its trace context to a worker', async () => {
    const queue = createQueue(QueueName.BrowserJobs, connection);
    const payload: BrowserJobPayload = {
      jobId: randomUUID(),
      trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    };

    const received = new Promise<BrowserJobPayload>((resolve) => {
      const worker = createWorker(
        QueueName.BrowserJobs,
        {
          run: async (job) => {
            resolve(job.data);
            return 'ok';
          },
        },
        workerConnection,
      );
      worker.on('completed', () => void worker.close());
    });
    await queue.add('run', payload, { jobId: payload.jobId });

    await expect(received).resolves.toEqual(payload);
    await queue.close();
  });

  it('keeps its keys under the run prefix and reports a snapshot', async () => {
    // A running suite may have keys under the default prefix; this test must add none there.
    const defaultKeysBefore = (await connection.keys('suite:mail:*')).sort();
    const queue = createQueue(QueueName.Mail, connection);
    const content = { kind: 'welcome', to: 'ada@example.com', subject: 'Welcome', text: 'Hi' };
    await queue.add('send', { projectId: 'p', mailLogId: 'm', content, trace: {} }, { delay: 60_000 });
    await queue.add('send', { projectId: 'p', mailLogId: 'n', content, trace: {} });

    const snapshot = await queueSnapshot(queue);
    expect(snapshot).toMatchObject({ waiting: 1, delayed: 1, active: 0, workers: 0 });
    expect((await connection.keys(`${prefix}:mail:*`)).length).toBeGreaterThan(0);
    expect((await connection.keys('suite:mail:*')).sort()).toEqual(defaultKeysBefore);
    await queue.close();
  });
});

describe('typed job names', () => {
  it('refuses at boot a consumer that leaves a job name of its queue unhandled', () => {
    const connection = createRedisConnection(redisUrl, { lazyConnect: true });
    const handlers = {} as JobHandlers<typeof QueueName.Mail>;
    expect(() => createWorker(QueueName.Mail, handlers, connection)).toThrow(
      new MissingJobHandlerError(QueueName.Mail, ['send']),
    );
    expect(() => createWorker(QueueName.Mail, handlers, connection)).toThrow(
      'queue mail: no handler for job "send"',
    );
    connection.disconnect();
  });

  it('names the jobs of every queue', () => {
    expect(Object.keys(JobNames).sort()).toEqual(Object.values(QueueName).sort());
    for (const names of Object.values(JobNames)) expect(names.length).toBeGreaterThan(0);
  });
});
