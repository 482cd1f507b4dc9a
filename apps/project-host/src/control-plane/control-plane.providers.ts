import { CustomDomainRecordRepository, ProjectRecordRepository } from '@suite/project-runtime';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { PlatformResources } from '../platform/platform-resources.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { BullDomainChecksQueue, DomainChecksQueue } from './domain-checks.queue.js';
import { MailDetailRepository, PrismaMailDetailRepository } from './mail-detail.repository.js';
import { MailLogReader, PrismaMailLogReader } from './mail-log.reader.js';
import { PrismaProjectsRepository, ProjectsRepository } from './projects.repository.js';
import { TenantDatabases } from './tenant-databases.js';
import { PrismaTenantPlacementRepository, TenantPlacementRepository } from './tenant-placement.repository.js';
import { BullTenantUpgradesQueue, TenantUpgradesQueue } from './tenant-upgrades.queue.js';

/**
 * The control plane's repositories and adapters, built from the host's connections: the only place
 * in the control plane that sees PlatformResources.
 */
export const controlPlaneRepositoryProviders = [
  {
    provide: ProjectsRepository,
    inject: [PlatformResources, ProjectRecordRepository],
    useFactory: (r: PlatformResources, records: ProjectRecordRepository): ProjectsRepository =>
      new PrismaProjectsRepository(r.db, records, new CustomDomainRecordRepository(r.db)),
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
  {
    provide: MailLogReader,
    inject: [PlatformResources],
    useFactory: (r: PlatformResources): MailLogReader => new PrismaMailLogReader(r.db),
  },
  {
    provide: MailDetailRepository,
    inject: [PlatformResources],
    useFactory: (r: PlatformResources): MailDetailRepository => new PrismaMailDetailRepository(r.db),
  },
  {
    provide: DomainChecksQueue,
    inject: [PlatformResources, PROJECT_HOST_CONFIG],
    useFactory: (r: PlatformResources, config: ProjectHostConfig): DomainChecksQueue =>
      new BullDomainChecksQueue(r.domainCheckQueue, config.REDIS_URL),
  },
  {
    provide: TenantUpgradesQueue,
    inject: [PlatformResources, PROJECT_HOST_CONFIG],
    useFactory: (r: PlatformResources, config: ProjectHostConfig): TenantUpgradesQueue =>
      new BullTenantUpgradesQueue(r.tenantUpgradeQueue, config.REDIS_URL),
  },
];
