import type { AgentLog } from './agent-log.js';
import { InstructionLimitError } from './instruction-limits.js';
import { parseInstructions, SUPPORTED_PHRASINGS, type UnknownStep } from './instruction-parser.js';
import type { RunStoppedError } from './run-guard.js';
import { resolveLimits, type RunLimits } from './run-limits.js';
import { type RunOutcome, verdictOf } from './run-outcome.js';
import { SecretValues, secretFieldValues } from './secret-values.js';
import { StepExecutor, type StepResolution, type StepResult } from './step-executor.js';
import { isAssertion, type Step } from './step-types.js';
import type { Page } from 'puppeteer-core';

export type { StepResult, StepStatus } from './step-executor.js';
export type Verdict = 'succeeded' | 'failed';

export interface RunResult {
  /** How the run ended (see `RunOutcome`); what the worker reads. */
  outcome: RunOutcome;
  /** `succeeded` when the outcome is `passed`, else `failed`: a shorthand for checks and benches. */
  verdict: Verdict;
  /** The same as `outcome.summary`. */
  summary: string;
  steps: StepResult[];
  assertions: { total: number; passed: number };
}

export interface RunInterpreterOptions {
  page: Page;
  steps: readonly Step[];
  log: AgentLog;
  limits?: Partial<RunLimits>;
  /** Move the drawn cursor with every pointer action (the recorder draws it). */
  highlightMouse?: boolean;
  /** Cancels the run (job cancelled, worker shutting down); the current step fails, the rest are skipped. */
  signal?: AbortSignal;
  /** Opened first unless the first step opens a page itself; also the base for relative URLs. */
  initialUrl?: string;
  /** Delay between typed characters, so recordings show typing. */
  typingDelayMs?: number;
  /** Values to mask in the log and the results (`metadata.secrets`). */
  secretValues?: readonly string[];
  /**
   * `metadata.secrets` by name: a step's `{{secret.NAME}}` is typed (or opened, or compared) as
   * its value, while the step's text, the log and the results keep the placeholder.
   */
  secrets?: Readonly<Record<string, string>>;
  /** Steps the interpreter could not read (`interpretQuery`'s `unknown`): run in order by `resolveStep`. */
  unknown?: readonly UnknownStep[];
  /**
   * The hybrid engine's hook: called for a step the interpreter could not read and for one that
   * failed because its target matched no element (never for an assertion read as false). Its
   * result replaces the step's; the run then goes on with the next step on the same page.
   */
  resolveStep?: StepResolver;
  /**
   * Steps `resolveStep` already knows how to do (a resolution stored by an earlier run): handed to
   * it at once, without the interpreter's own attempt (which would wait out the action timeout).
   */
  resolvesFirst?: (step: { index: number; text: string }) => boolean;
}

/** A step the interpreter hands over: it could not read it, or could not find its target. */
export interface StepToResolve {
  index: number;
  /** The step as written. */
  text: string;
  /** The step as the interpreter read it; absent when it could not read it. */
  step?: Step;
  reason: 'not understood' | 'target not found' | 'stored';
  /** The interpreter's own failed attempt, when it made one. */
  failed?: StepResult;
  /** The run's executor: the same budgets, wall clock, cancel, dialogs and log. */
  executor: StepExecutor;
}

export type StepResolver = (request: StepToResolve) => Promise<StepResult>;

type PlannedStep = { step: Step; unknown?: undefined } | { step?: undefined; unknown: UnknownStep };

export type InterpretedQuery =
  | { ok: true; steps: Step[] }
  | {
      ok: false;
      summary: string;
      steps: Step[];
      unknown: UnknownStep[];
      /** Set when the query is over `INSTRUCTION_LIMITS`: which limit, and that nothing was read. */
      limit?: string;
    };

/**
 * Parses a whole query before anything runs. When any step is not understood, the query is
 * rejected with a summary that quotes each such step and lists what is understood, so no browser
 * work is wasted on a test that cannot finish.
 */
