import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createMainClient, type MainClient } from '@suite/db';
import { createArtifactStore, JobEventsPublisher, type ArtifactStore } from '@suite/jobs';
import { createQueue, createRedisConnection, QueueName, type TypedQueue } from '@suite/queue';
import type { Redis } from 'ioredis';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';

/** The worker's side-effect adapters: Postgres, Redis (a blocking connection for BullMQ), artifacts. */
@Injectable()
export class WorkerResources implements OnApplicationShutdown {
  readonly db: MainClient;
  readonly workerConnection: Redis;
  readonly redis: Redis;
  readonly queue: TypedQueue<typeof QueueName.BrowserJobs>;
  /** The shared directory, or local staging files uploaded to S3 when a job completes. */
  readonly store: ArtifactStore;
  readonly events: JobEventsPublisher;

  constructor(@Inject(BROWSER_WORKER_CONFIG) config: BrowserWorkerConfig) {
    this.db = createMainClient(config.DATABASE_URL, { maxConnections: 4 });
    this.workerConnection = createRedisConnection(config.REDIS_URL, { connectionName: 'browser-worker' });
    this.redis = createRedisConnection(config.REDIS_URL, { connectionName: 'browser-worker:events' });
    for (const connection of [this.workerConnection, this.redis]) connection.on('error', () => undefined);
    this.queue = createQueue(QueueName.BrowserJobs, this.redis);
    this.queue.on('error', () => undefined);
    this.store = createArtifactStore(config);
    this.events = new JobEventsPublisher(this.redis);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.workerConnection.disconnect();
    this.redis.disconnect();
    await this.db.$disconnect();
    await this.store.close();
  }
}
