import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { PROJECT_RUNTIME_PROVIDERS, ProjectMailBudget } from '@suite/project-runtime';
import { PushStreamController } from '../project-effects/push-stream.controller.js';
import { AuthRateLimits } from '../user-auth/limits/auth-rate-limits.js';
import { UserAuthModule } from '../user-auth/user-auth.module.js';
import { DeploymentsController } from './deployments.controller.js';
import { DeploymentsRepository, PrismaDeploymentsRepository } from './deployments.repository.js';
import { DeploymentsService } from './deployments.service.js';
import { ProjectApiController } from './project-api.controller.js';
import { ProjectCompiler } from './project-compiler.js';
import { MAX_TOTAL_BYTES } from './project-files.js';

/**
 * Project code on the host: deploy (compile, validate) and `/api/*`, run through
 * @suite/project-runtime (the sandboxes and the context's services). Hooks and jobs run in
 * apps/project-worker, with the same runtime.
 */
@Module({
  imports: [UserAuthModule],
  // The push stream is a static route: it wins over the API catch-all whatever the order.
  controllers: [DeploymentsController, PushStreamController, ProjectApiController],
  providers: [
    { provide: DeploymentsRepository, useClass: PrismaDeploymentsRepository },
    DeploymentsService,
    ProjectCompiler,
    ...PROJECT_RUNTIME_PROVIDERS,
    // ctx.email.send counts against the hourly mail budget the auth mails use.
    {
      provide: ProjectMailBudget,
      inject: [AuthRateLimits],
      useFactory: (limits: AuthRateLimits): ProjectMailBudget => ({
        take: (projectId) => limits.takeProjectMail(projectId),
      }),
    },
  ],
})
export class ProjectCodeModule implements OnModuleInit {
  constructor(private readonly http: HttpAdapterHost) {}

  onModuleInit(): void {
    // Deploy archives: raw bytes with their own size limit (JSON keeps the host's 64 KB limit).
    const fastify = this.http.httpAdapter.getInstance<FastifyInstance>();
    if (fastify.hasContentTypeParser('application/gzip')) return;
    fastify.addContentTypeParser(
      ['application/gzip', 'application/x-gzip', 'application/octet-stream', 'application/x-tar+gzip'],
      { parseAs: 'buffer', bodyLimit: MAX_TOTAL_BYTES },
      (_request, body, done) => done(null, body),
    );
  }
}