export function interpretQuery(query: string): InterpretedQuery {
  let parsed: ReturnType<typeof parseInstructions>;
  try {
    parsed = parseInstructions(query);
  } catch (error) {
    if (!(error instanceof InstructionLimitError)) throw error;
    const summary = `The instructions were not read: ${error.message}.`;
    return { ok: false, steps: [], unknown: [], summary, limit: error.message };
  }
  const { steps, unknown } = parsed;
  const phrasings = SUPPORTED_PHRASINGS.map((p) => `  - ${p}`).join('\n');
  if (steps.length === 0 && unknown.length === 0) {
    return {
      ok: false,
      steps,
      unknown,
      summary: `The query has no steps to run. Write one step per line or sentence, for example:\n${phrasings}`,
    };
  }
  if (unknown.length > 0) {
    const total = steps.length + unknown.length;
    const listed = unknown.map((u) => `  - step ${u.index}: "${u.text}"`).join('\n');
    const count = unknown.length === 1 ? `1 of ${total} steps` : `${unknown.length} of ${total} steps`;
    return {
      ok: false,
      steps,
      unknown,
      summary: `Could not understand ${count}, so the test was not run:\n${listed}\nRephrase ${unknown.length === 1 ? 'it' : 'them'} using one of these forms:\n${phrasings}`,
    };
  }
  return { ok: true, steps };
}

/** Runs parsed steps in order against `page`; stops at the first failure and skips the rest. */
export async function runInterpreter(options: RunInterpreterOptions): Promise<RunResult> {
  const { page, steps, log, initialUrl, resolveStep } = options;
  const secrets = new SecretValues(options.secrets);
  const planned: PlannedStep[] = [
    ...steps.map((step): PlannedStep => ({ step: options.secrets ? secrets.revealStep(step) : step })),
    ...(options.unknown ?? []).map((unknown): PlannedStep => ({ unknown })),
  ].sort((a, b) => (a.step ?? a.unknown).index - (b.step ?? b.unknown).index);
  const executor = await StepExecutor.start({
    page,
    log,
    limits: resolveLimits(options.limits),
    signal: options.signal,
    highlightMouse: options.highlightMouse,
    typingDelayMs: options.typingDelayMs,
    baseUrl: initialUrl,
    stepCount: planned.length,
  });
  for (const value of [...secretFieldValues(steps), ...(options.secretValues ?? []), ...secrets.values])
    log.addSecret(value);
  const results: StepResult[] = [];
  const skip = (item: PlannedStep) => executor.skip(item.step ?? { ...item.unknown, action: 'unknown' });
  try {
    if (initialUrl && planned[0]?.step?.action !== 'navigate') {
      const failed = await executor.openStartPage(initialUrl);
      if (failed) {
        for (const item of planned) results.push(skip(item));
        const summary = `The start page ${initialUrl} could not be opened (${failed.error}), so no steps ran.`;
        return finish(results, planned, log, executor.stopped, summary);
      }
    }
    let failed = false;
    for (const item of planned) {
      if (failed) {
        results.push(skip(item));
        continue;
      }
      const result = await runPlanned(item, executor, resolveStep, options.resolvesFirst);
      results.push(result);
      failed = result.status === 'failed';
    }
    return finish(results, planned, log, executor.stopped);
  } finally {
    await executor.close();
  }
}

/** One step: the interpreter's own run, handed to `resolve` when it cannot read or resolve it. */
async function runPlanned(
  item: PlannedStep,
  executor: StepExecutor,
  resolve: StepResolver | undefined,
  resolvesFirst: RunInterpreterOptions['resolvesFirst'],
): Promise<StepResult> {
  const { index, text } = item.step ?? item.unknown;
  if (resolve && resolvesFirst?.({ index, text })) {
    return resolve({ index, text, ...(item.step ? { step: item.step } : {}), reason: 'stored', executor });
  }
  if (!item.step) {
    if (resolve) return resolve({ index, text, reason: 'not understood', executor });
    return notUnderstood(item.unknown);
  }
  if (!resolve) return (await executor.run(item.step)).result;
  const executed = await executor.run(item.step, { resolvedBy: 'interpreted' });
  if (executed.result.status === 'failed' && executed.unresolved && !executor.stopped) {
    return resolve({
      index,
      text,
      step: item.step,
      reason: 'target not found',
      failed: executed.result,
      executor,
    });
  }
  return executed.result;
}

