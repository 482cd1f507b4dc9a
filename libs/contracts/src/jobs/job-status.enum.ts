/** Lifecycle of a job; `succeeded`, `failed` and `cancelled` are final. */
export enum JobStatus {
  Queued = 'queued',
  Running = 'running',
  Succeeded = 'succeeded',
  Failed = 'failed',
  Cancelled = 'cancelled',
}

export const FINAL_JOB_STATUSES: readonly JobStatus[] = [
  JobStatus.Succeeded,
  JobStatus.Failed,
  JobStatus.Cancelled,
];

/** Outcome of one step of a job's instructions. */
export enum StepStatus {
  Passed = 'passed',
  Failed = 'failed',
  /** Not run because an earlier step failed or the job was stopped. */
  Skipped = 'skipped',
}
