import type { UnknownStep } from './instruction-parser.js';
import type { InterpretedQuery } from './interpreter-agent.js';
import type { RunStopKind } from './run-guard.js';
import type { StepResult } from './step-executor.js';

/**
 * How a run of either engine ended, with what each ending needs; the worker turns it into the
 * job's status in one place. `summary` is the run's closing paragraph, secrets masked, in every case.
 */
export type RunOutcome = PassedOutcome | FailedOutcome | NeedsInputOutcome | CancelledOutcome | ErrorOutcome;

export type RunOutcomeKind = RunOutcome['kind'];

/** Every step ran and what was checked held. */
export interface PassedOutcome {
  kind: 'passed';
  summary: string;
}

/** The test failed: a step failed, an assertion did not hold, or the agent stopped at one of its limits. */
export interface FailedOutcome {
  kind: 'failed';
  summary: string;
  /** The step that failed, when one did (absent when the start page did not open or the model gave up). */
  failingStep?: StepResult;
  /** The LLM agent's word for why its loop ended (`step limit`, `start page`, …), kept as the job's error. */
  endedBy?: string;
}

/** Nothing ran: the instructions were not understood, and the run waits for new ones. */
export interface NeedsInputOutcome {
  kind: 'needs_input';
  /** Quotes each step not understood and lists the phrasings that are. */
  summary: string;
  /** What the person is asked for, in one sentence. */
  question: string;
  /** The steps that were not understood (none when the query was empty or over the limits). */
  notUnderstood: UnknownStep[];
}

/** The run was stopped from outside its steps: the job's time limit, or the caller's cancel. */
export interface CancelledOutcome {
  kind: 'cancelled';
  summary: string;
  stop: RunStopKind;
  /** The step the stop interrupted, when one was running. */
  failingStep?: StepResult;
  /** As for `FailedOutcome`: set by the LLM agent only. */
  endedBy?: string;
}

/** The engine could not reach a verdict: the model's provider failed, or the agent broke. */
export interface ErrorOutcome {
  kind: 'error';
  summary: string;
  /** A short word for what broke (`provider error`, `agent error`, `llm call timeout`). */
  error: string;
}

/** The outcome of a query rejected before any browser work. */
export function needsInputOutcome(rejected: Extract<InterpretedQuery, { ok: false }>): NeedsInputOutcome {
  const { unknown, limit, summary } = rejected;
  let question: string;
  if (limit) question = `Could you shorten the instructions (${limit})?`;
  else if (unknown.length === 0) question = 'What should the test do? Write one step per line or sentence.';
  else {
    const steps = unknown.map((u) => `step ${u.index} ("${u.text}")`);
    const listed = steps.length === 1 ? steps[0] : `${steps.slice(0, -1).join(', ')} and ${steps.at(-1)}`;
    question = `Could you rephrase ${listed} using one of the supported forms?`;
  }
  return { kind: 'needs_input', summary, question, notUnderstood: unknown };
}

/** `passed` → `succeeded`, anything else `failed`: the verdict the agent log and benches show. */
export function verdictOf(outcome: RunOutcome): 'succeeded' | 'failed' {
  return outcome.kind === 'passed' ? 'succeeded' : 'failed';
}
