import type { Dialog, Page } from 'puppeteer-core';
import { removeMadeFiles } from './file-upload.js';
import type { AgentLog } from './agent-log.js';
import { CursorOverlay } from './cursor-overlay.js';
import type { ElementLocator } from './element-description-script.js';
import { ElementNotFoundError, noteStepSentence } from './element-locator.js';
import { PagePointer } from './page-pointer.js';
import { recordAction, type RecordedAction } from './recorded-action.js';
import { RunGuard, type RunStoppedError } from './run-guard.js';
import { LimitExceededError, type RunLimits } from './run-limits.js';
import { noteActionDone } from './page-settle.js';
import { runAction } from './step-actions.js';
import { runStep } from './run-step.js';
import type { StepContext, StepReport } from './step-context.js';
import { isAssertion, type Step, type StepAction } from './step-types.js';

export type StepStatus = 'passed' | 'failed' | 'skipped';

/**
 * Who resolved a step (the hybrid engine): the interpreter on its own, the model (the step was not
 * understood or its target not found), a stored resolution replayed without the model, or one that
 * no longer matched and was re-resolved by the model (healed).
 */
export type StepResolution = 'interpreted' | 'model' | 'replayed' | 'healed';

/** A step's action, or `unknown` for a step the interpreter could not read (and nothing resolved). */
export type StepResultAction = StepAction | 'unknown';

export interface StepResult {
  index: number;
  text: string;
  action: StepResultAction;
  status: StepStatus;
  durationMs: number;
  /** How the step's element was found ("role+name", "label", "text", "ref", …). */
  strategy?: string;
  candidates?: number;
  /** What happened, in words ("clicked the button "Sign in""). */
  message?: string;
  error?: string;
  /** The page's URL when the step ended. */
  url?: string;
  /** A passed step as it ran (with the element it found), for exporting the run as a script. */
  recorded?: RecordedAction;
  /** Set by the hybrid engine: who resolved the step. */
  resolvedBy?: StepResolution;
}

export interface StepExecutorOptions {
  page: Page;
  log: AgentLog;
  limits: RunLimits;
  /** The caller's cancel (job cancelled, worker shutting down, its own clock). */
  signal?: AbortSignal | undefined;
  /** Move the drawn cursor with every pointer action (the recorder draws it). */
  highlightMouse?: boolean | undefined;
  /** Delay between typed characters; recordings show typing when the cursor is drawn. */
  typingDelayMs?: number | undefined;
  /** Where relative URLs point before any page is open. */
  baseUrl?: string | undefined;
  /** How many steps the run has, when known up front; `started` entries carry it (step progress). */
  stepCount?: number | undefined;
}

/**
 * How a caller that names elements its own way (the LLM agent's refs) wants a step shown: in its
 * log entries, its result and what the step said.
 */
export interface StepView {
  /** Shown instead of the target the step located. */
  target?: string;
  /** Shown instead of the locator strategy, when one was used. */
  strategy?: string;
  /** Applied to the target, the message and the error (e.g. a ref's CSS selector → its description). */
  rewrite?: (text: string) => string;
  /** The step as an exported script records it (placeholders instead of revealed secrets). */
  recordAs?: Step;
  /** The element to record when the step did not describe one itself. */
  element?: ElementLocator;
  /** Hybrid engine: who resolved the step, for its outcome entry and result. */
  resolvedBy?: StepResolution;
}

export interface ExecutedStep {
  result: StepResult;
  /** The step's outcome in words (its message, or its error when it failed), not redacted. */
  said: string;
  /** Set when the run was stopped (time limit, cancel) during the step: the step failed with it. */
  stopped?: RunStoppedError;
  /**
   * The step failed because its target matched no element (or no single one), not because
   * something it read was false: an action's element was not found, or an assertion about an
   * element's value, text or state found no such element. Presence checks (visible, hidden, text on
   * the page, counts) never set it: for them "not there" is the answer.
   */
  unresolved?: boolean;
}

/** Room above a step's own timeouts before the watchdog calls the browser hung. */
export const WATCHDOG_SLACK_MS = 5_000;

/**
 * The longest a step may take before it is considered hung (a frozen page can leave a browser call
 * waiting forever): its own timeouts plus slack.
 */
