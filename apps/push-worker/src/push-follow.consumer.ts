import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PushConfigRepository, PushFollowQueue } from '@suite/push-delivery';
import { consumeQueue, QueueName, type QueueConsumer } from '@suite/queue';
import { PUSH_WORKER_CONFIG, type PushWorkerConfig } from './push-worker.config.js';
import { TaskFollower } from './task-follower.js';

/** How far back a starting push worker looks for tasks whose notifications may be unsent. */
const RESUME_WINDOW_MS = 6 * 3600_000;

/**
 * Consumes the push-follows queue the gateway fills when a push notification config is stored:
 * each job follows one task until it settles (TaskFollower). At start it hands back to the queue
 * every task with configs still open or ended lately (ids make one already followed a no-op), so
 * nothing waits on a process that was lost.
 */
@Injectable()
export class PushFollowConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('a2a-push');
  private consumer?: QueueConsumer<typeof QueueName.PushFollows>;

  constructor(
    private readonly follower: TaskFollower,
    private readonly follows: PushFollowQueue,
    private readonly configs: PushConfigRepository,
    @Inject(PUSH_WORKER_CONFIG) private readonly config: PushWorkerConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = consumeQueue(
      QueueName.PushFollows,
      { follow: (job) => this.follower.follow(job.data) },
      {
        redisUrl: this.config.REDIS_URL,
        connectionName: 'push-worker:follows',
        concurrency: this.config.PUSH_FOLLOW_CONCURRENCY,
      },
    );
    await this.resume().catch((error: unknown) =>
      this.logger.warn({ err: error }, 'could not resume push notifications of open tasks'),
    );
  }

  private async resume(): Promise<void> {
    const since = new Date(Date.now() - RESUME_WINDOW_MS);
    for (const jobId of await this.configs.tasksToFollow(since)) await this.follows.follow({ jobId });
  }

  async onApplicationShutdown(): Promise<void> {
    this.follower.interrupt();
    await this.consumer?.close();
  }
}
