import { Module } from '@nestjs/common';
import { ApiKeyService, JobEventsPublisher, JobService, ModelRegistry } from '@suite/jobs';
import { JOBS_API_CONFIG } from '../app.tokens.js';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import type { JobsApiConfig } from '../jobs-api.config.js';
import { JobScriptController } from './job-script.controller.js';
import { JobScriptService } from './job-script.service.js';
import { JobStreamService } from './job-stream.service.js';
import { JobsController } from './jobs.controller.js';
import { ModelsController } from './models.controller.js';
import { RunnerResources } from './runner-resources.js';

@Module({
  controllers: [JobsController, JobScriptController, ModelsController],
  providers: [
    RunnerResources,
    ApiKeyGuard,
    JobStreamService,
    JobScriptService,
    {
      provide: ModelRegistry,
      inject: [JOBS_API_CONFIG],
      useFactory: (config: JobsApiConfig) =>
        new ModelRegistry({
          defaultModel: config.DEFAULT_MODEL,
          llmModels: config.llm.models,
          llmDefaultModel: config.llm.defaultModel,
        }),
    },
    {
      provide: ApiKeyService,
      inject: [RunnerResources, JOBS_API_CONFIG],
      useFactory: (resources: RunnerResources, config: JobsApiConfig) =>
        new ApiKeyService(resources.db, config.API_KEYS),
    },
    {
      provide: JobService,
      inject: [RunnerResources, ModelRegistry, JOBS_API_CONFIG],
      useFactory: (resources: RunnerResources, models: ModelRegistry, config: JobsApiConfig) =>
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
  exports: [ApiKeyService, JobService, ModelRegistry],
})
export class JobsModule {}
