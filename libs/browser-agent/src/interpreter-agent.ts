import type { AgentLog } from './agent-log.js';
import { captureFailureScreenshot } from './failure-screenshot.js';
import { parseInstructions, SUPPORTED_PHRASINGS, type UnknownStep } from './instruction-parser.js';
import { resolveLimits, type RunLimits } from './run-limits.js';
import { secretFieldValues } from './secret-values.js';
import { StepExecutor, type StepResult } from './step-executor.js';
import { isAssertion, type Step } from './step-types.js';
import type { Page } from 'puppeteer-core';

export type { StepResult, StepStatus } from './step-executor.js';
export type Verdict = 'succeeded' | 'failed';

export interface RunResult {
  verdict: Verdict;
  summary: string;
  steps: StepResult[];
  assertions: { total: number; passed: number };
  /**
   * With `failureScreenshot`: the page when a step failed (PNG), secrets unreadable in it. The
   * caller stores it like the video.
   */
  screenshot?: Buffer;
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
  /** Take a screenshot of the page when a step fails (`RunResult.screenshot`). */
  failureScreenshot?: boolean;
  /** Values to mask in the log, the results and the screenshot (`metadata.secrets`). */
  secretValues?: readonly string[];
}

export type InterpretedQuery =
  { ok: true; steps: Step[] } | { ok: false; summary: string; steps: Step[]; unknown: UnknownStep[] };

/**
 * Parses a whole query before anything runs. When any step is not understood, the query is
 * rejected with a summary that quotes each such step and lists what is understood, so no browser
 * work is wasted on a test that cannot finish.
 */
export function interpretQuery(query: string): InterpretedQuery {
  const { steps, unknown } = parseInstructions(query);
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
  const { page, steps, log, initialUrl } = options;
  const executor = await StepExecutor.start({
    page,
    log,
    limits: resolveLimits(options.limits),
    signal: options.signal,
    highlightMouse: options.highlightMouse,
    typingDelayMs: options.typingDelayMs,
    baseUrl: initialUrl,
    stepCount: steps.length,
  });
  for (const value of [...secretFieldValues(steps), ...(options.secretValues ?? [])]) log.addSecret(value);
  const results: StepResult[] = [];
  let screenshot: Buffer | undefined;
  try {
    if (initialUrl && steps[0]?.action !== 'navigate') {
      const failed = await executor.openStartPage(initialUrl);
      if (failed) {
        for (const step of steps) results.push(executor.skip(step));
        const summary = `The start page ${initialUrl} could not be opened (${failed.error}), so no steps ran.`;
        return finish(results, steps, log, summary);
      }
    }
    let failed = false;
    for (const step of steps) {
      if (failed) {
        results.push(executor.skip(step));
        continue;
      }
      const { result } = await executor.run(step);
      results.push(result);
      failed = result.status === 'failed';
      if (failed && options.failureScreenshot) {
        screenshot = await captureFailureScreenshot(page, log.secretValues);
      }
    }
    const outcome = finish(results, steps, log);
    return screenshot ? { ...outcome, screenshot } : outcome;
  } finally {
    await executor.close();
  }
}

function finish(
  results: StepResult[],
  steps: readonly Step[],
  log: AgentLog,
  openingError?: string,
): RunResult {
  const assertionSteps = steps.filter(isAssertion);
  const passedAssertions = results.filter(
    (r) => r.status === 'passed' && assertionSteps.some((s) => s.index === r.index),
  ).length;
  const assertions = { total: assertionSteps.length, passed: passedAssertions };
  const failed = results.find((r) => r.status === 'failed');
  let verdict: Verdict;
  let summary: string;
  if (openingError) {
    verdict = 'failed';
    summary = openingError;
  } else if (failed) {
    verdict = 'failed';
    const later = results.filter((r) => r.status === 'skipped').length;
    const skippedNote =
      later === 0 ? '' : ` ${later} later ${later === 1 ? 'step was' : 'steps were'} skipped.`;
    const reason = (failed.error ?? 'unknown error').replace(/[.\s]+$/, '');
    summary = `Step ${failed.index} of ${steps.length} failed ("${failed.text}"): ${reason}.${skippedNote}`;
  } else if (steps.length === 0) {
    verdict = 'failed';
    summary = 'There were no steps to run.';
  } else {
    verdict = 'succeeded';
    const all = `All ${steps.length} ${steps.length === 1 ? 'step' : 'steps'}`;
    summary =
      assertions.total === 0
        ? `${all} ran, but no assertions were made, so nothing was verified.`
        : `${all} passed; ${assertions.total} ${assertions.total === 1 ? 'assertion' : 'assertions'} held.`;
  }
  log.verdict(verdict, summary);
  return { verdict, summary: log.redactText(summary), steps: results, assertions };
}
