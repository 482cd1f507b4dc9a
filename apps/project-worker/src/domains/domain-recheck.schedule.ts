import { QueueName, syncPeriodicJob, type TypedQueue } from '@suite/queue';

/** The one job scheduler of the custom-domain re-check, whichever replica syncs it. */
export const DOMAIN_RECHECK_SCHEDULER = 'domain-recheck';

/** The re-check's schedule: every DOMAIN_RECHECK_INTERVAL_MS, one run at a time across replicas. */
export class DomainRecheckSchedule {
  constructor(
    private readonly queue: TypedQueue<typeof QueueName.DomainRechecks>,
    readonly everyMs: number,
  ) {}

  /** Creates, updates or (interval 0) removes the scheduler. */
  sync(): Promise<void> {
    return syncPeriodicJob(this.queue, {
      id: DOMAIN_RECHECK_SCHEDULER,
      everyMs: this.everyMs,
      name: 'recheck',
      data: {},
    });
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
