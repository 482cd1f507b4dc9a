import { describe, expect, it } from '@jest/globals';
import type { RunOutcome, StepResult } from '@suite/browser-agent';
import { type JobStepDto, StepStatus } from '@suite/contracts';
import { INSTRUCTIONS_NOT_UNDERSTOOD } from '@suite/jobs';
import { finishedRunOf } from './run-outcome.mapper.js';

const failingStep: StepResult = {
  index: 2,
  text: 'Click the Launch button',
  action: 'click',
  status: 'failed',
  durationMs: 1500,
  error: 'nothing on the page matches the button "Launch"',
};
const steps: JobStepDto[] = [
  { index: 1, text: 'Open /', action: 'navigate', status: StepStatus.Passed, duration_ms: 40, error: null },
];

describe('finishedRunOf: each run outcome as the job ends', () => {
  const cases: Array<[string, RunOutcome, { status: string; error: string | null }]> = [
    [
      'passed → succeeded',
      { kind: 'passed', summary: 'All 2 steps passed.' },
      { status: 'succeeded', error: null },
    ],
    [
      'failed step → failed, no error word',
      { kind: 'failed', summary: 'Step 2 of 2 failed.', failingStep },
      { status: 'failed', error: null },
    ],
    [
      "failed at an LLM agent's limit → failed, the limit as the error",
      { kind: 'failed', summary: 'The agent did not finish within 20 steps.', endedBy: 'step limit' },
      { status: 'failed', error: 'step limit' },
    ],
    [
      'needs_input → waits for new instructions',
      {
        kind: 'needs_input',
        summary: 'Could not understand 1 of 2 steps, so the test was not run.',
        question: 'Could you rephrase step 2 ("fly")?',
        notUnderstood: [{ index: 2, text: 'fly' }],
      },
      { status: 'needs_input', error: INSTRUCTIONS_NOT_UNDERSTOOD },
    ],
    [
      'cancelled interpreter run → failed (a running job is never cancelled), no error word',
      {
        kind: 'cancelled',
        summary: 'Step 2 of 2 failed: the run was cancelled.',
        stop: 'cancelled',
        failingStep,
      },
      { status: 'failed', error: null },
    ],
    [
      'cancelled LLM run → failed, its end reason as the error',
      {
        kind: 'cancelled',
        summary: 'The job time limit was reached.',
        stop: 'job time limit',
        endedBy: 'job time limit',
      },
      { status: 'failed', error: 'job time limit' },
    ],
    [
      'error → failed with the error',
      { kind: 'error', summary: 'The model provider failed.', error: 'provider error' },
      { status: 'failed', error: 'provider error' },
    ],
  ];

  it.each(cases)('%s', (_name, outcome, expected) => {
    expect(finishedRunOf(outcome, steps)).toEqual({ ...expected, summary: outcome.summary, steps });
  });
});
