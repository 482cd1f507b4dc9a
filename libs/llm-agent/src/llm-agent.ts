import { createHash } from 'node:crypto';
import {
  type ActionStep,
  type AgentLog,
  CursorOverlay,
  isAssertion,
  LimitExceededError,
  PagePointer,
  recordAction,
  type RecordedAction,
  runAction,
  runAssertion,
  type Step,
  type StepContext,
  StepFailedError,
  type StepResult,
  type Verdict,
} from '@suite/browser-agent';
import type { Dialog, Page } from 'puppeteer-core';
import { AGENT_TOOLS, isKnownTool, planToolCall } from './agent-tools.js';
import { type LlmRunLimits, resolveLlmLimits } from './llm-limits.js';
import {
  classifyProviderError,
  type LlmMessage,
  type LlmProvider,
  type LlmResponse,
  ProviderError,
  type ToolCall,
  type ToolResult,
} from './llm-provider.js';
import { formatSnapshot, type PageSnapshot, refExists, refSelector, takeSnapshot } from './page-snapshot.js';
import { instructionFor } from './script-export.js';
import { SecretValues } from './secret-values.js';
import { formatUsd, type ModelPricing, type RunUsage, UsageMeter } from './token-usage.js';

/** Why the loop stopped. */
export type LlmEndReason =
  | 'done'
  | 'step limit'
  | 'job time limit'
  | 'consecutive errors'
  | 'repeated action'
  | 'provider error'
  /** Something unexpected (the page or browser went away). */
  | 'agent error'
  | 'llm call timeout'
  | 'cancelled'
  | 'start page';

export interface RunLlmAgentOptions {
  page: Page;
  query: string;
  log: AgentLog;
  provider: LlmProvider;
  model: string;
  /** For the cost estimate; without it only tokens are reported. */
  pricing?: ModelPricing;
  limits?: Partial<LlmRunLimits>;
  highlightMouse?: boolean;
  initialUrl?: string;
  signal?: AbortSignal;
  /** name → value; typed into the page, never shown to the model or written to the log. */
  secrets?: Readonly<Record<string, string>>;
  /** Attach a JPEG of the viewport to each observation (costs tokens; off by default). */
  screenshot?: boolean;
  typingDelayMs?: number;
  /**
   * Continue a replayed run whose recorded step stopped working (self-healing): the start page is
   * not opened again, the model is told which steps already ran, and the script starts with them.
   */
  resume?: ResumeFrom;
}

/** Where a replay handed over to the model. */
export interface ResumeFrom {
  /** The recorded steps that ran and passed, as instruction lines (secrets as placeholders). */
  done: readonly string[];
  /** The recorded step that no longer works, and why. */
  failed: { text: string; error: string };
  /** Assertions among the steps that already ran: they count towards the verdict. */
  assertionsPassed: number;
}

export interface LlmRunResult {
  verdict: Verdict;
  summary: string;
  steps: StepResult[];
  assertions: { total: number; passed: number };
  usage: RunUsage;
  endedBy: LlmEndReason;
  /**
   * A passed run as instructions for the built-in interpreter (one per line, secrets as
   * `{{secret.NAME}}`), to replay it without a model; see `replayLlmScript`.
   */
  script?: string;
  /** Why a passed run has no script. */
  scriptUnavailable?: string;
}

/** A passed step's `StepResult` carries `recorded`: what ran, on which element, for script export. */
export type { RecordedAction };

const OMITTED = '(earlier observation omitted to keep the prompt small)';
const WATCHDOG_SLACK_MS = 5_000;

class RunEnded extends Error {
  constructor(
    readonly reason: LlmEndReason,
    message: string,
  ) {
    super(message);
  }
}

/** The observe → tool call → result loop, ending in a verdict that never rests on the model's word alone. */
export async function runLlmAgent(options: RunLlmAgentOptions): Promise<LlmRunResult> {
  return new LlmAgentRun(options).run();
}

