import type { Redis } from 'ioredis';
import { jobChannel, type JobEvent } from './job-events.js';

type Listener = (event: JobEvent) => void;

/**
 * One Redis subscriber connection shared by every live watcher of a process (SSE streams, MCP
 * progress): channels are subscribed while at least one listener wants them.
 */
export class JobEventsHub {
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly subscriber: Redis) {
    subscriber.on('message', (channel: string, message: string) => {
      const set = this.listeners.get(channel);
      if (!set) return;
      let event: JobEvent;
      try {
        event = JSON.parse(message) as JobEvent;
      } catch {
        return;
      }
      for (const listener of set) listener(event);
    });
  }

  /** Starts delivering the job's events to `listener`; resolves once the subscription is active. */
  async subscribe(jobId: string, listener: Listener): Promise<() => Promise<void>> {
    const channel = jobChannel(jobId);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.subscriber.subscribe(channel);
    }
    set.add(listener);
    return async () => {
      const current = this.listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.listeners.delete(channel);
      await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }
}
