import type { TraceCarrier } from '@suite/telemetry';

/**
 * Where a job's queue entry is: a BullMQ state, `pending` (waiting its turn in the fair queue,
 * not yet handed to BullMQ) or `unknown` (the queue has none).
 */
export type QueuedState =
  'pending' | 'active' | 'waiting' | 'delayed' | 'prioritized' | 'unknown' | (string & {});

/** A job as the queue needs it: fair share is per owner. */
export interface QueueJobRef {
  id: string;
  owner: string;
}

export interface EnqueueOptions {
  /**
   * Skip the owner's queued-job limit: for a job accepted before (re-queued after Redis lost it,
   * or given new instructions), which must not be refused now.
   */
  admitOverLimit?: boolean;
}

/** The browser-job queue as the job lifecycle uses it: it carries only the job id and trace context. */
export abstract class JobQueue {
  /**
   * Queues the job once (the queue entry's id is the job's); throws a RunnerError `rate_limited`
   * when its owner has too many jobs waiting.
   */
  abstract enqueue(job: QueueJobRef, trace: TraceCarrier, options?: EnqueueOptions): Promise<void>;
  /** Drops the job's entry (a cancelled job, or a finished one about to be queued again). */
  abstract remove(jobId: string): Promise<void>;
  abstract state(jobId: string): Promise<QueuedState>;
  /** How many entries the queue holds in each of these states (BullMQ's, and `pending`). */
  abstract counts(...states: string[]): Promise<Record<string, number>>;
  /** A worker took the job (it may hand out the next one). */
  abstract started(jobId: string): Promise<void>;
  /** The job's entry completed or failed (it may have been retried instead): frees its owner's slot. */
  abstract settled(jobId: string): Promise<void>;
  /** Repairs after a lost process (the reaper's sweep): how many handed-out jobs were found gone. */
  abstract repair(): Promise<number>;
}
