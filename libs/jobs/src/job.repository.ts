import type { JobStepDto } from '@suite/contracts';
import type { MainDb } from '@suite/db';
import type { JobStepProgress } from './job-events.js';
import type { NewJob, NewTaskParts } from './job-insert.repository.js';
import type { StoredStatus } from './job-state.js';

export type { NewJob, NewTaskParts };

/** A stored job, and the A2A message stored with it when there was one. */
export interface CreatedJob {
  job: MainDb.Job;
  message?: MainDb.A2aMessage;
}

/** Which of an owner's jobs a list shows, newest first. */
export interface JobFilter {
  owner: string;
  contextId?: string;
  statuses?: StoredStatus[];
  /** Only jobs changed after this time. */
  updatedAfter?: Date;
  /** Only jobs whose query (any case) or `metadata.title` contains this text. */
  search?: string;
}

export interface JobPage extends JobFilter {
  /** Keyset cursor: only jobs that come after this one, newest first. */
  after?: { createdAt: Date; id: string };
  limit: number;
}

/** How a run ended, as the worker writes it. */
export interface FinishedRun {
  status: 'succeeded' | 'failed' | 'needs_input';
  summary: string;
  steps: JobStepDto[];
  error?: string | null;
}

export interface RunArtifacts {
  logPath: string;
  videoPath: string | null;
  /** The page where a step failed (PNG); null or absent when none was taken. */
  screenshotPath?: string | null;
}

/** What a run did, for script export, and how a replay went. */
export interface RunRecord {
  actions: unknown[] | null;
  replay?: Record<string, unknown>;
}

/**
 * The one writer of the `jobs` table and the one publisher of job status and step events: every
 * change of a job's state is a method here. Status changes are conditional updates, so racing
 * workers, cancels and resubmits cannot clash; each publishes the row as written.
 */
export abstract class JobRepository {
  /** Stores a new `queued` job (and for an A2A task its new context and first message). */
  abstract create(job: NewJob, task?: NewTaskParts): Promise<CreatedJob>;
  /** Removes a job nobody will run (the queue refused it), with the context stored with it. */
  abstract discard(job: MainDb.Job, options: { context: boolean }): Promise<void>;

  abstract find(id: string): Promise<MainDb.Job | null>;
  /** The owner's job; unknown ids, malformed ids and other owners' jobs are all null. */
  abstract findOwned(owner: string, id: string): Promise<MainDb.Job | null>;
  abstract list(page: JobPage): Promise<MainDb.Job[]>;
  abstract count(filter: JobFilter): Promise<number>;

  /**
   * queued (or running, when the queue hands a job out again after its worker died) → running,
   * for this worker. Null when the job is not there to be taken.
   */
  abstract claim(jobId: string, workerId: string): Promise<MainDb.Job | null>;
  /** A step started or ended: stored in the job's event log and published. */
  abstract recordStep(jobId: string, step: JobStepProgress): Promise<void>;
  /** What the run did, while the job is still running (the status is set by `finish`). */
  abstract recordRun(jobId: string, run: RunRecord): Promise<void>;
  /** running → succeeded, failed or needs_input, with its artifacts. */
  abstract finish(jobId: string, run: FinishedRun, artifacts: RunArtifacts): Promise<MainDb.Job | null>;
  /**
   * The video linked when the job finished could not be completed (the encoder failed after the
   * job ended): its link goes, so the job shows no video.
   */
  abstract dropVideo(jobId: string): Promise<void>;
  /** queued or running → failed (retries used up, worker lost); whether it changed. */
  abstract failUnfinished(jobId: string, reason: string): Promise<boolean>;
  /** queued or needs_input → cancelled; null when the job was neither. */
  abstract cancel(owner: string, jobId: string): Promise<MainDb.Job | null>;
  /** needs_input → queued with new instructions; null when the job was not waiting for them. */
  abstract resubmit(owner: string, jobId: string, query: string): Promise<MainDb.Job | null>;

  /** Jobs `running` since before `startedBefore`: candidates for the stuck-job reaper. */
  abstract staleRunning(startedBefore: Date): Promise<{ id: string }[]>;
  /** Jobs `queued` since before `createdBefore`: the reaper checks the queue still has them. */
  abstract staleQueued(createdBefore: Date): Promise<{ id: string; owner: string; traceContext: unknown }[]>;
  /** Jobs finished before `finishedBefore` whose artifacts are still linked. */
  abstract withExpiredArtifacts(finishedBefore: Date): Promise<{ id: string }[]>;
  abstract clearArtifacts(jobId: string): Promise<void>;
  /** How many jobs are in each stored status. */
  abstract countByStatus(): Promise<Record<string, number>>;
}
