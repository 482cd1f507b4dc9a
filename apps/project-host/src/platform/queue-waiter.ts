import { createRedisConnection, queuePrefix, type QueueName } from '@suite/queue';
import { QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';

/** How a job the host waited for ended, as far as the wait saw. */
export type WaitOutcome = 'completed' | 'failed' | 'pending';

/**
 * Waits for jobs of one queue that a worker app runs (the host only asks): a QueueEvents listener
 * on a connection of its own, opened at the first wait and kept for the next ones.
 */
export class QueueWaiter {
  private listener?: { events: QueueEvents; connection: Redis; ready: Promise<unknown> };

  constructor(
    private readonly redisUrl: string,
    private readonly queue: QueueName,
    private readonly connectionName: string,
  ) {}

  /** Resolves once listening, so a job added after it cannot finish unseen. */
  ready(): Promise<unknown> {
    return this.open().ready;
  }

  /** Whether the job ended within `timeoutMs` (`pending`: not yet, it stays queued). */
  async wait(job: Job, timeoutMs: number): Promise<WaitOutcome> {
    if (timeoutMs <= 0) return 'pending';
    const { events } = this.open();
    try {
      await job.waitUntilFinished(events, timeoutMs);
      return 'completed';
    } catch (error) {
      return /timed out/i.test((error as Error).message) ? 'pending' : 'failed';
    }
  }

  async close(): Promise<void> {
    if (!this.listener) return;
    await this.listener.events.close().catch(() => undefined);
    this.listener.connection.disconnect();
  }

  private open(): { events: QueueEvents; connection: Redis; ready: Promise<unknown> } {
    if (!this.listener) {
      const connection = createRedisConnection(this.redisUrl, { connectionName: this.connectionName });
      connection.on('error', () => undefined);
      const events = new QueueEvents(this.queue, { connection, prefix: queuePrefix() });
      events.on('error', () => undefined);
      this.listener = { events, connection, ready: events.waitUntilReady().catch(() => undefined) };
    }
    return this.listener;
  }
}
