import { ProjectRecordRepository } from '@suite/project-runtime';
import { PlatformResources } from '../platform/platform-resources.js';
import { PrismaProjectsRepository, ProjectsRepository } from './projects.repository.js';
import { TenantDatabases } from './tenant-databases.js';
import { PrismaTenantPlacementRepository, TenantPlacementRepository } from './tenant-placement.repository.js';

/**
 * The control plane's repositories and adapters, built from the host's connections: the only place
 * in the control plane that sees PlatformResources.
 */
export const controlPlaneRepositoryProviders = [
  {
    provide: ProjectsRepository,
    inject: [PlatformResources, ProjectRecordRepository],
    useFactory: (r: PlatformResources, records: ProjectRecordRepository): ProjectsRepository =>
      new PrismaProjectsRepository(r.db, records),
  },
  {
    provide: TenantPlacementRepository,
    inject: [PlatformResources, ProjectRecordRepository],
    useFactory: (r: PlatformResources, records: ProjectRecordRepository): TenantPlacementRepository =>
      new PrismaTenantPlacementRepository(r.db, records),
  },
  {
    provide: TenantDatabases,
    inject: [PlatformResources],
    useFactory: (r: PlatformResources) =>
      new TenantDatabases(r.tenantServers, r.tenantClients, r.connectionBudget),
  },
];
