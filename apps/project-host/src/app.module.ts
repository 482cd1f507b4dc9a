import { Module, type DynamicModule } from '@nestjs/common';
import { SUITE_VERSION } from '@suite/config';
import { ConfigValueModule, CoreModule } from '@suite/nest-core';
import { PROJECT_HOST_CONFIG } from './app.tokens.js';
import { ControlPlaneModule } from './control-plane/control-plane.module.js';
import { DashboardModule } from './dashboard/dashboard.module.js';
import { McpModule } from './mcp/mcp.module.js';
import { PlatformModule } from './platform/platform.module.js';
import { ProjectCodeModule } from './project-code/project-code.module.js';
import { ProjectRuntimeHostModule } from './project-code/project-runtime.module.js';
import type { ProjectHostConfig } from './project-host.config.js';
import { HostQueueHealth } from './queue-health.extras.js';
import { UserAuthModule } from './user-auth/user-auth.module.js';

@Module({})
export class AppModule {
  static forRoot(config: ProjectHostConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigValueModule.forRoot(PROJECT_HOST_CONFIG, config),
        CoreModule.forRoot({
          service: 'project-host',
          version: SUITE_VERSION,
          databaseUrl: config.DATABASE_URL,
          redisUrl: config.REDIS_URL,
          logLevel: config.LOG_LEVEL,
          logFormat: config.LOG_FORMAT,
          metrics: config.METRICS_ENABLED,
          metricsToken: config.METRICS_TOKEN,
          healthExtras: { useClass: HostQueueHealth },
        }),
        PlatformModule,
        ProjectRuntimeHostModule,
        ControlPlaneModule,
        DashboardModule,
        UserAuthModule,
        ProjectCodeModule,
        McpModule,
      ],
    };
  }
}
