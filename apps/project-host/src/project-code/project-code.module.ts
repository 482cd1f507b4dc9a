import { Module } from '@nestjs/common';
import {
  ActiveDeployments,
  PROJECT_RUNTIME_PROVIDERS,
  ProjectMailBudget,
  ProjectSandboxes,
} from '@suite/project-runtime';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { PlatformResources } from '../platform/platform-resources.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { PushStreamController } from '../project-effects/push-stream.controller.js';
import { PushStreamRegistry, RedisPushStreamRegistry } from '../project-effects/push-stream-registry.js';
import { PushStreams } from '../project-effects/push-streams.service.js';
import { AuthRateLimits } from '../user-auth/limits/auth-rate-limits.js';
import { UserAuthModule } from '../user-auth/user-auth.module.js';
import { DeploymentsController } from './deployments.controller.js';
import { DeploymentsRepository, PrismaDeploymentsRepository } from './deployments.repository.js';
import { DeploymentsService } from './deployments.service.js';
import { ProjectApiController } from './project-api.controller.js';
import { ProjectCompiler } from './project-compiler.js';

/**
 * Project code on the host: deploy (compile, validate) and `/api/*`, run through
 * @suite/project-runtime (the sandboxes and the context's services). Hooks and jobs run in
 * apps/project-worker, with the same runtime. Which bodies its routes read (deploy archives, the
 * project's own routes) is ../http/request-bodies.ts, set up in main.ts.
 */
@Module({
  imports: [UserAuthModule],
  // The push stream is a static route: it wins over the API catch-all whatever the order.
  controllers: [DeploymentsController, PushStreamController, ProjectApiController],
  providers: [
    {
      provide: DeploymentsRepository,
      inject: [PlatformResources],
      useFactory: (r: PlatformResources): DeploymentsRepository => new PrismaDeploymentsRepository(r.db),
    },
    DeploymentsService,
    ProjectCompiler,
    PushStreams,
    {
      provide: PushStreamRegistry,
      inject: [PlatformResources, PROJECT_HOST_CONFIG],
      useFactory: (r: PlatformResources, config: ProjectHostConfig): PushStreamRegistry =>
        new RedisPushStreamRegistry(r.redis, config.REDIS_URL),
    },
    ...PROJECT_RUNTIME_PROVIDERS,
    // ctx.email.send counts in the hourly bulk budget the welcome mails use.
    {
      provide: ProjectMailBudget,
      inject: [AuthRateLimits],
      useFactory: (limits: AuthRateLimits): ProjectMailBudget => ({
        take: (projectId, mail) => limits.takeMail(projectId, mail),
      }),
    },
  ],
  // /mcp (../mcp) runs tools in the same sandboxes, from the same active deployments.
  exports: [ActiveDeployments, ProjectSandboxes],
})
export class ProjectCodeModule {}
