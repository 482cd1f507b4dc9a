import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createMainClient, type MainClient } from '@suite/db';
import { createArtifactStore, type ArtifactStore } from '@suite/jobs';
import {
  createProducerConnection,
  createQueue,
  createRedisConnection,
  QueueName,
  type TypedQueue,
} from '@suite/queue';
import type { Redis } from 'ioredis';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';

/** The side-effect adapters of the gateway, opened once and closed on shutdown. */
@Injectable()
export class RunnerResources implements OnApplicationShutdown {
  readonly db: MainClient;
  readonly redis: Redis;
  /** Subscriber mode: a connection of its own (it can run no other command). */
  readonly subscriber: Redis;
  readonly queue: TypedQueue<typeof QueueName.BrowserJobs>;
  readonly pushQueue: TypedQueue<typeof QueueName.PushNotifications>;
  /** The shared directory or the S3 bucket (ARTIFACT_STORE / S3_BUCKET). */
  readonly artifacts: ArtifactStore;

  constructor(@Inject(AGENT_GATEWAY_CONFIG) config: AgentGatewayConfig) {
    this.db = createMainClient(config.DATABASE_URL, { maxConnections: config.DATABASE_POOL_SIZE });
    this.redis = createProducerConnection(config.REDIS_URL, { connectionName: 'agent-gateway' });
    this.redis.on('error', () => undefined); // surfaced by /health and by failing requests
    this.subscriber = createRedisConnection(config.REDIS_URL, { connectionName: 'agent-gateway-events' });
    this.subscriber.on('error', () => undefined);
    // Every open stream and waiting SendMessage listens on the one subscriber connection.
    this.subscriber.setMaxListeners(0);
    this.queue = createQueue(QueueName.BrowserJobs, this.redis);
    this.queue.on('error', () => undefined);
    this.pushQueue = createQueue(QueueName.PushNotifications, this.redis, {
      defaultJobOptions: {
        attempts: config.PUSH_ATTEMPTS,
        backoff: { type: 'exponential', delay: 1_000 },
        // Kept a while: their ids keep a restarted gateway from sending a notification twice.
        removeOnComplete: { age: 24 * 3600, count: 100_000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
    this.pushQueue.on('error', () => undefined);
    this.artifacts = createArtifactStore(config);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    await this.pushQueue.close().catch(() => undefined);
    this.subscriber.disconnect();
    this.redis.disconnect();
    await this.db.$disconnect();
    await this.artifacts.close();
  }
}
