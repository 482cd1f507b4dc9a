import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { UserAuthModule } from '../user-auth/user-auth.module.js';
import { ActiveDeployments } from './active-deployments.js';
import { DeploymentsController } from './deployments.controller.js';
import { DeploymentsService } from './deployments.service.js';
import { ProjectApiController } from './project-api.controller.js';
import { ProjectCompiler } from './project-compiler.js';
import { MAX_TOTAL_BYTES } from './project-files.js';
import { SandboxPool } from './sandbox/sandbox-pool.js';

/** Project code on the host: deploy (compile, validate), the sandboxes it runs in, and `/api/*`. */
@Module({
  imports: [UserAuthModule],
  controllers: [DeploymentsController, ProjectApiController],
  providers: [ActiveDeployments, DeploymentsService, ProjectCompiler, SandboxPool],
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
