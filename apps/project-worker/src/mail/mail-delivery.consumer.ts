import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { createRedisConnection, createWorker, QueueName, type TypedWorker } from '@suite/queue';
import type { Redis } from 'ioredis';
import { PROJECT_WORKER_CONFIG, type ProjectWorkerConfig } from '../project-worker.config.js';
import { MAIL_DELIVERY_CONFIG, type MailDeliveryConfig } from './mail-delivery.config.js';
import { MailDeliveryProcessor } from './mail-delivery.processor.js';
import { mailRetryDelay } from '@suite/project-runtime';

/** The BullMQ consumer of the mail queue, started with the app and closed before its resources. */
@Injectable()
export class MailDeliveryConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('mail-delivery');
  private worker?: TypedWorker<typeof QueueName.Mail>;
  private connection?: Redis;
  private lastErrorLogAt = 0;

  constructor(
    @Inject(PROJECT_WORKER_CONFIG) private readonly hostConfig: ProjectWorkerConfig,
    @Inject(MAIL_DELIVERY_CONFIG) private readonly config: MailDeliveryConfig,
    private readonly processor: MailDeliveryProcessor,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.hostConfig.REDIS_URL, {
      connectionName: 'project-worker-mail',
    });
    this.connection.on('error', () => undefined);
    this.worker = createWorker(
      QueueName.Mail,
      { send: (job) => this.processor.deliver(job) },
      this.connection,
      {
        concurrency: this.config.MAIL_CONCURRENCY,
        settings: {
          backoffStrategy: (attemptsMade) => mailRetryDelay(attemptsMade, this.config.MAIL_RETRY_DELAY_MS),
        },
      },
    );
    this.worker.on('error', (error) => {
      // Redis being away repeats the same error many times a second; once a minute says enough.
      if (Date.now() - this.lastErrorLogAt < 60_000) return;
      this.lastErrorLogAt = Date.now();
      this.logger.error({ error: error.message }, 'mail queue worker error');
    });
  }

  /** Finishes the mails being sent, then lets go of Redis (before the database closes). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close().catch(() => undefined);
    this.connection?.disconnect();
  }
}
