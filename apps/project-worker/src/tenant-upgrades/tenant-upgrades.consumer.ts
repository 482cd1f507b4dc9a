import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { TenantSweepResult } from '@suite/db';
import { consumeQueue, QueueName, type QueueConsumer, type TypedJob } from '@suite/queue';
import { PROJECT_WORKER_CONFIG, type ProjectWorkerConfig } from '../project-worker.config.js';
import { TenantUpgradeRequests } from './tenant-upgrade.requests.js';
import { TenantUpgradeSweep } from './tenant-upgrade-sweep.service.js';

/**
 * Consumes `tenant-upgrades`: each job is one sweep of every tenant database behind, its progress
 * kept on the job (the control plane's GET /v1/tenant-servers reads it). The queue runs one sweep
 * at a time across replicas. With TENANT_UPGRADES_ON_BOOT a booting worker asks for a sweep
 * (replicas booting together ask once); POST /v1/tenant-servers/upgrade asks for one too.
 */
@Injectable()
export class TenantUpgradesConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('tenant-upgrades');
  private consumer?: QueueConsumer<typeof QueueName.TenantUpgrades>;
  private stopping = false;

  constructor(
    @Inject(PROJECT_WORKER_CONFIG) private readonly config: ProjectWorkerConfig,
    private readonly sweep: TenantUpgradeSweep,
    private readonly requests: TenantUpgradeRequests,
  ) {}

  onApplicationBootstrap(): void {
    this.consumer = consumeQueue(
      QueueName.TenantUpgrades,
      { sweep: (job) => this.run(job) },
      {
        redisUrl: this.config.REDIS_URL,
        connectionName: 'project-worker-tenant-upgrades',
        concurrency: 1,
        onError: (error) => this.logger.warn({ err: error.message }, 'tenant-upgrades worker error'),
      },
    );
    this.consumer.worker.on('failed', (_job, error) =>
      this.logger.error({ err: error.message }, 'tenant upgrades stopped; the next sweep goes on'),
    );
    // Not awaited: with Redis away the boot goes on.
    void this.requests
      .prepare(this.config.TENANT_UPGRADES_ON_BOOT)
      .catch((error: Error) =>
        this.logger.error({ err: error.message }, 'tenant upgrade sweep not requested'),
      );
  }

  run(job: TypedJob<typeof QueueName.TenantUpgrades>): Promise<TenantSweepResult> {
    return this.sweep.run(
      () => this.stopping,
      (servers) => void job.updateProgress(servers).catch(() => undefined),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    // A sweep in progress ends after the tenant in hand: shutting down never waits for all of them.
    this.stopping = true;
    await this.consumer?.close();
    await this.requests.close();
  }
}