class LlmAgentRun {
  private readonly limits: LlmRunLimits;
  private readonly secrets: SecretValues;
  private readonly meter: UsageMeter;
  private readonly controller = new AbortController();
  private readonly log: AgentLog;
  private readonly page: Page;
  private pointer!: PagePointer;
  private readonly messages: LlmMessage[] = [];
  private readonly observations: Array<{ text?: string; imageJpegBase64?: string }> = [];
  private readonly steps: StepResult[] = [];
  private snapshot: PageSnapshot | undefined;
  private assertionsPassed = 0;
  private assertionsTotal = 0;
  private firstFailedAssertion: string | undefined;
  private unrecoveredError: string | undefined;
  private consecutiveErrors = 0;
  private lastCallKey = '';
  private repeats = 0;
  private llmCalls = 0;
  private readonly scriptLines: string[] = [];
  private scriptBlocker: string | undefined;

  constructor(private readonly options: RunLlmAgentOptions) {
    this.limits = resolveLlmLimits(options.limits);
    this.secrets = new SecretValues(options.secrets);
    this.meter = new UsageMeter(options.pricing);
    this.log = options.log;
    this.page = options.page;
  }

  private get stepOffset(): number {
    return this.options.resume?.done.length ?? 0;
  }

  async run(): Promise<LlmRunResult> {
    if (this.options.resume) {
      this.scriptLines.push(...this.options.resume.done);
      this.assertionsPassed = this.options.resume.assertionsPassed;
      this.assertionsTotal = this.options.resume.assertionsPassed;
    }
    for (const value of this.secrets.values) this.log.addSecret(value);
    const jobTimer = setTimeout(
      () =>
        this.controller.abort(
          new RunEnded(
            'job time limit',
            `The run was stopped because it took too long (job time limit of ${this.limits.jobTimeoutMs} ms).`,
          ),
        ),
      this.limits.jobTimeoutMs,
    );
    const onExternalAbort = () => {
      const reason = this.options.signal?.reason as { name?: unknown } | undefined;
      // AbortSignal.timeout() from the caller is its wall clock, not a cancellation. (By name: its
      // DOMException may come from another realm, where instanceof Error is false.)
      this.controller.abort(
        reason?.name === 'TimeoutError'
          ? new RunEnded('job time limit', "The run was stopped by the caller's time limit.")
          : new RunEnded('cancelled', 'The run was cancelled.'),
      );
    };
    if (this.options.signal?.aborted) onExternalAbort();
    this.options.signal?.addEventListener('abort', onExternalAbort, { once: true });
    const onDialog = (dialog: Dialog) => {
      this.log.info(`accepted a ${dialog.type()} dialog: "${dialog.message()}"`);
      void dialog.accept().catch(() => undefined);
    };
    this.page.on('dialog', onDialog);
    try {
      const cursor = this.options.highlightMouse ? CursorOverlay.for(this.page) : undefined;
      if (cursor) await cursor.install();
      this.pointer = new PagePointer(this.page, cursor);
      this.log.info(
        `LLM agent: ${this.options.provider.name} model ${this.options.model}; limits: ${this.limits.maxSteps} steps, ${Math.round(this.limits.jobTimeoutMs / 1000)} s`,
      );
      return await this.loop();
    } catch (error) {
      const ended = this.endedFrom(error);
      return this.finish('failed', ended.reason, ended.message);
    } finally {
      clearTimeout(jobTimer);
      this.options.signal?.removeEventListener('abort', onExternalAbort);
      this.page.off('dialog', onDialog);
      await this.log.flush();
    }
  }

  private endedFrom(error: unknown): RunEnded {
    if (error instanceof RunEnded) return error;
    const reason = this.controller.signal.reason as unknown;
    if (this.controller.signal.aborted && reason instanceof RunEnded) return reason;
    return new RunEnded('agent error', `The agent stopped on an unexpected error: ${errorMessage(error)}.`);
  }

