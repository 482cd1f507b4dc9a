import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createMainClient, type MainClient } from '@suite/db';
import { createArtifactStore, JobEventsHub, type ArtifactStore } from '@suite/jobs';
import {
  createProducerConnection,
  createQueue,
  createRedisConnection,
  QueueName,
  type TypedQueue,
} from '@suite/queue';
import type { Redis } from 'ioredis';
import { JOBS_API_CONFIG } from '../app.tokens.js';
import type { JobsApiConfig } from '../jobs-api.config.js';

/** The side-effect adapters of jobs-api, opened once and closed on shutdown. */
@Injectable()
export class RunnerResources implements OnApplicationShutdown {
  readonly db: MainClient;
  readonly redis: Redis;
  readonly queue: TypedQueue<typeof QueueName.BrowserJobs>;
  /** A connection in subscriber mode (it can do nothing else), shared by every live stream. */
  readonly subscriber: Redis;
  readonly events: JobEventsHub;
  /** The shared directory or the S3 bucket (ARTIFACT_STORE / S3_BUCKET). */
  readonly artifacts: ArtifactStore;

  constructor(@Inject(JOBS_API_CONFIG) config: JobsApiConfig) {
    this.db = createMainClient(config.DATABASE_URL, { maxConnections: config.DATABASE_POOL_SIZE });
    this.redis = createProducerConnection(config.REDIS_URL, { connectionName: 'jobs-api' });
    this.redis.on('error', () => undefined); // surfaced by /health and by failing requests
    this.queue = createQueue(QueueName.BrowserJobs, this.redis);
    this.queue.on('error', () => undefined);
    this.subscriber = createRedisConnection(config.REDIS_URL, { connectionName: 'jobs-api:events' });
    this.subscriber.on('error', () => undefined);
    this.events = new JobEventsHub(this.subscriber);
    this.artifacts = createArtifactStore(config);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.redis.disconnect();
    this.subscriber.disconnect();
    await this.db.$disconnect();
    await this.artifacts.close();
  }
}
