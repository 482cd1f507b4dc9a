import { queuePrefix } from '@suite/queue';
import type { Redis } from 'ioredis';

/** What a watcher of a job is told: status changes, step progress, and log lines as they happen. */
export type JobEvent =
  | { type: 'status'; jobId: string; status: string; summary?: string | null; at: string }
  | {
      type: 'step';
      jobId: string;
      index: number;
      text: string;
      status: string;
      durationMs?: number;
      at: string;
    }
  | { type: 'log'; jobId: string; line: string; at: string };

export const jobChannel = (jobId: string): string => `${queuePrefix()}:job-events:${jobId}`;

/** Publishes job events over Redis pub/sub so SSE streams, MCP progress and webhooks follow live. */
export class JobEventsPublisher {
  constructor(private readonly redis: Redis) {}

  async publish(event: JobEvent): Promise<void> {
    await this.redis.publish(jobChannel(event.jobId), JSON.stringify(event));
  }
}

/**
 * Subscribes to one job's events. Needs a connection of its own: a Redis connection in subscriber
 * mode cannot run other commands.
 */
export async function subscribeToJob(
  subscriber: Redis,
  jobId: string,
  onEvent: (event: JobEvent) => void,
): Promise<() => Promise<void>> {
  const channel = jobChannel(jobId);
  const listener = (ch: string, message: string) => {
    if (ch === channel) onEvent(JSON.parse(message) as JobEvent);
  };
  subscriber.on('message', listener);
  await subscriber.subscribe(channel);
  return async () => {
    subscriber.off('message', listener);
    await subscriber.unsubscribe(channel);
  };
}