  private async loop(): Promise<LlmRunResult> {
    if (this.options.initialUrl && !this.options.resume) {
      this.scriptLines.push(`open ${this.options.initialUrl}`);
      const opened = await this.openStartPage(this.options.initialUrl);
      if (!opened) {
        return this.finish(
          'failed',
          'start page',
          `The start page ${this.options.initialUrl} could not be opened, so the agent did not start.`,
        );
      }
    }
    const first = await this.observe();
    this.messages.push({ ...first, role: 'user', text: `${this.taskText()}${first.text}` });
    this.observations.push(this.messages[0] as { text?: string });

    for (let turn = 1; turn <= this.limits.maxSteps; turn++) {
      this.throwIfStopped();
      const response = await this.callModel(turn);
      const calls = response.toolCalls;
      if (response.text) this.log.info(`model says: ${cut(response.text, 300)}`);
      // Both APIs refuse an assistant turn with neither text nor tool calls.
      const text = response.text || (calls.length === 0 ? '(no answer)' : undefined);
      this.messages.push({ role: 'assistant', ...(text ? { text } : {}), toolCalls: calls });
      if (calls.length === 0) {
        this.log.write({
          outcome: 'info',
          level: 'warn',
          message: `agent step ${turn}: the model answered without a tool call (stop reason: ${response.stopReason ?? 'none'})`,
        });
        this.countError('the model answered without calling a tool');
        this.messages.push({
          role: 'user',
          text: 'Answer with a tool call. Call done(passed, summary) when the test is finished.',
        });
        continue;
      }
      const results: ToolResult[] = [];
      let done: { passed: boolean; summary: string } | undefined;
      let failed = false;
      for (const call of calls) {
        // Later calls of a turn were planned for a page the failed one did not produce.
        if (done || failed) {
          const why = done ? 'done was already called' : 'an earlier call of this turn failed';
          results.push({ callId: call.id, content: `not run: ${why}`, isError: true });
          continue;
        }
        const outcome = await this.runToolCall(call);
        results.push(outcome.result);
        if (outcome.done) done = outcome.done;
        failed = outcome.result.isError === true;
      }
      if (done) return this.verdictFromDone(done.passed, done.summary);
      const observation = await this.observe();
      const toolMessage: LlmMessage = { role: 'tool', results, ...observation };
      this.messages.push(toolMessage);
      this.observations.push(toolMessage as { text?: string });
      this.trimObservations();
    }
    return this.finish(
      'failed',
      'step limit',
      `The agent did not finish within ${this.limits.maxSteps} steps (step limit of ${this.limits.maxSteps}).`,
    );
  }

  private taskText(): string {
    const resume = this.options.resume;
    const start = resume
      ? `An earlier passing run of this test was replayed. These recorded steps already ran and passed; do not repeat them:\n${resume.done.map((line, i) => `${i + 1}. ${line}`).join('\n')}\nThe next recorded step no longer works: "${resume.failed.text}" (${resume.failed.error}). Continue the test from the current page.\n`
      : this.options.initialUrl
        ? `The browser has opened ${this.options.initialUrl}.\n`
        : '';
    const secrets =
      this.secrets.placeholders.length > 0
        ? `Secrets you can type (write the placeholder exactly; the real value is filled in): ${this.secrets.placeholders.join(', ')}\n`
        : '';
    return `${start}${secrets}Test instructions:\n${this.secrets.redact(this.options.query)}\n\nCurrent page:\n`;
  }

  private systemPrompt(): string {
    return [
      'You are a browser test agent. You carry out the test instructions in a real browser using only the tools.',
      'Each observation shows the URL, the title, the elements with refs like [e3], and the page text. Use refs from the latest observation only.',
      'Verify every expectation of the test with assert_* tools (assert_text, assert_title, assert_url, assert_element_text, assert_value, assert_state). An expectation you did not assert is not verified.',
      'When finished, call done. passed=true only when your assertions proved every expectation; passed=false when the page did not behave as the test expects or you could not do a step.',
      'Do not repeat an action that did not work; try something else or call done with passed=false.',
    ].join('\n');
  }

