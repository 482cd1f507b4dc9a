import { Module } from '@nestjs/common';
import { RunnerJobsConnections } from '@suite/jobs';
import { GatewayAuth } from '../runner/gateway-auth.js';
import { A2aMethods } from './a2a-methods.js';
import { A2aRestController } from './a2a-rest.controller.js';
import { A2aContextRepository } from './a2a-context.repository.js';
import { A2aPushService } from './a2a-push.service.js';
import { A2aTasksService } from './a2a-tasks.service.js';
import { A2aController } from './a2a.controller.js';
import { TaskStreamer } from './task-stream.js';

@Module({
  controllers: [A2aController],
  providers: [
    GatewayAuth,
    {
      provide: A2aContextRepository,
      inject: [RunnerJobsConnections],
      useFactory: (c: RunnerJobsConnections) => new A2aContextRepository(c.db),
    },
    A2aTasksService,
    A2aPushService,
    TaskStreamer,
    A2aMethods,
    A2aRestController,
  ],
  exports: [GatewayAuth],
})
export class A2aModule {}
