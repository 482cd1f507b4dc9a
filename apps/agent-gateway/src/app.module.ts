import { Module, type DynamicModule } from '@nestjs/common';
import { SUITE_VERSION } from '@suite/config';
import { ConfigValueModule, CoreModule } from '@suite/nest-core';
import { A2aModule } from './a2a/a2a.module.js';
import type { AgentGatewayConfig } from './agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from './app.tokens.js';
import { GatewayQueueHealth } from './health/queue-health.extras.js';
import { McpModule } from './mcp/mcp.module.js';
import { RunnerModule } from './runner/runner.module.js';

export { AGENT_GATEWAY_CONFIG };

@Module({})
export class AppModule {
  static forRoot(config: AgentGatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigValueModule.forRoot(AGENT_GATEWAY_CONFIG, config),
        CoreModule.forRoot({
          service: 'agent-gateway',
          version: SUITE_VERSION,
          databaseUrl: config.DATABASE_URL,
          redisUrl: config.REDIS_URL,
          logLevel: config.LOG_LEVEL,
          logFormat: config.LOG_FORMAT,
          metrics: config.METRICS_ENABLED,
          metricsToken: config.METRICS_TOKEN,
          healthExtras: { useClass: GatewayQueueHealth },
        }),
        RunnerModule,
        A2aModule,
        McpModule,
      ],
    };
  }
}
