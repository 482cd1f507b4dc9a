import type { RunOutcome } from '@suite/browser-agent';
import type { JobStepDto } from '@suite/contracts';
import { type FinishedRun, INSTRUCTIONS_NOT_UNDERSTOOD } from '@suite/jobs';

/**
 * The one place a run's outcome becomes the job's status, summary and error. A run that could
 * not reach a verdict, or was stopped, is a failed job (a running job is never `cancelled`: only a
 * queued or waiting one is); instructions that were not understood leave the job waiting for new
 * ones. The error is the agent's word for why it ended, when it has one.
 */
export function finishedRunOf(outcome: RunOutcome, steps: JobStepDto[]): FinishedRun {
  const { summary } = outcome;
  switch (outcome.kind) {
    case 'passed':
      return { status: 'succeeded', summary, steps, error: null };
    case 'failed':
    case 'cancelled':
      return { status: 'failed', summary, steps, error: outcome.endedBy ?? null };
    case 'error':
      return { status: 'failed', summary, steps, error: outcome.error };
    case 'needs_input':
      return { status: 'needs_input', summary, steps, error: INSTRUCTIONS_NOT_UNDERSTOOD };
    default: {
      const unreachable: never = outcome;
      throw new Error(`unknown run outcome ${JSON.stringify(unreachable)}`);
    }
  }
}
