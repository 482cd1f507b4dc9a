import type { FactoryProvider } from '@nestjs/common';
import { PROJECT_RUNTIME_CONFIG, type ProjectRuntimeConfig } from '../runtime.config.js';
import { RuntimeResources } from '../runtime.ports.js';
import { ProjectDirectory } from './project-directory.js';
import { ProjectRecordRepository } from './project-record.repository.js';

/**
 * The process's one ProjectDirectory, built from the app's connections (RuntimeResources) and
 * config. The app lists it once, in a module every user of it sees (the host's request path and
 * ctx.db must share the instance, and so its cache and its subscription).
 */
export const PROJECT_DIRECTORY_PROVIDER: FactoryProvider<ProjectDirectory> = {
  provide: ProjectDirectory,
  inject: [RuntimeResources, PROJECT_RUNTIME_CONFIG],
  useFactory: (resources: RuntimeResources, config: ProjectRuntimeConfig) =>
    new ProjectDirectory({
      db: resources.db,
      tenantServers: resources.tenantServers,
      tenantClients: resources.tenantClients,
      redisUrl: config.REDIS_URL,
      connectionName: 'project-directory',
    }),
};

/** The one writer of the `projects` table (ProjectRecordRepository), on the app's main database. */
export const PROJECT_RECORD_REPOSITORY_PROVIDER: FactoryProvider<ProjectRecordRepository> = {
  provide: ProjectRecordRepository,
  inject: [RuntimeResources],
  useFactory: (resources: RuntimeResources) => new ProjectRecordRepository(resources.db),
};
