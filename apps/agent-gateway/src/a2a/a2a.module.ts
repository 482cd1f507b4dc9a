import { Module } from '@nestjs/common';
import { GatewayAuth } from '../runner/gateway-auth.js';
import { TaskEvents } from '../runner/task-events.js';
import { A2aPushService } from './a2a-push.service.js';
import { A2aTasksService } from './a2a-tasks.service.js';
import { A2aController } from './a2a.controller.js';
import { TaskStreamer } from './task-stream.js';

@Module({
  controllers: [A2aController],
  providers: [GatewayAuth, TaskEvents, A2aTasksService, A2aPushService, TaskStreamer],
  exports: [GatewayAuth, TaskEvents],
})
export class A2aModule {}