  private async openStartPage(url: string): Promise<boolean> {
    const started = Date.now();
    try {
      const message = await this.withStepBudget(
        (ctx) => runAction(ctx, { action: 'navigate', url, index: 0, text: `open ${url}` }),
        this.limits.navigationTimeoutMs + WATCHDOG_SLACK_MS,
      );
      this.log.info(message, { action: 'navigate', url: this.page.url(), durationMs: Date.now() - started });
      return true;
    } catch (error) {
      if (this.controller.signal.aborted) throw this.endedFrom(error);
      this.log.write({
        outcome: 'failed',
        level: 'error',
        action: 'navigate',
        message: `could not open the start page ${url}`,
        error: errorMessage(error),
        durationMs: Date.now() - started,
      });
      return false;
    }
  }

  private async observe(): Promise<{ text: string; imageJpegBase64?: string }> {
    this.snapshot = await takeSnapshot(this.page, {
      maxElements: this.limits.maxElements,
      maxTextChars: this.limits.maxTextChars,
    });
    let image: string | undefined;
    if (this.options.screenshot) {
      image = await this.page
        .screenshot({ type: 'jpeg', quality: 60, encoding: 'base64' })
        .then((data) => String(data))
        .catch(() => undefined);
    }
    return {
      text: this.secrets.redact(formatSnapshot(this.snapshot)),
      ...(image ? { imageJpegBase64: image } : {}),
    };
  }

  /** Keeps the last few observations whole; older ones shrink to a note and lose their screenshot. */
  private trimObservations(): void {
    const old = this.observations.length - this.limits.keepObservations;
    for (let i = 0; i < old; i++) {
      const message = this.observations[i] as { text?: string; imageJpegBase64?: string } | undefined;
      if (!message || message.text === undefined) continue;
      const marker = '\nCurrent page:\n';
      const at = message.text.indexOf(marker);
      message.text = at >= 0 ? `${message.text.slice(0, at + marker.length)}${OMITTED}` : OMITTED;
      delete message.imageJpegBase64;
    }
  }

  private async callModel(turn: number): Promise<LlmResponse> {
    const provider = this.options.provider;
    for (let attempt = 1; ; attempt++) {
      this.throwIfStopped();
      const started = Date.now();
      try {
        const response = await provider.complete({
          model: this.options.model,
          system: this.systemPrompt(),
          messages: this.messages,
          tools: AGENT_TOOLS,
          maxOutputTokens: this.limits.maxOutputTokens,
          signal: this.controller.signal,
          timeoutMs: this.limits.llmCallTimeoutMs,
        });
        this.llmCalls++;
        const { call, total } = this.meter.add(response.usage);
        const calls = response.toolCalls.map((c) => c.name).join(', ') || 'no tool call';
        this.log.info(
          `agent step ${turn}: ${provider.name} ${this.options.model} answered in ${Date.now() - started} ms (${calls}); tokens ${call.inputTokens} in + ${call.outputTokens} out, ${formatUsd(call.costUsd)}; job so far ${total.inputTokens} in + ${total.outputTokens} out, ${formatUsd(total.costUsd)}`,
          { durationMs: Date.now() - started },
        );
        return response;
      } catch (caught) {
        if (this.controller.signal.aborted) throw this.endedFrom(caught);
        const error = classifyProviderError(caught, provider.name);
        const timedOut = error.kind === 'timeout';
        const detail = timedOut
          ? `${provider.name} did not answer within ${this.limits.llmCallTimeoutMs} ms (LLM call timeout)`
          : error.message;
        if (!error.retryable || attempt > this.limits.maxRetries) {
          this.log.write({
            outcome: 'info',
            level: 'error',
            message: `agent step ${turn}: the model call failed after ${attempt} ${attempt === 1 ? 'attempt' : 'attempts'}`,
            error: detail,
          });
          throw new RunEnded(
            timedOut ? 'llm call timeout' : 'provider error',
            `The model provider failed after ${attempt} ${attempt === 1 ? 'attempt' : 'attempts'}: ${detail}.`,
          );
        }
        const wait = Math.min(
          error.retryAfterMs ?? this.limits.retryBaseDelayMs * 2 ** (attempt - 1),
          this.limits.maxRetryDelayMs,
        );
        this.log.write({
          outcome: 'info',
          level: 'warn',
          message: `agent step ${turn}: ${detail}; retrying in ${(wait / 1000).toFixed(1)} s${error.retryAfterMs !== undefined ? ' (as Retry-After asked)' : ''} (retry ${attempt} of ${this.limits.maxRetries})`,
        });
        await sleep(wait, this.controller.signal).catch((e: unknown) => {
          throw this.endedFrom(e);
        });
      }
    }
  }

