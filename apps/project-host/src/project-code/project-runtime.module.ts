import { Global, Module } from '@nestjs/common';
import {
  PROJECT_DIRECTORY_PROVIDER,
  PROJECT_RUNTIME_CONFIG,
  ProjectDirectory,
  RuntimeResources,
} from '@suite/project-runtime';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { PlatformResources } from '../platform/platform-resources.js';

/**
 * What @suite/project-runtime needs of the host, for every module (the mail outbox and sealer of
 * PlatformModule use them too): the host's config, its connections, and the one ProjectDirectory that
 * the request path (ProjectResolver) and ctx.db (ProjectDatabase) share.
 */
@Global()
@Module({
  providers: [
    { provide: PROJECT_RUNTIME_CONFIG, useExisting: PROJECT_HOST_CONFIG },
    { provide: RuntimeResources, useExisting: PlatformResources },
    PROJECT_DIRECTORY_PROVIDER,
  ],
  exports: [PROJECT_RUNTIME_CONFIG, RuntimeResources, ProjectDirectory],
})
export class ProjectRuntimeHostModule {}
