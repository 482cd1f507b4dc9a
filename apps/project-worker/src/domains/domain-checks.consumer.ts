import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { consumeQueue, QueueName, type QueueConsumer } from '@suite/queue';
import { PROJECT_WORKER_CONFIG, type ProjectWorkerConfig } from '../project-worker.config.js';
import { DomainRecheckSchedule } from './domain-recheck.schedule.js';
import { DomainVerificationService } from './domain-verification.service.js';

/** Checks asked for by the control plane run side by side (each is one DNS lookup). */
const CHECK_CONCURRENCY = 4;

/**
 * Consumes the custom-domain checks: `domain-checks` (one domain, queued by the control plane when
 * a domain is added or the admin asks) and `domain-rechecks` (every domain, added by the
 * re-check's job scheduler, which this worker keeps in step with DOMAIN_RECHECK_INTERVAL_MS).
 */
@Injectable()
export class DomainChecksConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('domains');
  private checks?: QueueConsumer<typeof QueueName.DomainChecks>;
  private rechecks?: QueueConsumer<typeof QueueName.DomainRechecks>;
  private stopping = false;

  constructor(
    @Inject(PROJECT_WORKER_CONFIG) private readonly config: ProjectWorkerConfig,
    private readonly domains: DomainVerificationService,
    private readonly schedule: DomainRecheckSchedule,
  ) {}

  onApplicationBootstrap(): void {
    const { REDIS_URL: redisUrl } = this.config;
    const onError = (error: Error) => this.logger.warn({ err: error.message }, 'domain checks worker error');
    this.checks = consumeQueue(
      QueueName.DomainChecks,
      {
        verify: async (job) => ({
          verified: (await this.domains.verify(job.data.domainId))?.verified ?? null,
        }),
      },
      { redisUrl, connectionName: 'project-worker-domain-checks', concurrency: CHECK_CONCURRENCY, onError },
    );
    this.rechecks = consumeQueue(
      QueueName.DomainRechecks,
      { recheck: () => this.domains.recheckAll(() => this.stopping) },
      { redisUrl, connectionName: 'project-worker-domain-rechecks', concurrency: 1, onError },
    );
    this.rechecks.worker.on('failed', (_job, error) =>
      this.logger.error({ err: error.message }, 'custom domain re-check failed'),
    );
    // Not awaited: with Redis away the boot goes on, and the scheduler is synced once it is back.
    void this.schedule.sync().then(
      () =>
        this.logger.log(
          this.schedule.everyMs > 0
            ? `custom domains re-checked every ${this.schedule.everyMs} ms`
            : 'custom domain re-check off (DOMAIN_RECHECK_INTERVAL_MS=0)',
        ),
      (error: Error) => this.logger.error({ err: error.message }, 'custom domain re-check not scheduled'),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    // A re-check in progress ends after the domain in hand, so shutting down never waits for DNS
    // lookups of every domain.
    this.stopping = true;
    await Promise.all([this.checks?.close(), this.rechecks?.close()]);
    await this.schedule.close();
  }
}
