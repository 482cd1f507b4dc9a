import type { RunOutcome, StepResult, Verdict } from '@suite/browser-agent';
import type { LlmEndReason } from './run-guards.js';

/**
 * The outcome of an LLM agent's run from its verdict and why its loop ended: `done` is the verdict
 * checked against the evidence; the wall clock and the caller's cancel are `cancelled`; a provider
 * or agent that broke is `error`; a limit the agent reached, or a start page that did not open,
 * is a failed test. The end reason stays on the outcome (`endedBy`, `error`): it is the job's error.
 */
export function llmOutcome(
  verdict: Verdict,
  endedBy: LlmEndReason,
  summary: string,
  steps: readonly StepResult[],
): RunOutcome {
  const failingStep = steps.findLast((step) => step.status === 'failed');
  const failing = failingStep ? { failingStep } : {};
  switch (endedBy) {
    case 'done':
      return verdict === 'succeeded' ? { kind: 'passed', summary } : { kind: 'failed', summary, ...failing };
    case 'job time limit':
    case 'cancelled':
      return { kind: 'cancelled', summary, stop: endedBy, endedBy, ...failing };
    case 'provider error':
    case 'agent error':
    case 'llm call timeout':
      return { kind: 'error', summary, error: endedBy };
    case 'step limit':
    case 'consecutive errors':
    case 'repeated action':
    case 'start page':
      return { kind: 'failed', summary, endedBy, ...failing };
    default: {
      const unreachable: never = endedBy;
      return unreachable;
    }
  }
}