  private async runToolCall(
    call: ToolCall,
  ): Promise<{ result: ToolResult; done?: { passed: boolean; summary: string } }> {
    const fail = (message: string): { result: ToolResult } => {
      this.log.write({
        outcome: 'info',
        level: 'warn',
        action: call.name,
        message: `rejected tool call: ${message}`,
      });
      this.countError(message);
      return { result: { callId: call.id, content: `error: ${message}`, isError: true } };
    };
    if (!isKnownTool(call.name)) {
      return fail(
        `there is no tool "${cut(call.name, 60)}"; the tools are ${AGENT_TOOLS.map((t) => t.name).join(', ')}`,
      );
    }
    if (!call.arguments) {
      return fail(`the arguments of ${call.name} are not a JSON object: ${cut(call.rawArguments, 200)}`);
    }
    const index = this.stepOffset + this.steps.length + 1;
    const plan = planToolCall(call.name, call.arguments, index);
    if (plan.kind === 'invalid') return fail(plan.error);
    if (plan.kind === 'done') {
      this.log.info(`the agent called done(passed: ${plan.passed}): ${cut(plan.summary, 500)}`, {
        action: 'done',
      });
      return { result: { callId: call.id, content: 'ok' }, done: plan };
    }

    // The same call on an unchanged page is a loop; the same call that keeps changing the page
    // ("Next" through a carousel) is not.
    const key = `${call.name} ${JSON.stringify(call.arguments)} @ ${this.page.url()} # ${pageFingerprint(this.snapshot)}`;
    this.repeats = key === this.lastCallKey ? this.repeats + 1 : 1;
    this.lastCallKey = key;
    if (this.repeats > this.limits.maxRepeatedActions) {
      throw new RunEnded(
        'repeated action',
        `The agent repeated the same action (${call.name} ${cut(JSON.stringify(call.arguments), 120)}) ${this.repeats} times in a row on an unchanged page (limit ${this.limits.maxRepeatedActions}).`,
      );
    }

    if (plan.ref && !(await refExists(this.page, plan.ref))) {
      return fail(`no element has the ref ${plan.ref} now; use a ref from the latest observation`);
    }
    const element = plan.ref ? this.snapshot?.elements[plan.ref] : undefined;
    const { result, said, found } = await this.runStep(this.revealSecrets(plan.step), plan.ref);
    this.steps.push(result);
    if (result.status === 'passed') {
      // From the unrevealed step: secrets stay placeholders in what is stored and exported.
      const fallback = element ? { ...element, css: '' } : undefined;
      result.recorded = recordAction(plan.step, found ?? fallback);
      const line = instructionFor(plan.step, element);
      if (line) this.scriptLines.push(line);
      else this.scriptBlocker ??= `step ${index} (${call.name}) cannot be written as an instruction`;
    }
    const content =
      result.status === 'passed'
        ? `ok: ${said}`
        : `${isAssertion(plan.step) ? 'assertion failed' : 'error'}: ${said}`;
    return {
      result: {
        callId: call.id,
        // The model gets placeholders, not the log's mask, so it can still reason about the value.
        content: this.secrets.redact(content),
        ...(result.status === 'failed' ? { isError: true } : {}),
      },
    };
  }

