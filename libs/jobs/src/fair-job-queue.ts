import { RunnerError, RunnerErrorCode } from '@suite/errors';
import { QueueName, queuePrefix, type TypedQueue } from '@suite/queue';
import type { TraceCarrier } from '@suite/telemetry';
import type { Redis } from 'ioredis';
import { FairScheduler, type FairShareLimits } from './fair-scheduler.js';
import { JobQueue, type EnqueueOptions, type QueueJobRef, type QueuedState } from './job-queue.js';

/** BullMQ states in which an entry will still run (or is running): its owner's slot stays taken. */
const LIVE_STATES = new Set(['active', 'waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * What a refused job's client is told to wait: about one job's run; a place frees as soon as one
 * of the owner's jobs starts, which the server cannot predict better.
 */
export const QUEUE_FULL_RETRY_AFTER_S = 30;

/** How old a handed-out entry must be before a repair may judge it lost (the pop → add window). */
const REPAIR_GRACE_MS = 30_000;

/** The RUNNER_* settings of fair share, as every runner app's config carries them. */
export interface FairShareConfig {
  RUNNER_MAX_QUEUED_PER_OWNER: number;
  RUNNER_MAX_RUNNING_PER_OWNER: number;
  RUNNER_DISPATCH_AHEAD: number;
}

export function fairShareLimitsOf(config: FairShareConfig): FairShareLimits {
  return {
    maxQueuedPerOwner: config.RUNNER_MAX_QUEUED_PER_OWNER,
    maxRunningPerOwner: config.RUNNER_MAX_RUNNING_PER_OWNER,
    dispatchAhead: config.RUNNER_DISPATCH_AHEAD,
  };
}

/** Key base of the fair structure of the browser-job queue, beside BullMQ's keys. */
export function fairKeyBase(env: NodeJS.ProcessEnv = process.env): string {
  return `${queuePrefix(env)}:fair:${QueueName.BrowserJobs}:`;
}

/** Jobs waiting their turn in the fair queue, all owners (for /health, beside BullMQ's counts). */
export function countPendingJobs(redis: Redis, keyBase = fairKeyBase()): Promise<number> {
  return FairScheduler.pendingCount(redis, keyBase);
}

/**
 * The browser-job queue with fair share between owners: jobs wait in the fair scheduler (Redis)
 * and are handed to BullMQ only when they may start now, a few ahead of the workers, the owner
 * chosen by start-time fair queueing. BullMQ still does delivery, retries and stall detection.
 */
export class FairJobQueue extends JobQueue {
  private readonly scheduler: FairScheduler;

  constructor(
    private readonly queue: TypedQueue<typeof QueueName.BrowserJobs>,
    redis: Redis,
    private readonly limits: FairShareLimits,
    keyBase = fairKeyBase(),
  ) {
    super();
    this.scheduler = new FairScheduler(redis, keyBase, limits);
  }

  async enqueue(job: QueueJobRef, trace: TraceCarrier, options: EnqueueOptions = {}): Promise<void> {
    const added = await this.scheduler.enqueue(
      job.id,
      job.owner,
      JSON.stringify(trace),
      options.admitOverLimit ?? false,
    );
    if (added === 'full') {
      const limit = this.limits.maxQueuedPerOwner;
      throw new RunnerError(
        RunnerErrorCode.RateLimited,
        `You already have ${limit} jobs waiting to run, the most one owner may have queued (RUNNER_MAX_QUEUED_PER_OWNER=${limit}); submit more once some have started.`,
        { retryAfterSeconds: QUEUE_FULL_RETRY_AFTER_S, metadata: { limit: String(limit) } },
      );
    }
    // The job is safely queued: should handing out fail now, the next event or sweep does it.
    await this.pump().catch(() => undefined);
  }

  /** Hands the jobs the scheduler picks to BullMQ (the entry's id is the job's). */
  async pump(): Promise<number> {
    const jobs = await this.scheduler.pump();
    if (jobs.length === 0) return 0;
    await this.queue.addBulk(
      jobs.map(({ id, trace }) => ({
        name: 'run' as const,
        data: { jobId: id, trace: JSON.parse(trace) as TraceCarrier },
        opts: { jobId: id },
      })),
    );
    return jobs.length;
  }

  async remove(jobId: string): Promise<void> {
    if (await this.scheduler.removePending(jobId)) return;
    // Handed out: 0 when a worker holds it (it then ends on its own and frees the slot).
    await this.queue.remove(jobId);
    await this.settled(jobId);
  }

  async state(jobId: string): Promise<QueuedState> {
    // Pending first: a job handed out meanwhile is then found in BullMQ, never in neither.
    if (await this.scheduler.isPending(jobId)) return 'pending';
    return this.queue.getJobState(jobId);
  }

  async counts(...states: string[]): Promise<Record<string, number>> {
    const bull = states.filter((s) => s !== 'pending');
    const counts: Record<string, number> = bull.length
      ? await this.queue.getJobCounts(...(bull as Parameters<typeof this.queue.getJobCounts>))
      : {};
    if (states.includes('pending')) counts.pending = await this.scheduler.pendingCount();
    return counts;
  }

  async started(jobId: string): Promise<void> {
    await this.scheduler.started(jobId);
    await this.pump();
  }

  async settled(jobId: string): Promise<void> {
    if (LIVE_STATES.has(await this.queue.getJobState(jobId))) return;
    await this.scheduler.release(jobId);
    await this.pump();
  }

  /**
   * Entries handed out a while ago that BullMQ no longer runs are released (a process died between
   * the scheduler's pop and BullMQ's add, or before an end was counted); then dispatches. A job
   * released this way and still `queued` in Postgres is found by the reaper and queued again.
   */
  async repair(now = Date.now()): Promise<number> {
    const { dispatched, inflight } = await this.scheduler.handedOutBefore(now - REPAIR_GRACE_MS);
    for (const id of dispatched) {
      const state = await this.queue.getJobState(id);
      if (state !== 'waiting' && state !== 'prioritized') await this.scheduler.started(id);
    }
    let released = 0;
    for (const id of inflight) {
      if (LIVE_STATES.has(await this.queue.getJobState(id))) continue;
      if (await this.scheduler.release(id)) released++;
    }
    await this.pump();
    return released;
  }

  /** The owner's jobs in the fair structure (tests, diagnostics). */
  ownerCounts(owner: string): Promise<{ pending: number; running: number }> {
    return this.scheduler.ownerCounts(owner);
  }
}
