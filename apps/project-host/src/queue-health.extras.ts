import { Inject, Injectable } from '@nestjs/common';
import { QueueHealth, QueueName } from '@suite/queue';
import { PROJECT_HOST_CONFIG } from './app.tokens.js';
import type { ProjectHostConfig } from './project-host.config.js';

/**
 * The host's /health carries a snapshot of the queues it fills (`queues`), whose `workers` counts
 * the project workers connected to each: mail, auth-hooks, project-jobs, and the chores it asks of
 * them (domain-checks, tenant-upgrades).
 */
@Injectable()
export class HostQueueHealth extends QueueHealth {
  constructor(@Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig) {
    super(
      config.REDIS_URL,
      [
        QueueName.Mail,
        QueueName.AuthHooks,
        QueueName.ProjectJobs,
        QueueName.DomainChecks,
        QueueName.TenantUpgrades,
      ],
      'project-host:health',
    );
  }
}
