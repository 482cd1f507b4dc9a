import type { Dialog, Page } from 'puppeteer-core';
import type { AgentLog } from './agent-log.js';
import { CursorOverlay } from './cursor-overlay.js';
import { parseInstructions, SUPPORTED_PHRASINGS, type UnknownStep } from './instruction-parser.js';
import { PagePointer } from './page-pointer.js';
import type { RecordedAction } from './recorded-action.js';
import { LimitExceededError, resolveLimits, type RunLimits, StepFailedError } from './run-limits.js';
import { type ActionStep, runAction } from './step-actions.js';
import { runAssertion } from './step-assertions.js';
import type { StepContext } from './step-context.js';
import { isAssertion, type Step, type StepAction } from './step-types.js';

/** Fields whose typed value is kept out of the log, the results and the summary. */
const SECRET_FIELD =
  /pass(?:word|code|phrase)?|secret|token|api[\s_-]?key|\bpin\b|otp|one[\s-]time|cvc|cvv|security code/i;

export type StepStatus = 'passed' | 'failed' | 'skipped';
export type Verdict = 'succeeded' | 'failed';

export interface StepResult {
  index: number;
  text: string;
  action: StepAction;
  status: StepStatus;
  durationMs: number;
  /** How the step's element was found ("role+name", "label", "text", …). */
  strategy?: string;
  candidates?: number;
  /** What happened, in words ("clicked the button "Sign in""). */
  message?: string;
  error?: string;
  /** The page's URL when the step ended. */
  url?: string;
  /** A passed step as it ran (with the element it found), for exporting the run as a script. */
  recorded?: RecordedAction;
}

export interface RunResult {
  verdict: Verdict;
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
  const { page, steps, log } = options;
  const limits = resolveLimits(options.limits);
  const typingDelayMs = options.typingDelayMs ?? (options.highlightMouse ? 25 : 0);
  const cursor = options.highlightMouse ? CursorOverlay.for(page) : undefined;
  if (cursor) await cursor.install();
  const pointer = new PagePointer(page, cursor);
  for (const step of steps) {
    if (step.action === 'type' && step.target && SECRET_FIELD.test(step.target.name))
      log.addSecret(step.value);
  }

  const controller = new AbortController();
  const jobTimer = setTimeout(
    () =>
      controller.abort(
        new LimitExceededError(
          'job time limit',
          limits.jobTimeoutMs,
          'the run was stopped because it took too long',
        ),
      ),
    limits.jobTimeoutMs,
  );
  const onExternalAbort = () => controller.abort(abortReason(options.signal?.reason));
  if (options.signal?.aborted) onExternalAbort();
  options.signal?.addEventListener('abort', onExternalAbort, { once: true });

  // Alerts and confirms would block every later call into the page; accept them and say so.
  const onDialog = (dialog: Dialog) => {
    log.info(`accepted a ${dialog.type()} dialog: "${dialog.message()}"`);
    void dialog.accept().catch(() => undefined);
  };
  page.on('dialog', onDialog);

  const results: StepResult[] = [];
  try {
    const opening = await openInitialUrl(options, limits, pointer, controller.signal);
    if (opening) {
      for (const step of steps) results.push(skipped(step, log));
      return finish(results, steps, log, opening);
    }
    let failed = false;
    for (const step of steps) {
      if (failed) {
        results.push(skipped(step, log));
        continue;
      }
      const result = await runStep(step, {
        page,
        limits,
        pointer,
        typingDelayMs,
        log,
        signal: controller.signal,
        baseUrl: options.initialUrl,
      });
      results.push(result);
      failed = result.status === 'failed';
    }
    return finish(results, steps, log);
  } finally {
    clearTimeout(jobTimer);
    options.signal?.removeEventListener('abort', onExternalAbort);
    page.off('dialog', onDialog);
    await log.flush();
  }
}

function abortReason(reason: unknown): Error {
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new StepFailedError("the run was stopped by the caller's time limit");
  }
  if (reason instanceof Error && reason.name !== 'AbortError') return reason;
  return new StepFailedError('the run was cancelled');
}

const WATCHDOG_SLACK_MS = 5_000;

/**
 * The longest a step may take before it is considered hung (a frozen page can leave a browser call
 * waiting forever): its own budget plus room for one navigation.
 */
function stepBudgetMs(step: Step, limits: RunLimits): number {
  switch (step.action) {
    case 'wait':
      return step.ms + WATCHDOG_SLACK_MS;
    case 'navigate':
    case 'goBack':
    case 'goForward':
    case 'reload':
      return limits.navigationTimeoutMs + WATCHDOG_SLACK_MS;
    case 'waitForText':
    case 'waitForElement':
    case 'waitForLoad':
      return (
        (step.timeoutMs ?? Math.max(limits.actionTimeoutMs, limits.navigationTimeoutMs)) + WATCHDOG_SLACK_MS
      );
    default:
      if (isAssertion(step)) {
        const own = step.timeoutMs ?? (step.patient ? limits.actionTimeoutMs : limits.assertionTimeoutMs);
        return own + WATCHDOG_SLACK_MS;
      }
      return limits.actionTimeoutMs + limits.navigationTimeoutMs + WATCHDOG_SLACK_MS;
  }
}

