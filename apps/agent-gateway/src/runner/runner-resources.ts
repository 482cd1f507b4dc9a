import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { MainClient } from '@suite/db';
import { RunnerJobsConnections } from '@suite/jobs';
import { createQueue, QueueName, type TypedQueue } from '@suite/queue';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';

/**
 * What the A2A push-notification service still takes raw (its configs table and its queue), on the
 * job service's connections. Only that service uses it; it goes when push delivery moves to a
 * worker app behind repositories of its own.
 */
@Injectable()
export class RunnerResources implements OnApplicationShutdown {
  readonly db: MainClient;
  readonly pushQueue: TypedQueue<typeof QueueName.PushNotifications>;

  constructor(connections: RunnerJobsConnections, @Inject(AGENT_GATEWAY_CONFIG) config: AgentGatewayConfig) {
    this.db = connections.db;
    this.pushQueue = createQueue(QueueName.PushNotifications, connections.redis, {
      defaultJobOptions: {
        attempts: config.PUSH_ATTEMPTS,
        backoff: { type: 'exponential', delay: 1_000 },
        // Kept a while: their ids keep a restarted gateway from sending a notification twice.
        removeOnComplete: { age: 24 * 3600, count: 100_000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
    this.pushQueue.on('error', () => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pushQueue.close().catch(() => undefined);
  }
}
