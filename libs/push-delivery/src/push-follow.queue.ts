import { createQueue, QueueName, redisReady, type PushFollowPayload, type TypedQueue } from '@suite/queue';
import type { Redis } from 'ioredis';

/**
 * The push-follows queue, producer side (the gateway when a config is stored, the push worker when
 * it starts): a task with push notification configs is handed to the push worker, which follows
 * it and queues its notifications. The BullMQ id is the task's, so a task is followed once at a
 * time, however many replicas ask.
 */
export class PushFollowQueue {
  private readonly queue: TypedQueue<typeof QueueName.PushFollows>;

  constructor(private readonly redis: Redis) {
    this.queue = createQueue(QueueName.PushFollows, redis, {
      defaultJobOptions: {
        // A lost Redis or Postgres, or a push worker stopping: tried again, and the follower
        // resumes from the task's current state (a notification already queued is not queued twice).
        attempts: 20,
        backoff: { type: 'exponential', delay: 1_000 },
        // Free again once followed (or given up), so a task that runs again is followed again.
        removeOnComplete: true,
        removeOnFail: true,
      },
    });
    this.queue.on('error', () => undefined);
  }

  /** Follows the task until it settles; with `configId`, tells only that config where it ended. */
  async follow(payload: PushFollowPayload): Promise<void> {
    const id = payload.configId ? `${payload.jobId}-${payload.configId}` : payload.jobId;
    // A producer connection refuses commands until its first connect: a request just after boot waits.
    await redisReady(this.redis);
    await this.queue.add('follow', payload, { jobId: `follow-${id}` });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
