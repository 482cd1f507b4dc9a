import type { FinishedRun, RunArtifacts } from './job.repository.js';
import type { StoredStatus } from './job-state.js';

/** What a transition writes: plain values (the repository adds what its store needs, e.g. counters). */
export interface JobChange {
  status: StoredStatus;
  query?: string;
  summary?: string | null;
  error?: string | null;
  steps?: unknown[];
  workerId?: string;
  startedAt?: Date | null;
  finishedAt?: Date | null;
  logPath?: string | null;
  videoPath?: string | null;
  screenshotPath?: string | null;
}

/** A status change: the statuses it may start from and what it writes. */
export interface JobTransition {
  from: readonly StoredStatus[];
  change: JobChange;
}

/**
 * Every way a job changes status, in one place (the repositories apply them as conditional
 * updates). queued → running → succeeded | failed | needs_input; queued | needs_input → cancelled;
 * needs_input → queued; queued | running → failed when the job cannot be run.
 */
export const jobTransitions = {
  /** A worker takes the job; `running` again when the queue hands it out after its worker died. */
  claim: (workerId: string, now = new Date()): JobTransition => ({
    from: ['queued', 'running'],
    change: { status: 'running', startedAt: now, workerId, error: null },
  }),

  finish: (run: FinishedRun, artifacts: RunArtifacts, now = new Date()): JobTransition => ({
    from: ['running'],
    change: {
      status: run.status,
      summary: run.summary,
      steps: run.steps,
      error: run.error ?? null,
      finishedAt: now,
      logPath: artifacts.logPath,
      videoPath: artifacts.videoPath,
      screenshotPath: artifacts.screenshotPath ?? null,
    },
  }),

  failUnfinished: (reason: string, now = new Date()): JobTransition => ({
    from: ['queued', 'running'],
    change: {
      status: 'failed',
      error: reason,
      summary: `The job could not be completed: ${reason}`,
      finishedAt: now,
    },
  }),

  /** Nothing runs: a queued job, or one waiting for new instructions (input-required is not final). */
  cancel: (now = new Date()): JobTransition => ({
    from: ['queued', 'needs_input'],
    change: { status: 'cancelled', finishedAt: now, summary: 'Cancelled before it started.', error: null },
  }),

  resubmit: (query: string): JobTransition => ({
    from: ['needs_input'],
    change: {
      status: 'queued',
      query,
      summary: null,
      error: null,
      steps: [],
      startedAt: null,
      finishedAt: null,
    },
  }),
} as const;
