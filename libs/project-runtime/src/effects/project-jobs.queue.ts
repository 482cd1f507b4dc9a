import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createProducerConnection, createQueue, queuePrefix, QueueName, type TypedQueue } from '@suite/queue';
import type { Redis } from 'ioredis';
import { PROJECT_RUNTIME_CONFIG } from '../runtime.config.js';
import type { ProjectRuntimeConfig } from '../runtime.config.js';

/** A run and its retries (exponential backoff from 2 s); a job's handler may run more than once. */
export const PROJECT_JOB_ATTEMPTS = 3;

/**
 * How long past its due time a job still counts as pending without word of its end (retries,
 * backoff and a busy queue): a host that dies before it reports a job's end does not leave the
 * project a slot short for longer.
 */
const PENDING_GRACE_MS = 3600 * 1000;

// A project's pending jobs: a sorted set of job ids, scored by when they stop counting.
const RESERVE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
return 1`;

/**
 * The producer side of the project-jobs queue (its own Redis connection, like the other
 * producers), and the count of each project's pending jobs (queued, delayed or running), which
 * PROJECT_JOBS_MAX_PENDING caps.
 */
@Injectable()
export class ProjectJobsQueue implements OnApplicationShutdown {
  readonly queue: TypedQueue<typeof QueueName.ProjectJobs>;
  private readonly connection: Redis;
  private readonly pendingPrefix = `${queuePrefix()}:fx:pending-jobs`;

  constructor(@Inject(PROJECT_RUNTIME_CONFIG) private readonly config: ProjectRuntimeConfig) {
    this.connection = createProducerConnection(config.REDIS_URL, { connectionName: 'project-host-jobs' });
    this.connection.on('error', () => undefined);
    this.queue = createQueue(QueueName.ProjectJobs, this.connection, {
      defaultJobOptions: {
        attempts: PROJECT_JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: 2_000 },
        removeOnComplete: { age: 24 * 3600, count: 10_000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
    this.queue.on('error', () => undefined);
  }

  /**
   * Counts a job the project is about to enqueue (due in `delayMs`); false when the project has
   * PROJECT_JOBS_MAX_PENDING pending already.
   */
  async reserve(projectId: string, jobId: string, delayMs: number): Promise<boolean> {
    const now = Date.now();
    const until = now + delayMs + PENDING_GRACE_MS;
    const redis = await this.ready();
    const reserved = await redis.eval(
      RESERVE,
      1,
      this.pendingKey(projectId),
      now,
      this.config.PROJECT_JOBS_MAX_PENDING,
      until,
      jobId,
      until - now,
    );
    return reserved === 1;
  }

  /** A job ended (done, or failed for good), or never made it to the queue. */
  async release(projectId: string, jobId: string): Promise<void> {
    await this.ready()
      .then((redis) => redis.zrem(this.pendingKey(projectId), jobId))
      .catch(() => undefined);
  }

  /** The connection once it is ready: it keeps no offline queue, so a command sent before fails. */
  private ready(): Promise<Redis> {
    const redis = this.connection;
    if (redis.status === 'ready') return Promise.resolve(redis);
    return new Promise((resolve, reject) => {
      const onReady = (): void => {
        clearTimeout(timer);
        resolve(redis);
      };
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        reject(new Error('Redis is not ready'));
      }, 5_000);
      redis.once('ready', onReady);
    });
  }

  private pendingKey(projectId: string): string {
    return `${this.pendingPrefix}:${projectId}`;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.connection.disconnect();
  }
}
