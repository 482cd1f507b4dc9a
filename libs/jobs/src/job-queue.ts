import type { QueueName, TypedQueue } from '@suite/queue';
import type { TraceCarrier } from '@suite/telemetry';

/** Where a queue entry of a job is, as BullMQ says (`unknown`: the queue has none). */
export type QueuedState = 'active' | 'waiting' | 'delayed' | 'prioritized' | 'unknown' | (string & {});

/** The browser-job queue as the job lifecycle uses it: it carries only the job id and trace context. */
export abstract class JobQueue {
  /** Queues the job once: the queue entry's id is the job's. */
  abstract enqueue(jobId: string, trace: TraceCarrier): Promise<void>;
  /** Drops the job's entry (a cancelled job, or a finished one about to be queued again). */
  abstract remove(jobId: string): Promise<void>;
  abstract state(jobId: string): Promise<QueuedState>;
  /** How many entries the queue holds in each of these BullMQ states. */
  abstract counts(...states: string[]): Promise<Record<string, number>>;
}

export class BullJobQueue extends JobQueue {
  constructor(private readonly queue: TypedQueue<typeof QueueName.BrowserJobs>) {
    super();
  }

  async enqueue(jobId: string, trace: TraceCarrier): Promise<void> {
    await this.queue.add('run', { jobId, trace }, { jobId });
  }

  async remove(jobId: string): Promise<void> {
    await this.queue.remove(jobId);
  }

  state(jobId: string): Promise<QueuedState> {
    return this.queue.getJobState(jobId);
  }

  counts(...states: string[]): Promise<Record<string, number>> {
    return this.queue.getJobCounts(...(states as Parameters<typeof this.queue.getJobCounts>));
  }
}
