import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
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

/** The runner's /health carries a snapshot of the browser-job queue and the connected workers. */
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
    return { queue: { name: QueueName.BrowserJobs, ...(await queueSnapshot(this.queue)) } };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.connection.disconnect();
  }
}
