import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { mailRetryDelay } from '@suite/project-runtime';
import { consumeQueue, QueueName, type QueueConsumer } from '@suite/queue';
import { PROJECT_WORKER_CONFIG, type ProjectWorkerConfig } from '../project-worker.config.js';
import { MailDeliveryProcessor } from './mail-delivery.processor.js';

/** The BullMQ consumer of the mail queue, started with the app and closed before its resources. */
@Injectable()
export class MailDeliveryConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('mail-delivery');
  private consumer?: QueueConsumer<typeof QueueName.Mail>;

  constructor(
    @Inject(PROJECT_WORKER_CONFIG) private readonly config: ProjectWorkerConfig,
    private readonly processor: MailDeliveryProcessor,
  ) {}

  onApplicationBootstrap(): void {
    this.consumer = consumeQueue(
      QueueName.Mail,
      { send: (job) => this.processor.deliver(job) },
      {
        redisUrl: this.config.REDIS_URL,
        connectionName: 'project-worker-mail',
        concurrency: this.config.MAIL_CONCURRENCY,
        settings: {
          backoffStrategy: (attemptsMade) => mailRetryDelay(attemptsMade, this.config.MAIL_RETRY_DELAY_MS),
        },
        onError: (error) => this.logger.error({ error: error.message }, 'mail queue worker error'),
      },
    );
  }

  /** Finishes the mails being sent, then lets go of Redis (before the database closes). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
  }
}
