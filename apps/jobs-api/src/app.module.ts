import { Module, type DynamicModule } from '@nestjs/common';
import { SUITE_VERSION } from '@suite/config';
import { ConfigValueModule, CoreModule } from '@suite/nest-core';
import { JOBS_API_CONFIG } from './app.tokens.js';
import { QueueHealthExtras } from './health/queue-health.extras.js';
import { JobsModule } from './jobs/jobs.module.js';
import { DocsModule } from './docs/docs.module.js';
import { SuitesModule } from './suites/suites.module.js';
import type { JobsApiConfig } from './jobs-api.config.js';

@Module({})
export class AppModule {
  static forRoot(config: JobsApiConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigValueModule.forRoot(JOBS_API_CONFIG, config),
        CoreModule.forRoot({
          service: 'jobs-api',
          version: SUITE_VERSION,
          databaseUrl: config.DATABASE_URL,
          redisUrl: config.REDIS_URL,
          logLevel: config.LOG_LEVEL,
          logFormat: config.LOG_FORMAT,
          metrics: config.METRICS_ENABLED,
          metricsToken: config.METRICS_TOKEN,
          healthExtras: { useClass: QueueHealthExtras },
        }),
        JobsModule,
        SuitesModule,
        DocsModule,
      ],
    };
  }
}
