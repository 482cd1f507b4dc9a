import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createMainClient, type MainClient } from '@suite/db';
import { JobEventsHub } from '@suite/jobs';
import { createRedisConnection } from '@suite/queue';
import type { Redis } from 'ioredis';
import { PUSH_WORKER_CONFIG, type PushWorkerConfig } from './push-worker.config.js';

/**
 * What the push worker opens: the main database, a Redis connection for the queues it fills and
 * the delivery pacer, and a subscriber connection for the job events of the tasks it follows;
 * closed after the consumers stopped. Only the providers that build repositories see it.
 */
@Injectable()
export class PushWorkerConnections implements OnApplicationShutdown {
  readonly db: MainClient;
  readonly redis: Redis;
  readonly events: JobEventsHub;
  private readonly subscriber: Redis;

  constructor(@Inject(PUSH_WORKER_CONFIG) config: PushWorkerConfig) {
    this.db = createMainClient(config.DATABASE_URL);
    this.redis = createRedisConnection(config.REDIS_URL, { connectionName: 'push-worker' });
    this.redis.on('error', () => undefined);
    this.subscriber = createRedisConnection(config.REDIS_URL, { connectionName: 'push-worker:events' });
    this.subscriber.on('error', () => undefined);
    this.events = new JobEventsHub(this.subscriber);
  }

  async onApplicationShutdown(): Promise<void> {
    this.events.close();
    this.subscriber.disconnect();
    this.redis.disconnect();
    await this.db.$disconnect();
  }
}
