import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { countPendingJobs } from '@suite/jobs';
import { type HealthExtras } from '@suite/nest-core';
import {
  createProducerConnection,
  createQueue,
  QueueName,
  queueSnapshot,
  type TypedQueue,
} from '@suite/queue';
import type { Redis } from 'ioredis';
import { JOBS_API_CONFIG } from '../app.tokens.js';
import type { JobsApiConfig } from '../jobs-api.config.js';

/**
 * The runner's /health carries a snapshot of the browser-job queue and the connected workers;
 * `waiting` counts the jobs of the fair queue too.
 */
@Injectable()
export class QueueHealthExtras implements HealthExtras, OnApplicationShutdown {
  private readonly connection: Redis;
  private readonly queue: TypedQueue<typeof QueueName.BrowserJobs>;

  constructor(@Inject(JOBS_API_CONFIG) config: JobsApiConfig) {
    this.connection = createProducerConnection(config.REDIS_URL, { connectionName: 'jobs-api:health' });
    this.connection.on('error', () => undefined);
    this.queue = createQueue(QueueName.BrowserJobs, this.connection);
    this.queue.on('error', () => undefined);
  }

  async collect(): Promise<Record<string, unknown>> {
    const [snapshot, pending] = await Promise.all([
      queueSnapshot(this.queue),
      countPendingJobs(this.connection),
    ]);
    // Jobs waiting their turn in the fair queue (not yet in BullMQ) wait for a worker too.
    return { queue: { name: QueueName.BrowserJobs, ...snapshot, waiting: snapshot.waiting + pending } };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.connection.disconnect();
  }
}