/** Without a resolver a step that was not read fails as the query's rejection would say. */
function notUnderstood(unknown: UnknownStep): StepResult {
  const error = `not understood: "${unknown.text}"`;
  return { ...unknown, action: 'unknown', status: 'failed', durationMs: 0, error };
}

function finish(
  results: StepResult[],
  planned: readonly PlannedStep[],
  log: AgentLog,
  stopped: RunStoppedError | undefined,
  openingError?: string,
): RunResult {
  // A step the model resolved counts as an assertion when the interpreter read it as one, or
  // when it was not read and the model checked it with assertions.
  const assertionAt = new Set(
    planned
      .filter((item) => (item.step ? isAssertion(item.step) : false))
      .map((item) => (item.step ?? item.unknown).index),
  );
  for (const r of results) if (r.action.startsWith('assert')) assertionAt.add(r.index);
  const passedAssertions = results.filter((r) => r.status === 'passed' && assertionAt.has(r.index)).length;
  const assertions = { total: assertionAt.size, passed: passedAssertions };
  const failed = results.find((r) => r.status === 'failed');
  let summary: string;
  if (openingError) {
    summary = openingError;
  } else if (failed) {
    const later = results.filter((r) => r.status === 'skipped').length;
    const skippedNote =
      later === 0 ? '' : ` ${later} later ${later === 1 ? 'step was' : 'steps were'} skipped.`;
    const reason = (failed.error ?? 'unknown error').replace(/[.\s]+$/, '');
    summary = `Step ${failed.index} of ${planned.length} failed ("${failed.text}"): ${reason}.${skippedNote}`;
  } else if (planned.length === 0) {
    summary = 'There were no steps to run.';
  } else {
    const all = `All ${planned.length} ${planned.length === 1 ? 'step' : 'steps'}`;
    summary =
      assertions.total === 0
        ? `${all} ran, but no assertions were made, so nothing was verified.`
        : `${all} passed; ${assertions.total} ${assertions.total === 1 ? 'assertion' : 'assertions'} held.`;
  }
  summary += resolutionNote(results);
  const passed = !openingError && !failed && planned.length > 0;
  log.verdict(passed ? 'succeeded' : 'failed', summary);
  const shown = log.redactText(summary);
  const failingStep = failed ? { failingStep: failed } : {};
  const outcome: RunOutcome = passed
    ? { kind: 'passed', summary: shown }
    : stopped
      ? { kind: 'cancelled', summary: shown, stop: stopped.kind, ...failingStep }
      : { kind: 'failed', summary: shown, ...failingStep };
  return { outcome, verdict: verdictOf(outcome), summary: shown, steps: results, assertions };
}

const RESOLUTION_WORDS: ReadonlyArray<[StepResolution, string]> = [
  ['interpreted', 'interpreted'],
  ['model', 'resolved by the model'],
  ['replayed', 'replayed without the model'],
  ['healed', 'healed by the model'],
];

/** The hybrid engine's count of who resolved the steps that ran: " Steps: 3 interpreted, 1 …". */
function resolutionNote(results: readonly StepResult[]): string {
  if (!results.some((r) => r.resolvedBy)) return '';
  const parts = RESOLUTION_WORDS.map(([kind, words]) => {
    const count = results.filter((r) => r.resolvedBy === kind).length;
    return count > 0 ? `${count} ${words}` : undefined;
  }).filter((part) => part !== undefined);
  return parts.length > 0 ? ` Steps: ${parts.join(', ')}.` : '';
}
