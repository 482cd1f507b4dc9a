import type { OnApplicationShutdown } from '@nestjs/common';
import type { ServerUpgradeProgress, TenantSweepResult } from '@suite/db';
import { QueueName, type TypedJob, type TypedQueue } from '@suite/queue';
import { QueueWaiter } from '../platform/queue-waiter.js';

export interface UpgradeRun {
  /**
   * idle: no sweep the queue still remembers; queued: waiting for a project worker; elsewhere:
   * another process held the sweep's lock (it ran there); stopped: the worker running it shut down
   * half-way (the next worker's boot asks for another).
   */
  state: 'idle' | 'queued' | 'running' | 'done' | 'failed' | 'elsewhere' | 'stopped';
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  servers: ServerUpgradeProgress[];
}

/** The tenant upgrade sweeps the project worker runs (queue `tenant-upgrades`): asked for, and read back. */
export abstract class TenantUpgradesQueue {
  /** Asks for a sweep (one already waiting answers for it) and waits up to `waitMs` for it to end. */
  abstract request(waitMs: number): Promise<void>;
  /** The sweep running, else waiting, else the last one that ended. */
  abstract latest(): Promise<UpgradeRun>;
}

const iso = (millis: number | undefined): string | null => (millis ? new Date(millis).toISOString() : null);
const progressOf = (job: TypedJob<typeof QueueName.TenantUpgrades>): ServerUpgradeProgress[] =>
  Array.isArray(job.progress) ? (job.progress as ServerUpgradeProgress[]) : [];

export class BullTenantUpgradesQueue extends TenantUpgradesQueue implements OnApplicationShutdown {
  private readonly waiter: QueueWaiter;

  /** `redisUrl`: the waiter's own connection (it listens for the job's end). */
  constructor(
    private readonly queue: TypedQueue<typeof QueueName.TenantUpgrades>,
    redisUrl: string,
  ) {
    super();
    this.waiter = new QueueWaiter(redisUrl, QueueName.TenantUpgrades, 'project-host:tenant-upgrades');
  }

  async request(waitMs: number): Promise<void> {
    if (waitMs > 0) await this.waiter.ready();
    const job = await this.queue.add(
      'sweep',
      { requestedBy: 'admin' },
      {
        attempts: 1,
        deduplication: { id: 'admin' },
        removeOnComplete: { count: 20 },
        removeOnFail: { count: 20 },
      },
    );
    await this.waiter.wait(job, waitMs);
  }

  async latest(): Promise<UpgradeRun> {
    const queue = this.queue;
    const [running] = await queue.getJobs(['active'], 0, 0);
    if (running) {
      return {
        state: 'running',
        startedAt: iso(running.processedOn),
        finishedAt: null,
        error: null,
        servers: progressOf(running),
      };
    }
    const [waiting] = await queue.getJobs(['waiting', 'prioritized', 'delayed'], 0, 0);
    if (waiting) return { state: 'queued', startedAt: null, finishedAt: null, error: null, servers: [] };
    const [completed] = await queue.getJobs(['completed'], 0, 0);
    const [failed] = await queue.getJobs(['failed'], 0, 0);
    if (failed && (!completed || (failed.finishedOn ?? 0) > (completed.finishedOn ?? 0))) {
      return {
        state: 'failed',
        startedAt: iso(failed.processedOn),
        finishedAt: iso(failed.finishedOn),
        error: failed.failedReason || 'the sweep failed',
        servers: progressOf(failed),
      };
    }
    if (!completed) return { state: 'idle', startedAt: null, finishedAt: null, error: null, servers: [] };
    const result = completed.returnvalue as TenantSweepResult | null;
    return {
      state: result?.state ?? 'done',
      startedAt: iso(completed.processedOn),
      finishedAt: iso(completed.finishedOn),
      error: null,
      servers: result?.servers ?? progressOf(completed),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.waiter.close();
  }
}