export function stepBudgetMs(step: Step, limits: RunLimits): number {
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

/**
 * How a step runs, for both engines (the instruction interpreter and the LLM agent): the run's
 * wall clock and cancel, one budget and watchdog per step, accepted dialogs, the step's log
 * entries (started, an ambiguity warning, its outcome) and its result.
 */
export class StepExecutor {
  private readonly guard: RunGuard;
  private readonly page: Page;
  private readonly log: AgentLog;
  private readonly typingDelayMs: number;
  private pointer: PagePointer;

  private constructor(private readonly options: StepExecutorOptions) {
    this.page = options.page;
    this.log = options.log;
    this.typingDelayMs = options.typingDelayMs ?? (options.highlightMouse ? 25 : 0);
    this.guard = new RunGuard(options.limits.jobTimeoutMs, options.signal);
    this.pointer = new PagePointer(this.page);
    this.page.on('dialog', this.onDialog);
  }

  /** Starts the run's clock and listeners; `close()` ends them. */
  static async start(options: StepExecutorOptions): Promise<StepExecutor> {
    const executor = new StepExecutor(options);
    try {
      const cursor = options.highlightMouse ? CursorOverlay.for(options.page) : undefined;
      if (cursor) await cursor.install();
      executor.pointer = new PagePointer(options.page, cursor);
    } catch (error) {
      await executor.close();
      throw error;
    }
    return executor;
  }

  /** Aborts when the run is stopped; its reason is a `RunStoppedError`. */
  get signal(): AbortSignal {
    return this.guard.signal;
  }

  /** Why the run was stopped, once it was. */
  get stopped(): RunStoppedError | undefined {
    return this.guard.stopped;
  }

  /** Ends the run's clock and listeners and waits for the log to reach its sink. */
  async close(): Promise<void> {
    this.guard.release();
    this.page.off('dialog', this.onDialog);
    await removeMadeFiles(this.page);
    await this.log.flush();
  }

  /** Opens the start page within the navigation budget. Returns why it failed, if it did. */
  async openStartPage(url: string): Promise<{ error: string; stopped?: RunStoppedError } | undefined> {
    const started = Date.now();
    const step: Step = { action: 'navigate', url, index: 0, text: `open ${url}` };
    try {
      const message = await this.withBudget(step, (ctx) => runAction(ctx, step));
      this.log.info(message, { action: 'navigate', url: this.page.url(), durationMs: Date.now() - started });
      return undefined;
    } catch (caught) {
      const error = errorMessage(caught);
      this.log.write({
        outcome: 'failed',
        level: 'error',
        action: 'navigate',
        message: `could not open the start page ${url}`,
        error,
        durationMs: Date.now() - started,
      });
      return { error, ...(this.guard.stopped ? { stopped: this.guard.stopped } : {}) };
    }
  }

  /** Runs one step: logs it, bounds it, and returns its result. Never throws for a failed step. */
  async run(step: Step, view: StepView = {}): Promise<ExecutedStep> {
    const started = Date.now();
    const rewrite = view.rewrite ?? ((text: string) => text);
    const { stepCount } = this.options;
    this.log.write({
      outcome: 'started',
      step: step.index,
      ...(stepCount !== undefined ? { stepCount } : {}),
      action: step.action,
      message: step.text,
      url: safeUrl(this.page),
    });
    let message: string | undefined;
    let error: string | undefined;
    let notFound = false;
    let recordAs: Step | undefined;
    const report: StepReport = {};
    try {
      message = await this.withBudget(
        step,
        (ctx) =>
          isAssertion(step) ? runStep(ctx, step) : runStep(ctx, step).finally(() => noteActionDone(ctx.page)),
        report,
      );
    } catch (caught) {
      error = rewrite(errorMessage(caught));
      notFound = caught instanceof ElementNotFoundError || propertyTargetMissing(step, report);
      // "Search trips" where the page has no search box but a "Search trips" button: the step's
      // own words are the control's name, as a person reads them.
      const ownWords = caught instanceof ElementNotFoundError ? ownWordsClick(step) : undefined;
      if (ownWords) {
        const again: StepReport = {};
        try {
          message = await this.withBudget(
            ownWords,
            (ctx) => runStep(ctx, ownWords).finally(() => noteActionDone(ctx.page)),
            again,
          );
          message = `${message} (the step's own words name that control)`;
          Object.assign(report, again);
          recordAs = ownWords;
          error = undefined;
          notFound = false;
        } catch {
          // The first reading's error stands.
        }
      }
    }
    const status: StepStatus = error === undefined ? 'passed' : 'failed';
    const durationMs = Date.now() - started;
    const url = safeUrl(this.page);
    const target = view.target ?? (report.target !== undefined ? rewrite(report.target) : undefined);
    const strategy = report.strategy ? (view.strategy ?? report.strategy) : undefined;
    const { candidates } = report;
    if (report.ambiguous && candidates !== undefined && status === 'passed') {
      this.log.write({
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
    for (const closer of this.pointer.takeClosedPopups())
      this.log.write({
        outcome: 'info',
        level: 'warn',
        step: step.index,
        action: step.action,
        target,
        message: `a popup covered the element; closed it with "${rewrite(closer)}"`,
      });
    if (report.revealed?.length)
      this.log.write({
        outcome: 'info',
        step: step.index,
        action: step.action,
        target,
        message: `opened ${report.revealed.map((what) => `"${rewrite(what)}"`).join(', then ')} to bring the element into view`,
      });
    const said = error ?? rewrite(message ?? 'done');
    const shown = rewrite(message ?? step.text);
    this.log.write({
      outcome: status,
      step: step.index,
      action: step.action,
      target,
      strategy,
      candidates,
      durationMs,
      url,
      message: shown,
      error,
      ...(view.resolvedBy ? { resolvedBy: view.resolvedBy } : {}),
    });
    const redact = (text: string) => this.log.redactText(text);
    const element = report.element ?? view.element;
    const result: StepResult = {
      index: step.index,
      text: redact(step.text),
      action: step.action,
      status,
      durationMs,
      ...(strategy ? { strategy } : {}),
      ...(candidates !== undefined ? { candidates } : {}),
      ...(message ? { message: redact(shown) } : {}),
      ...(error ? { error: redact(error) } : {}),
      ...(url ? { url: redact(url) } : {}),
      ...(status === 'passed'
        ? { recorded: recordAction(recordAs ?? view.recordAs ?? step, element, this.log) }
        : {}),
      ...(view.resolvedBy ? { resolvedBy: view.resolvedBy } : {}),
    };
    const stopped = status === 'failed' ? this.guard.stopped : undefined;
    return {
      result,
      said,
      ...(stopped ? { stopped } : {}),
      ...(notFound && !stopped ? { unresolved: true } : {}),
    };
  }

  /** A step that did not run because an earlier one failed. */
  skip(step: Pick<Step, 'index' | 'text'> & { action: StepResultAction }): StepResult {
    this.log.write({ outcome: 'skipped', step: step.index, action: step.action, message: step.text });
    return {
      index: step.index,
      text: this.log.redactText(step.text),
      action: step.action,
      status: 'skipped',
      durationMs: 0,
    };
  }

  /**
   * Runs `work` with a fresh context whose signal aborts on the run's stop or the step's watchdog;
   * what the step finds goes into `report`, also when it fails.
   */
  private async withBudget(
    step: Step,
    work: (ctx: StepContext) => Promise<string>,
    report: StepReport = {},
  ): Promise<string> {
    const budgetMs = stepBudgetMs(step, this.options.limits);
    const stepAbort = new AbortController();
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
    const run = this.guard.signal;
    const forward = () => stepAbort.abort(run.reason);
    if (run.aborted) forward();
    else run.addEventListener('abort', forward, { once: true });
    noteStepSentence(this.page, isAssertion(step) ? undefined : step.text);
    const ctx: StepContext = {
      page: this.page,
      limits: this.options.limits,
      pointer: this.pointer,
      signal: stepAbort.signal,
      baseUrl: this.options.baseUrl,
      typingDelayMs: this.typingDelayMs,
      deadline: Date.now() + this.options.limits.actionTimeoutMs,
      report,
    };
    try {
      return await raceAbort(work(ctx), stepAbort.signal);
    } finally {
      clearTimeout(watchdog);
      run.removeEventListener('abort', forward);
    }
  }

  // Alerts and confirms would block every later call into the page; accept them and say so.
  private readonly onDialog = (dialog: Dialog) => {
    this.log.info(`accepted a ${dialog.type()} dialog: "${dialog.message()}"`);
    void dialog.accept().catch(() => undefined);
  };
}

/**
 * An assertion about an element's value, text or state (not its presence) that failed without
 * finding the element: the step could not be resolved, nothing about the page was read as false.
 */
function propertyTargetMissing(step: Step, report: StepReport): boolean {
  if (report.strategy !== undefined || report.target === undefined) return false;
  switch (step.action) {
    case 'assertValue':
    case 'assertElementText':
      return true;
    case 'assertState':
      return step.state !== 'visible' && step.state !== 'hidden';
    default:
      return false;
  }
}

/** Stops waiting for a step when it is aborted; the step's own work is abandoned with the page. */
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

/** An error as a person reads it. */
export function errorMessage(error: unknown): string {
  // Puppeteer's protocol errors carry a method name people do not need.
  if (error instanceof Error) return error.message.replace(/^Protocol error \([^)]*\):\s*/, '');
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

/**
 * A click on the control named by the step's own words, for an action step of at most five plain
 * words whose reading found no element ("Search trips" read as a search); undefined otherwise.
 */
function ownWordsClick(step: Step): Step | undefined {
  if (isAssertion(step)) return undefined;
  const words = step.text.trim().replace(/[.!]+$/, '');
  if (!/^[\p{L}\p{N}][\p{L}\p{N} '’-]{0,60}$/u.test(words) || words.split(/\s+/).length > 5) return undefined;
  if ('target' in step && step.target?.name.toLowerCase() === words.toLowerCase()) return undefined;
  return {
    action: 'click',
    index: step.index,
    text: step.text,
    target: { name: words, control: true },
    clickCount: 1,
    button: 'left',
  };
}
