import type { Redis } from 'ioredis';
import { jobChannel, type JobEvent } from './job-events.js';
import { isSettledStatus } from './job-state.js';

type Listener = (event: JobEvent) => void;

interface Channel {
  listeners: Set<Listener>;
  /** Resolves once Redis confirmed the subscription. */
  subscribed: Promise<void>;
}

/**
 * One Redis subscriber connection shared by every live watcher of a process (SSE streams, A2A
 * streams and blocking sends, MCP progress). Watchers of one job share its channel: it is left only
 * when the last of them goes, and a new subscription waits for a pending unsubscribe of the same
 * channel so that UNSUBSCRIBE cannot undo it.
 */
export class JobEventsHub {
  private readonly channels = new Map<string, Channel>();
  private readonly leaving = new Map<string, Promise<void>>();
  private readonly closing = new AbortController();

  constructor(private readonly subscriber: Redis) {
    subscriber.on('message', (name: string, message: string) => {
      const channel = this.channels.get(name);
      if (!channel) return;
      let event: JobEvent;
      try {
        event = JSON.parse(message) as JobEvent;
      } catch {
        return;
      }
      for (const listener of channel.listeners) listener(event);
    });
  }

  /** Aborts when the process shuts down: open streams and waits end so the server can close. */
  get shutdown(): AbortSignal {
    return this.closing.signal;
  }

  close(): void {
    this.closing.abort();
  }

  /** Starts delivering the job's events to `listener`; resolves once the subscription is active. */
  async subscribe(jobId: string, listener: Listener): Promise<() => Promise<void>> {
    const name = jobChannel(jobId);
    let channel = this.channels.get(name);
    if (!channel) {
      const created: Channel = {
        listeners: new Set(),
        subscribed: (this.leaving.get(name) ?? Promise.resolve()).then(async () => {
          await this.subscriber.subscribe(name);
        }),
      };
      channel = created;
      this.channels.set(name, created);
      created.subscribed.catch(() => {
        if (this.channels.get(name) === created) this.channels.delete(name);
      });
    }
    channel.listeners.add(listener);
    const current = channel;
    try {
      await current.subscribed;
    } catch (error) {
      current.listeners.delete(listener);
      throw error;
    }
    return async () => {
      current.listeners.delete(listener);
      if (current.listeners.size > 0 || this.channels.get(name) !== current) return;
      this.channels.delete(name);
      const left = this.subscriber.unsubscribe(name).then(
        () => undefined,
        () => undefined,
      );
      this.leaving.set(name, left);
      await left;
      if (this.leaving.get(name) === left) this.leaving.delete(name);
    };
  }

  /**
   * Resolves when the job settles (ends, or waits for input) as published or as read by `current`,
   * after `timeoutMs`, or when `signal` aborts. Subscribes first, then reads, so no change slips
   * between the two.
   */
  async waitUntilSettled(
    jobId: string,
    current: () => Promise<string>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    let wake: () => void = () => undefined;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const unsubscribe = await this.subscribe(jobId, (event) => {
      if (event.type === 'status' && isSettledStatus(event.status)) wake();
    });
    const timer = setTimeout(wake, timeoutMs);
    signal?.addEventListener('abort', wake, { once: true });
    this.shutdown.addEventListener('abort', wake, { once: true });
    try {
      if (!this.shutdown.aborted && !isSettledStatus(await current())) await woken;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', wake);
      this.shutdown.removeEventListener('abort', wake);
      await unsubscribe().catch(() => undefined);
    }
  }
}
