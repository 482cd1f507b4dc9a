import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { RunnerJobsConnections } from '@suite/jobs';
import { createQueue, QueueName, type TypedQueue } from '@suite/queue';
import { createHash } from 'node:crypto';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import type { StreamResponse } from './a2a.types.js';

/**
 * The push-notifications queue, producer side: one BullMQ job per config and task status, for the
 * push worker (apps/push-worker) to POST, retried with backoff.
 */
@Injectable()
export class PushNotificationQueue implements OnApplicationShutdown {
  private readonly queue: TypedQueue<typeof QueueName.PushNotifications>;

  constructor(connections: RunnerJobsConnections, @Inject(AGENT_GATEWAY_CONFIG) config: AgentGatewayConfig) {
    this.queue = createQueue(QueueName.PushNotifications, connections.redis, {
      defaultJobOptions: {
        attempts: config.PUSH_ATTEMPTS,
        backoff: { type: 'exponential', delay: 1_000 },
        // Kept a while: their ids keep a restarted gateway from sending a notification twice.
        removeOnComplete: { age: 24 * 3600, count: 100_000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
    this.queue.on('error', () => undefined);
  }

  /** The id makes replicas that all saw the same change, and a restarted gateway, send it once. */
  async add(jobId: string, configId: string, status: string, event: StreamResponse): Promise<void> {
    const queueId = createHash('sha256').update(`${jobId}\n${configId}\n${status}`).digest('hex');
    await this.queue.add('deliver', { configId, jobId, event, trace: {} }, { jobId: `push-${queueId}` });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
