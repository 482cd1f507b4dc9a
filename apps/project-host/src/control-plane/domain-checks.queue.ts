import type { OnApplicationShutdown } from '@nestjs/common';
import { QueueName, type TypedQueue } from '@suite/queue';
import { QueueWaiter, type WaitOutcome } from '../platform/queue-waiter.js';

/** The project worker looks custom domains' TXT records up; the control plane asks it to. */
export abstract class DomainChecksQueue {
  /**
   * Queues a check of the domain and waits up to `waitMs` for a worker to have done it; a check
   * not done by then stays queued (the answer shows the domain as it was).
   */
  abstract checkNow(domainId: string, waitMs: number): Promise<WaitOutcome>;
}

/** BullMQ `domain-checks`: one check per domain at a time (a second ask joins the queued one). */
export class BullDomainChecksQueue extends DomainChecksQueue implements OnApplicationShutdown {
  private readonly waiter: QueueWaiter;

  /** `redisUrl`: the waiter's own connection (it listens for the job's end). */
  constructor(
    private readonly queue: TypedQueue<typeof QueueName.DomainChecks>,
    redisUrl: string,
  ) {
    super();
    this.waiter = new QueueWaiter(redisUrl, QueueName.DomainChecks, 'project-host:domain-checks');
  }

  async checkNow(domainId: string, waitMs: number): Promise<WaitOutcome> {
    if (waitMs > 0) await this.waiter.ready();
    const job = await this.queue.add(
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