/** Opens the start page unless the first step opens one itself. Returns an error message if it fails. */
async function openInitialUrl(
  options: RunInterpreterOptions,
  limits: RunLimits,
  pointer: PagePointer,
  signal: AbortSignal,
): Promise<string | undefined> {
  const first = options.steps[0];
  if (!options.initialUrl || first?.action === 'navigate') return undefined;
  const started = Date.now();
  const ctx: StepContext = {
    page: options.page,
    limits,
    pointer,
    signal,
    baseUrl: options.initialUrl,
    typingDelayMs: 0,
    deadline: started + limits.actionTimeoutMs,
    report: {},
  };
  try {
    const message = await raceAbort(
      runAction(ctx, {
        action: 'navigate',
        url: options.initialUrl,
        index: 0,
        text: `open ${options.initialUrl}`,
      }),
      signal,
    );
    options.log.info(message, {
      action: 'navigate',
      url: options.page.url(),
      durationMs: Date.now() - started,
    });
    return undefined;
  } catch (error) {
    const message = errorMessage(error);
    options.log.write({
      outcome: 'failed',
      level: 'error',
      action: 'navigate',
      message: `could not open the start page ${options.initialUrl}`,
      error: message,
      durationMs: Date.now() - started,
    });
    return `The start page ${options.initialUrl} could not be opened (${message}), so no steps ran.`;
  }
}

interface RunContext {
  page: Page;
  limits: RunLimits;
  pointer: PagePointer;
  typingDelayMs: number;
  log: AgentLog;
  signal: AbortSignal;
  baseUrl?: string;
}

async function runStep(step: Step, run: RunContext): Promise<StepResult> {
  const started = Date.now();
  // One signal per step: the run's (cancel, job limit) plus a watchdog for a hung browser call.
  const stepAbort = new AbortController();
  const budgetMs = stepBudgetMs(step, run.limits);
  const watchdog = setTimeout(
    () =>
      stepAbort.abort(
        new LimitExceededError(
          'step time limit',
          budgetMs,
          'the browser stopped responding during this step',
        ),
      ),
    budgetMs,
  );
  const forward = () => stepAbort.abort(run.signal.reason);
  if (run.signal.aborted) forward();
  else run.signal.addEventListener('abort', forward, { once: true });
  const ctx: StepContext = {
    page: run.page,
    limits: run.limits,
    pointer: run.pointer,
    signal: stepAbort.signal,
    baseUrl: run.baseUrl,
    typingDelayMs: run.typingDelayMs,
    deadline: started + run.limits.actionTimeoutMs,
    report: {},
  };
  run.log.write({
    outcome: 'started',
    step: step.index,
    action: step.action,
    message: step.text,
    url: safeUrl(run.page),
  });
  let status: StepStatus;
  let message: string | undefined;
  let error: string | undefined;
  try {
    const work = isAssertion(step) ? runAssertion(ctx, step) : runAction(ctx, step as ActionStep);
    message = await raceAbort(work, stepAbort.signal);
    status = 'passed';
  } catch (caught) {
    status = 'failed';
    error = errorMessage(caught);
  } finally {
    clearTimeout(watchdog);
    run.signal.removeEventListener('abort', forward);
  }
  const durationMs = Date.now() - started;
  const url = safeUrl(run.page);
  const { target, strategy, candidates, ambiguous, element } = ctx.report;
  if (ambiguous && candidates !== undefined && status === 'passed') {
    run.log.write({
      outcome: 'info',
      level: 'warn',
      step: step.index,
      action: step.action,
      target,
      strategy,
      candidates,
      message: `${candidates} elements matched; used the first visible one (controls before plain text, then document order)`,
    });
  }
  run.log.write({
    outcome: status,
    step: step.index,
    action: step.action,
    target,
    strategy,
    candidates,
    durationMs,
    url,
    message: message ?? step.text,
    error,
  });
  const redact = (text: string) => run.log.redactText(text);
  return {
    index: step.index,
    text: redact(step.text),
    action: step.action,
    status,
    durationMs,
    ...(strategy ? { strategy } : {}),
    ...(candidates !== undefined ? { candidates } : {}),
    ...(message ? { message: redact(message) } : {}),
    ...(error ? { error: redact(error) } : {}),
    ...(url ? { url: redact(url) } : {}),
    ...(status === 'passed' ? { recorded: recordAction(step, element, run.log) } : {}),
  };
}

/**
 * The step for an exported script. A value typed into a secret-looking field becomes a
 * `{{secret.NAME}}` placeholder named after the field, so the script reads it from the environment.
 */
export function recordAction(
  step: Step,
  element: RecordedAction['element'],
  log?: Pick<AgentLog, 'redactText'>,
): RecordedAction {
  const body: Partial<Step> = { ...step };
  delete body.index;
  delete body.text;
  if (body.action === 'type' && body.value && log && log.redactText(body.value) !== body.value) {
    const name = (body.target?.name ?? 'secret').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
    body.value = `{{secret.${(name || 'SECRET').toUpperCase()}}}`;
  }
  return { step: body as RecordedAction['step'], ...(element ? { element } : {}) };
}

/** Stops waiting for a step when the run is aborted; the step's own work is abandoned with the page. */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    // Puppeteer's protocol errors carry a method name people do not need.
    return error.message.replace(/^Protocol error \([^)]*\):\s*/, '');
  }
  return String(error);
}

function safeUrl(page: Page): string | undefined {
  try {
    const url = page.url();
    return url && url !== 'about:blank' ? url : undefined;
  } catch {
    return undefined;
  }
}

function skipped(step: Step, log: AgentLog): StepResult {
  log.write({ outcome: 'skipped', step: step.index, action: step.action, message: step.text });
  return {
    index: step.index,
    text: log.redactText(step.text),
    action: step.action,
    status: 'skipped',
    durationMs: 0,
  };
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
  log.write({
    outcome: 'info',
    level: verdict === 'succeeded' ? 'info' : 'error',
    message: `verdict: ${verdict}. ${summary}`,
  });
  return { verdict, summary: log.redactText(summary), steps: results, assertions };
}
