import type { MainDb } from '@suite/db';
import { queuePrefix, redisReady } from '@suite/queue';
import type { Redis } from 'ioredis';
import type { StoredStatus } from './job-state.js';

/** A job row as it travels in an event: JSON, so its times are ISO strings. */
export type JobSnapshot = Omit<MainDb.Job, 'createdAt' | 'startedAt' | 'finishedAt' | 'updatedAt'> & {
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
};

export const toSnapshot = (job: MainDb.Job): JobSnapshot => JSON.parse(JSON.stringify(job)) as JobSnapshot;

/** The row again, as the Prisma client would have read it. */
export function fromSnapshot(snapshot: JobSnapshot): MainDb.Job {
  const date = (value: string | null) => (value === null ? null : new Date(value));
  return {
    ...snapshot,
    createdAt: new Date(snapshot.createdAt),
    startedAt: date(snapshot.startedAt),
    finishedAt: date(snapshot.finishedAt),
    updatedAt: new Date(snapshot.updatedAt),
  };
}

/** The job changed status; `job` is the row as written, so watchers need not read it again. */
export interface JobStatusEvent {
  type: 'status';
  jobId: string;
  /** As stored: `needs_input` included (the job API shows it as `failed`). */
  status: StoredStatus;
  summary: string | null;
  job: JobSnapshot;
  at: string;
}

/** A step started or ended. Steps count from 1, as in the job record's `steps`. */
export interface JobStepEvent {
  type: 'step';
  jobId: string;
  index: number;
  /** How many steps the instructions have; null while the engine does not know (the LLM agent). */
  count: number | null;
  /** The instruction as written. */
  text: string;
  action: string;
  status: 'started' | 'passed' | 'failed' | 'skipped';
  startedAt: string | null;
  /** null while the step runs. */
  finishedAt: string | null;
  durationMs: number | null;
  error: string | null;
  at: string;
}

/** A line of the agent log, as written. */
export interface JobLogEvent {
  type: 'log';
  jobId: string;
  line: string;
  at: string;
}

/** What a watcher of a job is told: status changes, step progress, and log lines as they happen. */
export type JobEvent = JobStatusEvent | JobStepEvent | JobLogEvent;

export type JobStepProgress = Omit<JobStepEvent, 'type' | 'jobId' | 'at'>;

export const jobChannel = (jobId: string): string => `${queuePrefix()}:job-events:${jobId}`;

/**
 * Publishes job events over Redis pub/sub so SSE streams, MCP progress and webhooks follow live.
 * Status and step events are published by the job repository only, as it writes them.
 */
export class JobEventsPublisher {
  constructor(private readonly redis: Redis) {}

  async publish(event: JobEvent): Promise<void> {
    await redisReady(this.redis);
    await this.redis.publish(jobChannel(event.jobId), JSON.stringify(event));
  }
}
