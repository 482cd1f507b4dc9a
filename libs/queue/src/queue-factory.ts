import { Queue, UnrecoverableError, Worker, type Job, type QueueOptions, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { JobNames, type JobName, type QueueName, type QueuePayloads } from './queue-names.js';

/** Key prefix of every queue; tests and parallel suites use their own so they never share keys. */
export function queuePrefix(env: NodeJS.ProcessEnv = process.env): string {
  return env.REDIS_PREFIX || 'suite';
}

export type TypedQueue<N extends QueueName> = Queue<QueuePayloads[N], unknown, JobName<N>>;
export type TypedJob<N extends QueueName> = Job<QueuePayloads[N], unknown, JobName<N>>;
export type TypedWorker<N extends QueueName> = Worker<QueuePayloads[N], unknown, JobName<N>>;

/** A consumer's handler of every job name of its queue (see JobNames). */
export type JobHandlers<N extends QueueName> = {
  [K in JobName<N>]: (job: TypedJob<N>) => Promise<unknown>;
};

/** Thrown at boot by createWorker when a consumer leaves a job name of its queue unhandled. */
export class MissingJobHandlerError extends Error {
  constructor(queue: QueueName, names: string[]) {
    super(`queue ${queue}: no handler for job ${names.map((n) => JSON.stringify(n)).join(', ')}`);
    this.name = 'MissingJobHandlerError';
  }
}

/** The boot check of a consumer: every job name of `queue` has a handler (else it throws). */
export function assertJobHandlers<N extends QueueName>(queue: N, handlers: JobHandlers<N>): void {
  const table = handlers as Record<string, unknown>;
  const missing = (JobNames[queue] as readonly string[]).filter((name) => typeof table[name] !== 'function');
  if (missing.length > 0) throw new MissingJobHandlerError(queue, missing);
}

export function createQueue<N extends QueueName>(
  name: N,
  connection: Redis,
  options: Partial<QueueOptions> = {},
): TypedQueue<N> {
  return new Queue<QueuePayloads[N], unknown, JobName<N>>(name, {
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

/**
 * A consumer of queue `name`: each job goes to the handler of its name. Checks first that every job
 * name of the queue has a handler (MissingJobHandlerError otherwise, so the worker does not boot);
 * a job of a name the queue does not carry fails without retries.
 */
export function createWorker<N extends QueueName>(
  name: N,
  handlers: JobHandlers<N>,
  connection: Redis,
  options: Partial<WorkerOptions> = {},
): TypedWorker<N> {
  assertJobHandlers(name, handlers);
  const table = handlers as Record<string, ((job: TypedJob<N>) => Promise<unknown>) | undefined>;
  const processor = async (job: TypedJob<N>): Promise<unknown> => {
    const handler = Object.hasOwn(table, job.name) ? table[job.name] : undefined;
    if (!handler)
      throw new UnrecoverableError(`queue ${name} carries no job named ${JSON.stringify(job.name)}`);
    return handler(job);
  };
  return new Worker<QueuePayloads[N], unknown, JobName<N>>(name, processor, {
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
