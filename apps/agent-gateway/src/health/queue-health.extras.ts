import { Inject, Injectable } from '@nestjs/common';
import { QueueHealth, QueueName } from '@suite/queue';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';

/**
 * The gateway's /health carries a snapshot of the push-follows queue it fills (`queues`), whose
 * `workers` counts the push workers connected.
 */
@Injectable()
export class GatewayQueueHealth extends QueueHealth {
  constructor(@Inject(AGENT_GATEWAY_CONFIG) config: AgentGatewayConfig) {
    super(config.REDIS_URL, [QueueName.PushFollows], 'agent-gateway:health');
  }
}
