import { Module, type DynamicModule } from '@nestjs/common';
import { SUITE_VERSION } from '@suite/config';
import {
  A2aConversationRepository,
  A2aTaskViews,
  JobEventsHub,
  JobEventsPublisher,
  JobRepository,
  PrismaJobRepository,
} from '@suite/jobs';
import { ConfigValueModule, WorkerCoreModule } from '@suite/nest-core';
import { PushConfigRepository, PushFollowQueue } from '@suite/push-delivery';
import { PushDeliveryConsumer } from './push-delivery.consumer.js';
import { PushFollowConsumer } from './push-follow.consumer.js';
import { PushNotificationQueue } from './push-notification.queue.js';
import { PUSH_WORKER_CONFIG, type PushWorkerConfig } from './push-worker.config.js';
import { PushWorkerConnections } from './push-worker.connections.js';
import { TaskFollower } from './task-follower.js';

@Module({})
export class PushWorkerModule {
  static forRoot(config: PushWorkerConfig): DynamicModule {
    return {
      module: PushWorkerModule,
      imports: [
        ConfigValueModule.forRoot(PUSH_WORKER_CONFIG, config),
        WorkerCoreModule.forRoot('push-worker', SUITE_VERSION, config),
      ],
      providers: [
        PushWorkerConnections,
        {
          provide: PushConfigRepository,
          inject: [PushWorkerConnections],
          useFactory: (c: PushWorkerConnections) => new PushConfigRepository(c.db),
        },
        {
          provide: JobRepository,
          inject: [PushWorkerConnections],
          useFactory: (c: PushWorkerConnections): JobRepository =>
            new PrismaJobRepository(c.db, new JobEventsPublisher(c.redis)),
        },
        {
          provide: A2aTaskViews,
          inject: [PushWorkerConnections],
          useFactory: (c: PushWorkerConnections) =>
            new A2aTaskViews(new A2aConversationRepository(c.db), config.PUBLIC_RUNNER_URL),
        },
        {
          provide: JobEventsHub,
          inject: [PushWorkerConnections],
          useFactory: (c: PushWorkerConnections) => c.events,
        },
        {
          provide: PushFollowQueue,
          inject: [PushWorkerConnections],
          useFactory: (c: PushWorkerConnections) => new PushFollowQueue(c.redis),
        },
        PushNotificationQueue,
        TaskFollower,
        PushFollowConsumer,
        PushDeliveryConsumer,
      ],
    };
  }
}
