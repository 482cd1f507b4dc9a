import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { ProjectDatabase } from '../project-effects/project-database.js';
import { ProjectEffects } from '../project-effects/project-effects.js';
import { ProjectJobs } from '../project-effects/project-jobs.js';
import { ProjectJobsQueue } from '../project-effects/project-jobs.queue.js';
import { ProjectJobsWorker } from '../project-effects/project-jobs.worker.js';
import { ProjectMail } from '../project-effects/project-mail.js';
import { ProjectPush } from '../project-effects/project-push.js';
import { PushStreamController } from '../project-effects/push-stream.controller.js';
import { UserAuthModule } from '../user-auth/user-auth.module.js';
import { ActiveDeployments } from './active-deployments.js';
import { DeploymentsController } from './deployments.controller.js';
import { DeploymentsService } from './deployments.service.js';
import { ProjectApiController } from './project-api.controller.js';
import { ProjectCompiler } from './project-compiler.js';
import { MAX_TOTAL_BYTES } from './project-files.js';
import { SandboxPool } from './sandbox/sandbox-pool.js';

/** Project code on the host: deploy (compile, validate), the sandboxes it runs in, `/api/*`, its ctx and jobs. */
@Module({
  imports: [UserAuthModule],
  // The push stream is a static route: it wins over the API catch-all whatever the order.
  controllers: [DeploymentsController, PushStreamController, ProjectApiController],
  providers: [
    ActiveDeployments,
    DeploymentsService,
    ProjectCompiler,
    SandboxPool,
    // What project code reaches through ctx (db, email, jobs, push) and the worker that runs its jobs.
    ProjectEffects,
    ProjectDatabase,
    ProjectMail,
    ProjectJobs,
    ProjectPush,
    ProjectJobsQueue,
    ProjectJobsWorker,
  ],
  exports: [ActiveDeployments, SandboxPool],
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
