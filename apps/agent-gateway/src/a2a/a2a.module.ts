import { Module } from '@nestjs/common';
import { RunnerJobsConnections } from '@suite/jobs';
import { PushConfigRepository, PushFollowQueue } from '@suite/push-delivery';
import { GatewayAuth } from '../runner/gateway-auth.js';
import { A2aMethods } from './a2a-methods.js';
import { A2aRestController } from './a2a-rest.controller.js';
import { A2aPushService } from './a2a-push.service.js';
import { A2aTasksService } from './a2a-tasks.service.js';
import { A2aController } from './a2a.controller.js';
import { TaskStreamer } from './task-stream.js';

@Module({
  controllers: [A2aController, A2aRestController],
  providers: [
    GatewayAuth,
    {
      provide: PushConfigRepository,
      inject: [RunnerJobsConnections],
      useFactory: (c: RunnerJobsConnections) => new PushConfigRepository(c.db),
    },
    {
      provide: PushFollowQueue,
      inject: [RunnerJobsConnections],
      useFactory: (c: RunnerJobsConnections) => new PushFollowQueue(c.redis),
    },
    A2aTasksService,
    A2aPushService,
    TaskStreamer,
    A2aMethods,
  ],
  exports: [GatewayAuth],
})
export class A2aModule {}