  /** Placeholders become values in what reaches the page (typed text, URLs, expected texts), never in `text`. */
  private revealSecrets(step: Step): Step {
    const out: Record<string, unknown> = { ...step };
    for (const [key, value] of Object.entries(step))
      if (key !== 'text' && typeof value === 'string') out[key] = this.secrets.reveal(value);
    return out as unknown as Step;
  }

  /** Runs a step; `said` is its unredacted outcome, for the model after placeholder redaction. */
  private async runStep(
    step: Step,
    ref: string | undefined,
  ): Promise<{ result: StepResult; said: string; found?: RecordedAction['element'] }> {
    const started = Date.now();
    const described = ref ? `${this.snapshot?.refs[ref] ?? 'the element'} [${ref}]` : undefined;
    const readable = (text: string) =>
      ref ? text.replaceAll(`"${refSelector(ref)}"`, described ?? ref) : text;
    this.log.write({
      outcome: 'started',
      step: step.index,
      action: step.action,
      message: step.text,
      url: this.page.url(),
    });
    let message: string | undefined;
    let error: string | undefined;
    let report: StepContext['report'] = {};
    try {
      message = await this.withStepBudget(async (ctx) => {
        report = ctx.report;
        return isAssertion(step) ? runAssertion(ctx, step) : runAction(ctx, step as ActionStep);
      }, this.stepBudgetMs(step));
    } catch (caught) {
      if (this.controller.signal.aborted) throw this.endedFrom(caught);
      error = errorMessage(caught);
    }
    const status = error === undefined ? 'passed' : 'failed';
    const durationMs = Date.now() - started;
    const url = this.page.url();
    this.log.write({
      outcome: status,
      step: step.index,
      action: step.action,
      ...(described ? { target: described } : report.target ? { target: readable(report.target) } : {}),
      ...(report.strategy ? { strategy: ref ? 'ref' : report.strategy } : {}),
      durationMs,
      url,
      message: readable(message ?? step.text),
      ...(error ? { error: readable(error) } : {}),
    });
    if (isAssertion(step)) {
      this.assertionsTotal++;
      if (status === 'passed') this.assertionsPassed++;
      else this.firstFailedAssertion ??= readable(error ?? 'failed');
    }
    if (status === 'passed') {
      this.consecutiveErrors = 0;
      this.unrecoveredError = undefined;
    } else {
      this.unrecoveredError = readable(error ?? 'failed');
      this.countError(readable(error ?? 'failed'));
    }
    const redact = (text: string) => this.log.redactText(text);
    const result: StepResult = {
      index: step.index,
      text: redact(step.text),
      action: step.action,
      status,
      durationMs,
      ...(message ? { message: redact(readable(message)) } : {}),
      ...(error ? { error: redact(readable(error)) } : {}),
      ...(url ? { url: redact(url) } : {}),
    };
    return { result, said: readable(error ?? message ?? 'done'), found: report.element };
  }

  private countError(message: string): void {
    this.consecutiveErrors++;
    if (this.consecutiveErrors >= this.limits.maxConsecutiveErrors) {
      throw new RunEnded(
        'consecutive errors',
        `The agent stopped after ${this.consecutiveErrors} failed tool calls in a row (limit ${this.limits.maxConsecutiveErrors}); the last one: ${message}.`,
      );
    }
  }

  private stepBudgetMs(step: Step): number {
    if (step.action === 'waitForText')
      return (step.timeoutMs ?? this.limits.actionTimeoutMs) + WATCHDOG_SLACK_MS;
    if (isAssertion(step)) return this.limits.assertionTimeoutMs + WATCHDOG_SLACK_MS;
    return this.limits.actionTimeoutMs + this.limits.navigationTimeoutMs + WATCHDOG_SLACK_MS;
  }

