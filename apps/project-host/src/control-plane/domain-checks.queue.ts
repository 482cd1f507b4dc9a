import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { QueueName } from '@suite/queue';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { PlatformResources } from '../platform/platform-resources.js';
import { QueueWaiter, type WaitOutcome } from '../platform/queue-waiter.js';
import type { ProjectHostConfig } from '../project-host.config.js';

/** The project worker looks custom domains' TXT records up; the control plane asks it to. */
export abstract class DomainChecksQueue {
  /**
   * Queues a check of the domain and waits up to `waitMs` for a worker to have done it; a check
   * not done by then stays queued (the answer shows the domain as it was).
   */
  abstract checkNow(domainId: string, waitMs: number): Promise<WaitOutcome>;
}

/** BullMQ `domain-checks`: one check per domain at a time (a second ask joins the queued one). */
@Injectable()
export class BullDomainChecksQueue extends DomainChecksQueue implements OnApplicationShutdown {
  private readonly waiter: QueueWaiter;

  constructor(
    private readonly resources: PlatformResources,
    @Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig,
  ) {
    super();
    this.waiter = new QueueWaiter(config.REDIS_URL, QueueName.DomainChecks, 'project-host:domain-checks');
  }

  async checkNow(domainId: string, waitMs: number): Promise<WaitOutcome> {
    if (waitMs > 0) await this.waiter.ready();
    const job = await this.resources.domainCheckQueue.add(
      'verify',
      { domainId },
      {
        attempts: 1,
        deduplication: { id: domainId },
        removeOnComplete: { count: 1_000 },
        removeOnFail: { count: 1_000 },
      },
    );
    return this.waiter.wait(job, waitMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.waiter.close();
  }
}
