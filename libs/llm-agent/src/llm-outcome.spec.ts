import { describe, expect, it } from '@jest/globals';
import type { StepResult } from '@suite/browser-agent';
import { llmOutcome } from './llm-outcome.js';
import type { LlmEndReason } from './run-guards.js';

const failedStep: StepResult = {
  index: 2,
  text: 'click the button "Pay" [e3]',
  action: 'click',
  status: 'failed',
  durationMs: 12,
  error: 'no element has the ref e3',
};
const steps: StepResult[] = [{ ...failedStep, index: 1, status: 'passed', error: undefined }, failedStep];

describe('llmOutcome', () => {
  it('is the checked verdict when the model called done', () => {
    expect(llmOutcome('succeeded', 'done', 'Paid (1 assertion held).', steps)).toEqual({
      kind: 'passed',
      summary: 'Paid (1 assertion held).',
    });
    expect(llmOutcome('failed', 'done', 'The agent reported the test failed.', steps)).toEqual({
      kind: 'failed',
      summary: 'The agent reported the test failed.',
      failingStep: failedStep,
    });
  });

  it("is cancelled when the run's clock or the caller stopped it, with the stop named", () => {
    for (const reason of ['job time limit', 'cancelled'] as const) {
      expect(llmOutcome('failed', reason, 'The run was cancelled.', steps)).toEqual({
        kind: 'cancelled',
        summary: 'The run was cancelled.',
        stop: reason,
        endedBy: reason,
        failingStep: failedStep,
      });
    }
  });

  it('is an error when the provider or the agent broke', () => {
    for (const reason of ['provider error', 'agent error', 'llm call timeout'] as const) {
      expect(llmOutcome('failed', reason, 'It broke.', [])).toEqual({
        kind: 'error',
        summary: 'It broke.',
        error: reason,
      });
    }
  });

  it('is a failed test when the agent reached one of its limits or the start page did not open', () => {
    const reasons: LlmEndReason[] = ['step limit', 'consecutive errors', 'repeated action', 'start page'];
    for (const reason of reasons) {
      expect(llmOutcome('failed', reason, 'Stopped.', [])).toEqual({
        kind: 'failed',
        summary: 'Stopped.',
        endedBy: reason,
      });
    }
  });
});
