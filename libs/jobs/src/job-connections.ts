import { createMainClient, type MainClient } from '@suite/db';
import {
  createProducerConnection,
  createQueue,
  createRedisConnection,
  QueueName,
  type TypedQueue,
} from '@suite/queue';
import type { Redis } from 'ioredis';
import type { ArtifactStore } from './artifact-store.js';
import { createArtifactStore, type ArtifactStoreConfig } from './artifact-store.factory.js';

export interface JobConnectionsConfig extends ArtifactStoreConfig {
  DATABASE_URL: string;
  REDIS_URL: string;
}

export interface JobConnectionsOptions {
  /** Redis CLIENT SETNAME of the connection the queue and event publishing use. */
  connectionName: string;
  poolSize: number;
  /** An HTTP app's connection fails fast while Redis is down; a worker's waits for it. */
  producer: boolean;
}

/**
 * What every runner process opens for its jobs: Postgres, a Redis connection with the browser-job
 * queue on it, and the artifact store; closed on shutdown. Only the providers that build the
 * repositories and adapters see it: services get those.
 */
export class JobConnections {
  readonly db: MainClient;
  readonly redis: Redis;
  readonly queue: TypedQueue<typeof QueueName.BrowserJobs>;
  /** The shared directory or the S3 bucket (ARTIFACT_STORE / S3_BUCKET). */
  readonly artifacts: ArtifactStore;
  private readonly extra: Redis[] = [];

  constructor(
    private readonly config: JobConnectionsConfig,
    options: JobConnectionsOptions,
  ) {
    this.db = createMainClient(config.DATABASE_URL, { maxConnections: options.poolSize });
    const create = options.producer ? createProducerConnection : createRedisConnection;
    this.redis = create(config.REDIS_URL, { connectionName: options.connectionName });
    this.redis.on('error', () => undefined); // surfaced by /health and by failing requests
    this.queue = createQueue(QueueName.BrowserJobs, this.redis);
    this.queue.on('error', () => undefined);
    this.artifacts = createArtifactStore(config);
  }

  /** One more connection of its own (a subscriber, a blocking consumer), closed with the others. */
  protected connection(connectionName: string): Redis {
    const connection = createRedisConnection(this.config.REDIS_URL, { connectionName });
    connection.on('error', () => undefined);
    this.extra.push(connection);
    return connection;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    for (const connection of [this.redis, ...this.extra]) connection.disconnect();
    await this.db.$disconnect();
    await this.artifacts.close();
  }
}
