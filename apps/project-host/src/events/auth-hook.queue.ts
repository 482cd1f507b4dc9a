import type { OnApplicationShutdown } from '@nestjs/common';
import {
  createRedisConnection,
  queuePrefix,
  QueueName,
  type AuthHookPayload,
  type TypedQueue,
} from '@suite/queue';
import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';

/** A batch on its way to the project's hooks: `finished` waits for it to run (at most `timeoutMs`). */
export interface QueuedBatch {
  id: string | undefined;
  finished(timeoutMs: number): Promise<void>;
}

/** The `auth-hooks` queue the project worker consumes: one job per batch of events, in order. */
export abstract class AuthHookQueue {
  /**
   * Queues `batch`. A `blocking` batch runs once (the answer is waiting for it: a retry would come
   * too late) and can be waited for.
   */
  abstract add(batch: AuthHookPayload, blocking: boolean): Promise<QueuedBatch>;
}

/** BullMQ: the host's producer connection, and a QueueEvents listener opened at the first blocking batch. */
export class BullAuthHookQueue extends AuthHookQueue implements OnApplicationShutdown {
  private queueEvents?: { events: QueueEvents; connection: Redis; ready: Promise<unknown> };

  constructor(
    private readonly queue: TypedQueue<typeof QueueName.AuthHooks>,
    /** The QueueEvents listener's own connection. */
    private readonly redisUrl: string,
  ) {
    super();
  }

  async add(batch: AuthHookPayload, blocking: boolean): Promise<QueuedBatch> {
    // Listening before the job exists, so its completion cannot be missed.
    if (blocking) await this.listener().ready;
    const job = await this.queue.add('batch', batch, blocking ? { attempts: 1 } : undefined);
    return {
      id: job.id,
      finished: async (timeoutMs) => {
        await job.waitUntilFinished(this.listener().events, timeoutMs);
      },
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.queueEvents) return;
    await this.queueEvents.events.close().catch(() => undefined);
    this.queueEvents.connection.disconnect();
  }

  private listener(): { events: QueueEvents; connection: Redis; ready: Promise<unknown> } {
    if (!this.queueEvents) {
      const connection = createRedisConnection(this.redisUrl, { connectionName: 'auth-events' });
      connection.on('error', () => undefined);
      const events = new QueueEvents(QueueName.AuthHooks, { connection, prefix: queuePrefix() });
      events.on('error', () => undefined);
      this.queueEvents = { events, connection, ready: events.waitUntilReady().catch(() => undefined) };
    }
    return this.queueEvents;
  }
}
