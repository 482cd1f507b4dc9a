import { Queue, Worker, type Job, type QueueOptions, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { QueueName, QueuePayloads } from './queue-names.js';

/** Key prefix of every queue; tests and parallel suites use their own so they never share keys. */
export function queuePrefix(env: NodeJS.ProcessEnv = process.env): string {
  return env.REDIS_PREFIX || 'suite';
}

export type TypedQueue<N extends QueueName> = Queue<QueuePayloads[N], unknown, string>;
export type TypedJob<N extends QueueName> = Job<QueuePayloads[N], unknown, string>;

export function createQueue<N extends QueueName>(
  name: N,
  connection: Redis,
  options: Partial<QueueOptions> = {},
): TypedQueue<N> {
  return new Queue<QueuePayloads[N], unknown, string>(name, {
    connection,
    prefix: queuePrefix(),
    defaultJobOptions: {
      // Infrastructure failures are retried a bounded number of times; processors decide what
      // counts as infrastructure (a failing browser test is a result, not an error).
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
    ...options,
  });
}

export function createWorker<N extends QueueName>(
  name: N,
  processor: (job: TypedJob<N>) => Promise<unknown>,
  connection: Redis,
  options: Partial<WorkerOptions> = {},
): Worker<QueuePayloads[N], unknown, string> {
  return new Worker<QueuePayloads[N], unknown, string>(name, processor, {
    connection,
    prefix: queuePrefix(),
    concurrency: 1,
    ...options,
  });
}

export interface QueueSnapshot {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
  workers: number;
}

/** Counts for /health and metrics. */
export async function queueSnapshot(queue: Queue): Promise<QueueSnapshot> {
  const [counts, workers] = await Promise.all([
    queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed'),
    queue.getWorkersCount(),
  ]);
  return {
    // BullMQ keeps prioritized jobs apart from the wait list; both are waiting for a worker.
    waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
    active: counts.active ?? 0,
    delayed: counts.delayed ?? 0,
    failed: counts.failed ?? 0,
    completed: counts.completed ?? 0,
    workers,
  };
}
