import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { createHostResolver, EgressBlockedError } from '@suite/egress-policy';
import {
  postNotification,
  PushConfigRepository,
  webhookPolicy,
  type WebhookOptions,
} from '@suite/push-delivery';
import { consumeQueue, QueueName, type QueueConsumer, type TypedJob } from '@suite/queue';
import { PUSH_WORKER_CONFIG, type PushWorkerConfig } from './push-worker.config.js';

/**
 * Consumes the push-notifications queue the task follower fills (one job per task change and config):
 * POSTs the StreamResponse to the config's webhook as it is at delivery time (a config deleted
 * meanwhile gets nothing). A failure is thrown back to BullMQ, which retries it with backoff
 * (PUSH_ATTEMPTS, set by the producer on the queue).
 */
@Injectable()
export class PushDeliveryConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('a2a-push');
  private readonly webhook: WebhookOptions;
  private consumer?: QueueConsumer<typeof QueueName.PushNotifications>;

  constructor(
    private readonly configs: PushConfigRepository,
    @Inject(PUSH_WORKER_CONFIG) private readonly config: PushWorkerConfig,
  ) {
    this.webhook = {
      policy: webhookPolicy(config.PUSH_ALLOWED_HOSTS),
      resolve: createHostResolver(config.PUSH_DNS_SERVERS),
      timeoutMs: config.PUSH_TIMEOUT_MS,
    };
  }

  onApplicationBootstrap(): void {
    this.consumer = consumeQueue(
      QueueName.PushNotifications,
      { deliver: (job) => this.deliver(job) },
      {
        redisUrl: this.config.REDIS_URL,
        connectionName: 'push-worker',
        concurrency: this.config.PUSH_CONCURRENCY,
      },
    );
  }

  async deliver(job: TypedJob<typeof QueueName.PushNotifications>): Promise<void> {
    const { configId, jobId, event } = job.data;
    const config = await this.configs.find(jobId, configId);
    if (!config) return; // deleted since: nothing to send
    await postNotification(config, event, this.webhook).catch((error: unknown) => {
      if (error instanceof EgressBlockedError) {
        this.logger.warn(
          { jobId, configId, rule: error.decision.rule },
          `webhook ${new URL(config.url).origin} refused: ${error.message}`,
        );
      }
      throw error;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
  }
}