  /** Runs one browser step with its own context and a watchdog for a hung browser call. */
  private async withStepBudget(
    work: (ctx: StepContext) => Promise<string>,
    budgetMs: number,
  ): Promise<string> {
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
    const forward = () => stepAbort.abort(this.controller.signal.reason);
    if (this.controller.signal.aborted) forward();
    else this.controller.signal.addEventListener('abort', forward, { once: true });
    const started = Date.now();
    const ctx: StepContext = {
      page: this.page,
      limits: this.limits,
      pointer: this.pointer,
      signal: stepAbort.signal,
      baseUrl: this.options.initialUrl,
      typingDelayMs: this.options.typingDelayMs ?? (this.options.highlightMouse ? 25 : 0),
      deadline: started + this.limits.actionTimeoutMs,
      report: {},
    };
    try {
      return await raceAbort(work(ctx), stepAbort.signal);
    } finally {
      clearTimeout(watchdog);
      this.controller.signal.removeEventListener('abort', forward);
    }
  }

  private throwIfStopped(): void {
    if (this.controller.signal.aborted) throw this.endedFrom(this.controller.signal.reason);
  }

  private verdictFromDone(passed: boolean, said: string): LlmRunResult {
    const summary = this.secrets.redact(said.trim()).replace(/[.\s]+$/, '');
    const held = `${this.assertionsPassed} ${this.assertionsPassed === 1 ? 'assertion' : 'assertions'} held`;
    if (!passed) return this.finish('failed', 'done', `The agent reported the test failed: ${summary}.`);
    if (this.firstFailedAssertion) {
      const failed = this.assertionsTotal - this.assertionsPassed;
      return this.finish(
        'failed',
        'done',
        `The agent said the test passed, but ${failed} ${failed === 1 ? 'assertion' : 'assertions'} failed: ${this.firstFailedAssertion}. Agent's summary: ${summary}.`,
      );
    }
    if (this.unrecoveredError) {
      return this.finish(
        'failed',
        'done',
        `The agent said the test passed, but its last action failed: ${this.unrecoveredError}. Agent's summary: ${summary}.`,
      );
    }
    if (this.assertionsPassed === 0) {
      return this.finish(
        'failed',
        'done',
        `The agent said the test passed but made no assertion, so nothing was verified. Agent's summary: ${summary}.`,
      );
    }
    return this.finish('succeeded', 'done', `${summary} (${held}).`);
  }

  private finish(verdict: Verdict, endedBy: LlmEndReason, summary: string): LlmRunResult {
    const usage = this.meter.snapshot();
    this.log.info(
      `usage: ${usage.llmCalls} LLM ${usage.llmCalls === 1 ? 'call' : 'calls'}, ${usage.inputTokens} input + ${usage.outputTokens} output tokens, estimated ${formatUsd(usage.costUsd)}`,
    );
    this.log.write({
      outcome: 'info',
      level: verdict === 'succeeded' ? 'info' : 'error',
      message: `verdict: ${verdict} (${endedBy}). ${summary}`,
    });
    return {
      verdict,
      summary: this.log.redactText(summary),
      steps: this.steps,
      assertions: { total: this.assertionsTotal, passed: this.assertionsPassed },
      usage,
      endedBy,
      ...(verdict === 'succeeded'
        ? this.scriptBlocker
          ? { scriptUnavailable: this.scriptBlocker }
          : { script: this.scriptLines.join('\n') }
        : {}),
    };
  }
}

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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function errorMessage(error: unknown): string {
  if (error instanceof StepFailedError || error instanceof LimitExceededError) return error.message;
  if (error instanceof ProviderError) return error.message;
  if (error instanceof Error) return error.message.replace(/^Protocol error \([^)]*\):\s*/, '');
  return String(error);
}

function pageFingerprint(snapshot: PageSnapshot | undefined): string {
  if (!snapshot) return '';
  return createHash('sha1')
    .update(`${snapshot.url}\n${snapshot.title}\n${snapshot.outline.join('\n')}\n${snapshot.text}`)
    .digest('base64');
}

function cut(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
