import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { RunnerError, RunnerErrorCode } from '@suite/errors';
import {
  createProducerConnection,
  createQueue,
  createRedisConnection,
  createWorker,
  QueueName,
  type TypedQueue,
  type TypedWorker,
} from '@suite/queue';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { countPendingJobs, FairJobQueue } from './fair-job-queue.js';
import { FairScheduler, type FairShareLimits } from './fair-scheduler.js';

// Real Redis and BullMQ: each test gets a prefix of its own (its BullMQ queue and fair keys).
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const runPrefix = `${process.env.REDIS_PREFIX ?? 'test'}-fair-${randomUUID().slice(0, 8)}`;

describe('FairJobQueue (real Redis)', () => {
  let redis: Redis;
  let workerRedis: Redis;
  const opened: { close(): Promise<void> }[] = [];

  beforeAll(() => {
    redis = createRedisConnection(redisUrl);
    workerRedis = createRedisConnection(redisUrl);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((o) => o.close()));
  });

  afterAll(async () => {
    const keys = await redis.keys(`${runPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    workerRedis.disconnect();
  });

  const setup = (limits: Partial<FairShareLimits>) => {
    const prefix = `${runPrefix}-${randomUUID().slice(0, 6)}`;
    const queue = createQueue(QueueName.BrowserJobs, redis, { prefix });
    opened.push(queue);
    const full: FairShareLimits = {
      maxQueuedPerOwner: 1000,
      maxRunningPerOwner: 50,
      dispatchAhead: 1,
      ...limits,
    };
    const base = `${prefix}:fair:${QueueName.BrowserJobs}:`;
    return { prefix, queue, base, limits: full, fair: new FairJobQueue(queue, redis, full, base) };
  };

  const submit = async (fair: FairJobQueue, owner: string, count: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 1; i <= count; i++) {
      const id = `${owner}-${i}`;
      await fair.enqueue({ id, owner }, { traceparent: `t-${id}` });
      ids.push(id);
    }
    return ids;
  };

  const waitingIds = async (queue: TypedQueue<typeof QueueName.BrowserJobs>) =>
    (await queue.getWaiting()).map((job) => job.id).sort();

  /** What a browser worker does: says it started each job, and that it ended. */
  const startWorker = (
    prefix: string,
    fair: FairJobQueue,
    onJob: (jobId: string, trace: unknown) => void,
  ): TypedWorker<typeof QueueName.BrowserJobs> => {
    const connection = workerRedis.duplicate();
    const worker = createWorker(
      QueueName.BrowserJobs,
      {
        run: async (job) => {
          onJob(job.data.jobId, job.data.trace);
          await fair.started(job.data.jobId);
          return 'ok';
        },
      },
      connection,
      { prefix, concurrency: 1 },
    );
    worker.on('completed', (job) => void fair.settled(job.data.jobId));
    opened.push({
      close: async () => {
        await worker.close();
        connection.disconnect();
      },
    });
    return worker;
  };

  it("alternates between owners: B's jobs, submitted after A's flood, start interleaved right after", async () => {
    const { prefix, fair } = setup({ dispatchAhead: 1 });
    const a = await submit(fair, 'owner-a', 10);
    const b = await submit(fair, 'owner-b', 3);
    const order: string[] = [];
    const traces: unknown[] = [];
    const done = new Promise<void>((resolve) =>
      startWorker(prefix, fair, (id, trace) => {
        order.push(id);
        traces.push(trace);
        if (order.length === 13) resolve();
      }),
    );
    await done;
    // A's first job was handed out before B arrived; then one each, then A's rest.
    expect(order).toEqual([a[0], b[0], a[1], b[1], a[2], b[2], ...a.slice(3)]);
    expect(traces[0]).toEqual({ traceparent: `t-${a[0]}` });
  });

  it('an owner re-joining starts at the current virtual time: idle time earns no burst', async () => {
    const { queue, fair } = setup({ dispatchAhead: 1 });
    const order: string[] = [];
    /** A worker takes the one job handed out, starts it and ends it. */
    const take = async (times: number) => {
      for (let i = 0; i < times; i++) {
        const [job] = await queue.getWaiting();
        order.push(job!.id!);
        await fair.started(job!.id!);
        await queue.remove(job!.id!);
        await fair.settled(job!.id!);
      }
    };
    await submit(fair, 'owner-b', 1);
    await take(1);
    // B is idle while A's backlog runs.
    await submit(fair, 'owner-a', 8);
    await take(4);
    await fair.enqueue({ id: 'owner-b-2', owner: 'owner-b' }, {});
    await fair.enqueue({ id: 'owner-b-3', owner: 'owner-b' }, {});
    await fair.enqueue({ id: 'owner-b-4', owner: 'owner-b' }, {});
    await take(6);
    // A's fifth job was already handed out; then one each: B does not get three in a row on
    // credit from the time it was idle.
    expect(order.slice(5)).toEqual([
      'owner-a-5',
      'owner-b-2',
      'owner-a-6',
      'owner-b-3',
      'owner-a-7',
      'owner-b-4',
    ]);
  });

  it('hands out no more of an owner than its running limit; other owners still go', async () => {
    const { queue, fair } = setup({ maxRunningPerOwner: 2, dispatchAhead: 5 });
    const a = await submit(fair, 'owner-a', 5);
    expect(await waitingIds(queue)).toEqual([a[0], a[1]].sort());
    expect(await fair.ownerCounts('owner-a')).toEqual({ pending: 3, running: 2 });
    expect(await fair.state(a[2]!)).toBe('pending');
    expect(await fair.state(a[0]!)).toBe('waiting');

    const [b1] = await submit(fair, 'owner-b', 1);
    expect(await waitingIds(queue)).toEqual([a[0], a[1], b1].sort());

    // One of A's jobs ends: the next of A's goes out, still two at most.
    await queue.remove(a[0]!);
    await fair.settled(a[0]!);
    expect(await waitingIds(queue)).toEqual([a[1], a[2], b1].sort());
    expect(await fair.ownerCounts('owner-a')).toEqual({ pending: 2, running: 2 });
  });

  it('refuses a job past the queued limit with rate_limited and a Retry-After; others are not affected', async () => {
    const { fair } = setup({ maxQueuedPerOwner: 3, dispatchAhead: 1 });
    await submit(fair, 'owner-a', 3); // one handed out (not started), two pending: three waiting
    const refused = await fair.enqueue({ id: 'owner-a-4', owner: 'owner-a' }, {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RunnerError);
    expect(refused).toMatchObject({
      code: RunnerErrorCode.RateLimited,
      details: { retryAfterSeconds: 30 },
    });
    expect((refused as Error).message).toMatch(/3 jobs waiting.*RUNNER_MAX_QUEUED_PER_OWNER=3/);
    expect(await fair.state('owner-a-4')).toBe('unknown');
    await expect(submit(fair, 'owner-b', 3)).resolves.toHaveLength(3);
    // A job accepted before (re-queued by the reaper, new instructions) is not refused.
    await fair.enqueue({ id: 'owner-a-old', owner: 'owner-a' }, {}, { admitOverLimit: true });
    expect(await fair.state('owner-a-old')).toBe('pending');
  });

  it('cancelling removes a pending job, and a handed-out one from BullMQ, freeing its slot', async () => {
    const { queue, fair } = setup({ dispatchAhead: 1 });
    const a = await submit(fair, 'owner-a', 3);
    await fair.remove(a[1]!);
    expect(await fair.state(a[1]!)).toBe('unknown');
    expect(await fair.ownerCounts('owner-a')).toEqual({ pending: 1, running: 1 });

    await fair.remove(a[0]!); // waiting in BullMQ: removed, and the next pending job goes out
    expect(await fair.state(a[0]!)).toBe('unknown');
    expect(await waitingIds(queue)).toEqual([a[2]]);
    expect(await fair.ownerCounts('owner-a')).toEqual({ pending: 0, running: 1 });
  });

  it('repairs a crash between the pop and the add to BullMQ: the job is released, then found and queued again', async () => {
    const { queue, fair, base, limits } = setup({ dispatchAhead: 1, maxRunningPerOwner: 1 });
    // The scheduler's pop alone is what a process dying before BullMQ's add leaves behind.
    const crashed = new FairScheduler(redis, base, limits);
    expect(await crashed.enqueue('lost', 'owner-a', '{}')).toBe('queued');
    expect(await crashed.pump()).toEqual([{ id: 'lost', trace: '{}' }]);
    expect(await fair.state('lost')).toBe('unknown');

    // Owner A is at its running limit with a job nobody will run: its next job waits.
    await fair.enqueue({ id: 'next', owner: 'owner-a' }, {});
    expect(await fair.state('next')).toBe('pending');

    // Too recent to judge: nothing is released.
    expect(await fair.repair()).toBe(0);
    // Past the grace period: released, and A's next job goes out.
    expect(await fair.repair(Date.now() + 60_000)).toBe(1);
    expect(await fair.ownerCounts('owner-a')).toEqual({ pending: 0, running: 1 });
    expect(await waitingIds(queue)).toEqual(['next']);
    // The reaper finds `lost` still queued in Postgres and in no queue: it queues it again.
    expect(await fair.state('lost')).toBe('unknown');
    await fair.enqueue({ id: 'lost', owner: 'owner-a' }, {}, { admitOverLimit: true });
    expect(await fair.state('lost')).toBe('pending');
    // A job BullMQ still holds is never released by a repair.
    expect(await fair.repair(Date.now() + 60_000)).toBe(0);
    expect(await fair.state('next')).toBe('waiting');
  });

  it('counts pending jobs beside BullMQ states', async () => {
    const { fair } = setup({ dispatchAhead: 1 });
    await submit(fair, 'owner-a', 4);
    expect(await fair.counts('pending', 'waiting', 'active')).toEqual({ pending: 3, waiting: 1, active: 0 });
  });

  it('takes a job and counts on a producer connection asked before its first connect completes', async () => {
    // A request right after boot: the producer connection (no offline queue) is still connecting.
    const { prefix, limits, base } = setup({ dispatchAhead: 1 });
    const fresh = createProducerConnection(redisUrl);
    const queue = createQueue(QueueName.BrowserJobs, fresh, { prefix });
    try {
      expect(fresh.status).not.toBe('ready');
      const fair = new FairJobQueue(queue, fresh, limits, base);
      await fair.enqueue({ id: 'early-1', owner: 'owner-a' }, { traceparent: 't' });
      const cold = createProducerConnection(redisUrl);
      try {
        expect(await countPendingJobs(cold, base)).toBe(0);
      } finally {
        cold.disconnect();
      }
      expect(await fair.state('early-1')).toBe('waiting');
    } finally {
      await queue.close();
      fresh.disconnect();
    }
  });
});
