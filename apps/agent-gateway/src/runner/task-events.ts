import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { FINAL_JOB_STATUSES, type JobStatus } from '@suite/contracts';
import { subscribeToJob, type JobEvent } from '@suite/jobs';
import { RunnerResources } from './runner-resources.js';

interface Channel {
  listeners: Set<(event: JobEvent) => void>;
  /** Resolves to the function that leaves the Redis channel. */
  subscribed: Promise<() => Promise<void>>;
}

export const isFinalStatus = (status: string): boolean => FINAL_JOB_STATUSES.includes(status as JobStatus);

/**
 * Follows jobs over Redis pub/sub (the worker and the job service publish every change), on the
 * gateway's one subscriber connection.
 */
@Injectable()
export class TaskEvents implements OnModuleDestroy {
  private readonly closing = new AbortController();
  private readonly channels = new Map<string, Channel>();
  private readonly leaving = new Map<string, Promise<void>>();

  constructor(private readonly resources: RunnerResources) {}

  /** Aborts when the app shuts down: open streams and waits end so the server can close. */
  get shutdown(): AbortSignal {
    return this.closing.signal;
  }

  onModuleDestroy(): void {
    this.closing.abort();
  }

  /**
   * Calls `onEvent` for every event of the job until the returned function is called. Watchers of
   * one job share one Redis subscription (unsubscribing the channel would silence all of them), so
   * the channel is left only when its last watcher goes.
   */
  async watch(jobId: string, onEvent: (event: JobEvent) => void): Promise<() => Promise<void>> {
    let channel = this.channels.get(jobId);
    if (!channel) {
      const listeners = new Set<(event: JobEvent) => void>();
      const created: Channel = {
        listeners,
        // After a previous unsubscribe of this channel, so its UNSUBSCRIBE cannot undo ours.
        subscribed: (this.leaving.get(jobId) ?? Promise.resolve()).then(() =>
          subscribeToJob(this.resources.subscriber, jobId, (event) => {
            for (const listener of listeners) listener(event);
          }),
        ),
      };
      channel = created;
      this.channels.set(jobId, created);
      created.subscribed.catch(() => {
        if (this.channels.get(jobId) === created) this.channels.delete(jobId);
      });
    }
    channel.listeners.add(onEvent);
    const current = channel;
    try {
      await current.subscribed;
    } catch (error) {
      current.listeners.delete(onEvent);
      throw error;
    }
    return async () => {
      current.listeners.delete(onEvent);
      if (current.listeners.size > 0 || this.channels.get(jobId) !== current) return;
      this.channels.delete(jobId);
      const left = current.subscribed.then((leave) => leave()).catch(() => undefined);
      this.leaving.set(jobId, left);
      await left;
      if (this.leaving.get(jobId) === left) this.leaving.delete(jobId);
    };
  }

  /**
   * Resolves when the job reaches a final status (as read by `current`), or after `timeoutMs`,
   * or when `signal` aborts. Subscribes first, then reads, so no change slips between the two.
   */
  async waitForEnd(
    jobId: string,
    current: () => Promise<string>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    let wake: () => void = () => undefined;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const unsubscribe = await this.watch(jobId, (event) => {
      if (event.type === 'status' && isFinalStatus(event.status)) wake();
    });
    const timer = setTimeout(wake, timeoutMs);
    signal?.addEventListener('abort', wake, { once: true });
    this.shutdown.addEventListener('abort', wake, { once: true });
    try {
      if (!this.shutdown.aborted && !isFinalStatus(await current())) await woken;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', wake);
      this.shutdown.removeEventListener('abort', wake);
      await unsubscribe().catch(() => undefined);
    }
  }
}
