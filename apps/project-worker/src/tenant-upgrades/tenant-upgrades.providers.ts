import { Logger } from '@nestjs/common';
import { ProjectRecordRepository } from '@suite/project-runtime';
import { createQueue, QueueName } from '@suite/queue';
import { PROJECT_WORKER_CONFIG, type ProjectWorkerConfig } from '../project-worker.config.js';
import { WorkerResources } from '../worker-resources.js';
import { PrismaTenantUpgradeStore } from './tenant-upgrade.store.js';
import { TenantUpgradeRequests } from './tenant-upgrade.requests.js';
import { TenantUpgradeSweep } from './tenant-upgrade-sweep.service.js';

/** What the tenant upgrade sweep is built from: the main database, the tenant servers, the budget. */
export const tenantUpgradesProviders = [
  {
    provide: TenantUpgradeSweep,
    inject: [WorkerResources, ProjectRecordRepository, PROJECT_WORKER_CONFIG],
    useFactory: (r: WorkerResources, records: ProjectRecordRepository, config: ProjectWorkerConfig) => {
      const logger = new Logger('tenant-upgrades');
      return new TenantUpgradeSweep({
        databaseUrl: config.DATABASE_URL,
        servers: r.tenantServers,
        store: new PrismaTenantUpgradeStore(r.db, records),
        budget: r.connectionBudget,
        log: { log: (text) => logger.log(text), warn: (text) => logger.warn(text) },
      });
    },
  },
  {
    provide: TenantUpgradeRequests,
    inject: [WorkerResources],
    useFactory: (r: WorkerResources) => {
      const queue = createQueue(QueueName.TenantUpgrades, r.redis);
      queue.on('error', () => undefined);
      return new TenantUpgradeRequests(queue);
    },
  },
];
