import { Global, Module } from '@nestjs/common';
import { PROJECT_RUNTIME_CONFIG, RuntimeResources } from '@suite/project-runtime';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { PlatformResources } from '../platform/platform-resources.js';

/**
 * What @suite/project-runtime needs of the host, for every module (the mail outbox and sealer of
 * PlatformModule use them too): the host's config and its connections.
 */
@Global()
@Module({
  providers: [
    { provide: PROJECT_RUNTIME_CONFIG, useExisting: PROJECT_HOST_CONFIG },
    { provide: RuntimeResources, useExisting: PlatformResources },
  ],
  exports: [PROJECT_RUNTIME_CONFIG, RuntimeResources],
})
export class ProjectRuntimeHostModule {}
