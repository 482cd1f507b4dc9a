import { Global, Module } from '@nestjs/common';
import { ApiKeyService, JobEventsPublisher, JobService, ModelRegistry } from '@suite/jobs';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import { RunnerResources } from './runner-resources.js';

/** The shared job service and API keys, wired the same way jobs-api wires them for /v1. */
@Global()
@Module({
  providers: [
    RunnerResources,
    {
      provide: ModelRegistry,
      inject: [AGENT_GATEWAY_CONFIG],
      useFactory: (config: AgentGatewayConfig) =>
        new ModelRegistry({
          defaultModel: config.DEFAULT_MODEL,
          llmModels: config.llm.models,
          llmDefaultModel: config.llm.defaultModel,
        }),
    },
    {
      provide: ApiKeyService,
      inject: [RunnerResources, AGENT_GATEWAY_CONFIG],
      useFactory: (resources: RunnerResources, config: AgentGatewayConfig) =>
        new ApiKeyService(resources.db, config.API_KEYS),
    },
    {
      provide: JobService,
      inject: [RunnerResources, ModelRegistry, AGENT_GATEWAY_CONFIG],
      useFactory: (resources: RunnerResources, models: ModelRegistry, config: AgentGatewayConfig) =>
        new JobService({
          db: resources.db,
          queue: resources.queue,
          models,
          store: resources.artifacts,
          events: new JobEventsPublisher(resources.redis),
          hostedBrowser: Boolean(config.HOSTED_BROWSER_WS_URL),
        }),
    },
  ],
  exports: [RunnerResources, ApiKeyService, JobService, ModelRegistry],
})
export class RunnerModule {}
