import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { StreamResponse } from '@suite/jobs';
import { createQueue, QueueName, type TypedQueue } from '@suite/queue';
import { createHash } from 'node:crypto';
import { PushDeliveryPacer } from './push-delivery-pacer.js';
import { PUSH_WORKER_CONFIG, type PushWorkerConfig } from './push-worker.config.js';
import { PushWorkerConnections } from './push-worker.connections.js';

/**
 * The push-notifications queue, producer side: one BullMQ job per config and task status, filled
 * by the task follower and POSTed by the delivery consumer (of any push worker), retried with
 * backoff and paced per owner.
 */
@Injectable()
export class PushNotificationQueue implements OnApplicationShutdown {
  private readonly queue: TypedQueue<typeof QueueName.PushNotifications>;
  private readonly pacer: PushDeliveryPacer;
  private readonly logger = new Logger('a2a-push');

  constructor(connections: PushWorkerConnections, @Inject(PUSH_WORKER_CONFIG) config: PushWorkerConfig) {
    this.queue = createQueue(QueueName.PushNotifications, connections.redis, {
      defaultJobOptions: {
        attempts: config.PUSH_ATTEMPTS,
        backoff: { type: 'exponential', delay: 1_000 },
        // Kept a while: their ids keep a follow that starts again from sending a notification twice.
        removeOnComplete: { age: 24 * 3600, count: 100_000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
    this.queue.on('error', () => undefined);
    this.pacer = new PushDeliveryPacer(connections.redis, {
      perMinute: config.PUSH_DELIVERIES_PER_OWNER_PER_MINUTE,
      burst: config.PUSH_DELIVERY_BURST,
      maxDelayMs: config.PUSH_DELIVERY_MAX_DELAY_S * 1000,
    });
  }

  /** The id makes a change seen twice (a follow tried again, a worker restarted) go out once. */
  async add(
    owner: string,
    jobId: string,
    configId: string,
    status: string,
    event: StreamResponse,
  ): Promise<void> {
    const queueId = createHash('sha256').update(`${jobId}\n${configId}\n${status}`).digest('hex');
    // Another replica (or this one, before a restart) queued it already: no second slot of the pace.
    if (await this.queue.getJob(`push-${queueId}`)) return;
    const delay = await this.pacer.reserve(owner);
    if (delay === null) {
      this.logger.warn(
        { owner, jobId, configId, status },
        'push notification dropped: the owner has more webhook deliveries waiting than PUSH_DELIVERY_MAX_DELAY_S allows',
      );
      return;
    }
    await this.queue.add(
      'deliver',
      { configId, jobId, event, trace: {} },
      { jobId: `push-${queueId}`, ...(delay > 0 ? { delay } : {}) },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
