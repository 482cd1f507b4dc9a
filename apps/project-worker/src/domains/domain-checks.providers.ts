import { Logger } from '@nestjs/common';
import { CustomDomainRecordRepository } from '@suite/project-runtime';
import { createQueue, QueueName } from '@suite/queue';
import { PROJECT_WORKER_CONFIG, type ProjectWorkerConfig } from '../project-worker.config.js';
import { WorkerResources } from '../worker-resources.js';
import {
  CustomDomainsRepository,
  DomainMisses,
  PrismaCustomDomainsRepository,
  RedisDomainMisses,
} from './custom-domains.repository.js';
import { DomainRecheckSchedule } from './domain-recheck.schedule.js';
import { DomainTxtLookup } from './domain-txt-lookup.js';
import { DomainVerificationService } from './domain-verification.service.js';

/** What the custom-domain checks are built from: the main database, Redis and DNS. */
export const domainChecksProviders = [
  {
    provide: CustomDomainsRepository,
    inject: [WorkerResources],
    useFactory: (r: WorkerResources) =>
      new PrismaCustomDomainsRepository(r.db, new CustomDomainRecordRepository(r.db)),
  },
  {
    provide: DomainMisses,
    inject: [WorkerResources],
    useFactory: (r: WorkerResources) => new RedisDomainMisses(r.redis),
  },
  {
    provide: DomainTxtLookup,
    inject: [PROJECT_WORKER_CONFIG],
    useFactory: (config: ProjectWorkerConfig) => new DomainTxtLookup(config.DOMAIN_DNS_SERVERS),
  },
  {
    provide: DomainVerificationService,
    inject: [CustomDomainsRepository, DomainMisses, DomainTxtLookup, PROJECT_WORKER_CONFIG],
    useFactory: (
      domains: CustomDomainsRepository,
      misses: DomainMisses,
      dns: DomainTxtLookup,
      config: ProjectWorkerConfig,
    ) =>
      new DomainVerificationService(domains, misses, dns, {
        verifiedByAdmin: config.DOMAIN_VERIFIED_BY_ADMIN,
        log: new Logger('domains'),
      }),
  },
  {
    provide: DomainRecheckSchedule,
    inject: [WorkerResources, PROJECT_WORKER_CONFIG],
    useFactory: (r: WorkerResources, config: ProjectWorkerConfig) => {
      const queue = createQueue(QueueName.DomainRechecks, r.redis);
      queue.on('error', () => undefined);
      return new DomainRecheckSchedule(queue, config.DOMAIN_RECHECK_INTERVAL_MS);
    },
  },
];
