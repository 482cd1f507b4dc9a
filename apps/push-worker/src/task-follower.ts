import { Injectable, Logger } from '@nestjs/common';
import {
  A2aTaskViews,
  isSettledStatus,
  JobEventsHub,
  JobRepository,
  StoredJobStatus,
  taskStateOf,
  type StreamResponse,
} from '@suite/jobs';
import { PushConfigRepository, type PushConfig } from '@suite/push-delivery';
import type { PushFollowPayload } from '@suite/queue';
import { PushNotificationQueue } from './push-notification.queue.js';

/** A follow gives up on a task that has not settled after this long (its worker was lost). */
const FOLLOW_LIMIT_MS = 6 * 3600_000;

/** The push worker is stopping: the follow is tried again (by another replica, or after the restart). */
export class FollowInterruptedError extends Error {
  constructor() {
    super('the push worker is stopping; the task is followed again from where it is');
  }
}

/**
 * Follows one task with push notification configs until it settles: each status change becomes
 * one push-notifications job per config (a change seen twice, because a follow started again, is
 * queued once: the queue id is the task, config and status).
 */
@Injectable()
export class TaskFollower {
  private readonly logger = new Logger('a2a-push');
  private readonly stopping = new AbortController();

  constructor(
    private readonly jobs: JobRepository,
    private readonly configs: PushConfigRepository,
    private readonly views: A2aTaskViews,
    private readonly events: JobEventsHub,
    private readonly queue: PushNotificationQueue,
  ) {}

  /** Ends every follow in hand (each fails with FollowInterruptedError, so BullMQ tries it again). */
  interrupt(): void {
    this.stopping.abort();
  }

  async follow({ jobId, configId }: PushFollowPayload): Promise<void> {
    if (configId) return this.tellEnd(jobId, configId);
    if (this.stopping.signal.aborted) throw new FollowInterruptedError();
    let lastStatus: string | undefined;
    let settled = false;
    // Changes are queued in the order they happened (a task's end after its start).
    let queued: Promise<void> = Promise.resolve();
    let wake: () => void = () => undefined;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const stop = await this.events.subscribe(jobId, (event) => {
      if (event.type !== 'status' || event.status === lastStatus) return;
      lastStatus = event.status;
      queued = queued.then(() => this.notify(jobId, event.status));
      if (isSettledStatus(event.status)) {
        settled = true;
        wake();
      }
    });
    const onStop = () => wake();
    this.stopping.signal.addEventListener('abort', onStop);
    const limit = setTimeout(wake, FOLLOW_LIMIT_MS);
    limit.unref();
    try {
      // A change between the config's creation (or a restart) and the subscription is not lost: a
      // task already working or settled is notified of where it is now.
      const job = await this.jobs.find(jobId);
      if (!job) return;
      if (job.status !== StoredJobStatus.queued && lastStatus === undefined) {
        lastStatus = job.status;
        // A task that ran and settled before anyone followed it still worked first: say so.
        if (isSettledStatus(job.status) && job.startedAt) await this.notify(jobId, StoredJobStatus.running);
        await this.notify(jobId, job.status);
        if (isSettledStatus(job.status)) settled = true;
      }
      if (!settled) await woken;
      await queued;
      if (!settled && this.stopping.signal.aborted) throw new FollowInterruptedError();
      if (!settled) this.logger.warn({ jobId }, 'stopped following a task that did not settle in 6 hours');
    } finally {
      clearTimeout(limit);
      this.stopping.signal.removeEventListener('abort', onStop);
      await stop().catch(() => undefined);
    }
  }

  /** A config stored after its task settled: it alone is told where the task ended. */
  private async tellEnd(jobId: string, configId: string): Promise<void> {
    const [job, config] = await Promise.all([this.jobs.find(jobId), this.configs.find(jobId, configId)]);
    if (job && config) await this.enqueue(jobId, job.status, [config]);
  }

  private async notify(jobId: string, status: string): Promise<void> {
    await this.enqueue(jobId, status, await this.configs.ofTask(jobId));
  }

  /** One queue job per config and status. */
  private async enqueue(jobId: string, status: string, configs: PushConfig[]): Promise<void> {
    if (!configs.length) return;
    const job = await this.jobs.find(jobId);
    if (!job) return;
    const task = await this.views.view(job, {
      historyLength: 0,
      includeArtifacts: isSettledStatus(job.status),
    });
    // The event tells of `status`, which the task may have left since (it is then a past state).
    const event: StreamResponse = isSettledStatus(status)
      ? { task }
      : {
          statusUpdate: {
            taskId: task.id,
            contextId: task.contextId,
            status:
              status === job.status
                ? task.status
                : { state: taskStateOf(status), timestamp: task.status.timestamp },
          },
        };
    for (const config of configs) await this.queue.add(config.owner, jobId, config.id, status, event);
  }
}
