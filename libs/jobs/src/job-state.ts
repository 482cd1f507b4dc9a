import { FINAL_JOB_STATUSES, JobStatus } from '@suite/contracts';
import { JobStatus as StoredJobStatus } from '@suite/db';

export { StoredJobStatus };
/** A job's status as Postgres holds it: the five of the job API, and `needs_input`. */
export type StoredStatus = (typeof StoredJobStatus)[keyof typeof StoredJobStatus];

/**
 * The error of a job whose instructions the interpreter could not understand: it ran nothing, and
 * waits (`needs_input`) until new instructions arrive (`resubmit`).
 */
export const INSTRUCTIONS_NOT_UNDERSTOOD = 'instructions not understood';

/** The status the job API shows: a job waiting for input is `failed` there (its error says why). */
export function publicStatus(status: string): JobStatus {
  return status === StoredJobStatus.needs_input ? JobStatus.Failed : (status as JobStatus);
}

/** The stored statuses a job API status filter selects. */
export function storedStatusesOf(status: JobStatus): StoredStatus[] {
  return status === JobStatus.Failed
    ? [StoredJobStatus.failed, StoredJobStatus.needs_input]
    : [status as StoredStatus];
}

/** The job ended for good: succeeded, failed or cancelled. A job waiting for input may run again. */
export const isFinalStatus = (status: string): boolean =>
  (FINAL_JOB_STATUSES as readonly string[]).includes(status);

/** Nothing more happens to the job unless someone acts: it ended, or it waits for new instructions. */
export const isSettledStatus = (status: string): boolean =>
  isFinalStatus(status) || status === StoredJobStatus.needs_input;
