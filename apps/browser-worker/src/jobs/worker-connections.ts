import { createMainClient, type MainClient } from '@suite/db';
import {
  ARTIFACT_STORE,
  BullJobQueue,
  createArtifactStore,
  JobEventsPublisher,
  JobQueue,
  JobRepository,
  PrismaJobRepository,
  type ArtifactStore,
} from '@suite/jobs';
import { createQueue, createRedisConnection, QueueName, type TypedQueue } from '@suite/queue';
import type { Redis } from 'ioredis';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import { RedisLock } from './redis-lock.js';
import { ReplayScriptRepository } from './replay-script.repository.js';

/** The blocking Redis connection the BullMQ worker consumes browser jobs on. */
export const CONSUMER_CONNECTION = Symbol('CONSUMER_CONNECTION');

/**
 * The worker's connections, opened once and closed on shutdown. Only the providers below see them:
 * services get the job repository, the queue, the artifact store and the other narrow adapters.
 */
export class WorkerConnections {
  readonly db: MainClient;
  readonly consumer: Redis;
  readonly redis: Redis;
  readonly queue: TypedQueue<typeof QueueName.BrowserJobs>;
  /** The shared directory, or local staging files uploaded to S3 when a job completes. */
  readonly store: ArtifactStore;

  constructor(config: BrowserWorkerConfig) {
    this.db = createMainClient(config.DATABASE_URL, { maxConnections: 4 });
    this.consumer = createRedisConnection(config.REDIS_URL, { connectionName: 'browser-worker' });
    this.redis = createRedisConnection(config.REDIS_URL, { connectionName: 'browser-worker:events' });
    for (const connection of [this.consumer, this.redis]) connection.on('error', () => undefined);
    this.queue = createQueue(QueueName.BrowserJobs, this.redis);
    this.queue.on('error', () => undefined);
    this.store = createArtifactStore(config);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.consumer.disconnect();
    this.redis.disconnect();
    await this.db.$disconnect();
    await this.store.close();
  }
}

/** The worker's side-effect adapters as Nest providers. */
export const workerConnectionProviders = [
  {
    provide: WorkerConnections,
    inject: [BROWSER_WORKER_CONFIG],
    useFactory: (config: BrowserWorkerConfig) => new WorkerConnections(config),
  },
  {
    provide: JobEventsPublisher,
    inject: [WorkerConnections],
    useFactory: (c: WorkerConnections) => new JobEventsPublisher(c.redis),
  },
  {
    provide: JobRepository,
    inject: [WorkerConnections, JobEventsPublisher],
    useFactory: (c: WorkerConnections, events: JobEventsPublisher): JobRepository =>
      new PrismaJobRepository(c.db, events),
  },
  {
    provide: JobQueue,
    inject: [WorkerConnections],
    useFactory: (c: WorkerConnections): JobQueue => new BullJobQueue(c.queue),
  },
  { provide: ARTIFACT_STORE, inject: [WorkerConnections], useFactory: (c: WorkerConnections) => c.store },
  {
    provide: CONSUMER_CONNECTION,
    inject: [WorkerConnections],
    useFactory: (c: WorkerConnections) => c.consumer,
  },
  {
    provide: ReplayScriptRepository,
    inject: [WorkerConnections],
    useFactory: (c: WorkerConnections) => new ReplayScriptRepository(c.db),
  },
  {
    provide: RedisLock,
    inject: [WorkerConnections],
    useFactory: (c: WorkerConnections) => new RedisLock(c.redis),
  },
];
