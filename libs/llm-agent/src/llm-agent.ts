import {
  type AgentLog,
  errorMessage,
  isAssertion,
  type RecordedAction,
  type RunOutcome,
  RunStoppedError,
  SecretValues,
  type Step,
  StepExecutor,
  type StepResult,
  type Verdict,
} from '@suite/browser-agent';
import type { Page } from 'puppeteer-core';
import { AGENT_TOOLS, isKnownTool, planToolCall } from './agent-tools.js';
import { Conversation, type ResumeFrom, type StepTask } from './conversation.js';
import { type LlmRunLimits, resolveLlmLimits } from './llm-limits.js';
import { llmOutcome } from './llm-outcome.js';
import type { LlmProvider, ToolCall, ToolResult } from './llm-provider.js';
import { RunEvidence } from './llm-verdict.js';
import { ModelCaller } from './model-caller.js';
import { refExists, refSelector } from './page-snapshot.js';
import { cut, type LlmEndReason, RunEnded, RunGuards } from './run-guards.js';
import { ScriptRecorder } from './script-recorder.js';
import { formatUsd, type ModelPricing, type RunUsage, UsageMeter } from './token-usage.js';

export type { LlmEndReason } from './run-guards.js';
export type { ResumeFrom, StepTask } from './conversation.js';

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
  /**
   * Do one step of an interpreter run (hybrid engine) instead of the whole test: on `executor`'s
   * page, within its budgets and wall clock, with no start page; `query` is the whole test, for context.
   */
  step?: StepTask;
  /** The interpreter's executor to run on (with `step`); the agent neither starts nor closes it. */
  executor?: StepExecutor;
}

export interface LlmRunResult {
  /** How the run ended (see `llmOutcome`); what the worker reads. */
  outcome: RunOutcome;
  /** `succeeded` when the outcome is `passed`, else `failed`. */
  verdict: Verdict;
  /** The same as `outcome.summary`. */
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

/** The observe → tool call → result loop, ending in a verdict that never rests on the model's word alone. */
export async function runLlmAgent(options: RunLlmAgentOptions): Promise<LlmRunResult> {
  return new LlmAgentRun(options).run();
}

/**
 * One run of the loop. Browser steps go through the step executor shared with the interpreter
 * (budgets, watchdog, wall clock, cancel, log entries); the model's side is the conversation, the
 * model caller, the run guards and the script recorder.
 */
class LlmAgentRun {
  private readonly limits: LlmRunLimits;
  private readonly secrets: SecretValues;
  private readonly meter: UsageMeter;
  private readonly log: AgentLog;
  private readonly page: Page;
  private readonly guards: RunGuards;
  private readonly script = new ScriptRecorder();
  private readonly evidence: RunEvidence;
  private readonly steps: StepResult[] = [];
  private executor: StepExecutor | undefined;

  constructor(private readonly options: RunLlmAgentOptions) {
    this.limits = resolveLlmLimits(options.limits);
    this.secrets = new SecretValues(options.secrets);
    this.meter = new UsageMeter(options.pricing);
    this.log = options.log;
    this.page = options.page;
    this.guards = new RunGuards(this.limits);
    this.evidence = new RunEvidence(options.resume?.assertionsPassed);
    if (options.resume) this.script.add(...options.resume.done);
  }

  async run(): Promise<LlmRunResult> {
    for (const value of this.secrets.values) this.log.addSecret(value);
    const shared = this.options.executor;
    try {
      this.executor =
        shared ??
        (await StepExecutor.start({
          page: this.page,
          log: this.log,
          limits: this.limits,
          signal: this.options.signal,
          highlightMouse: this.options.highlightMouse,
          typingDelayMs: this.options.typingDelayMs,
          baseUrl: this.options.initialUrl,
        }));
      const { step } = this.options;
      this.log.info(
        step
          ? `step ${step.index}: handed to ${this.options.provider.name} model ${this.options.model} (${step.why}); limit ${this.limits.maxSteps} model turns`
          : `LLM agent: ${this.options.provider.name} model ${this.options.model}; limits: ${this.limits.maxSteps} steps, ${Math.round(this.limits.jobTimeoutMs / 1000)} s`,
        step ? { step: step.index } : {},
      );
      return await this.loop(this.executor);
    } catch (error) {
      const ended = this.endedFrom(error);
      return this.finish('failed', ended.reason, ended.message);
    } finally {
      await (shared ? this.log.flush() : (this.executor?.close() ?? this.log.flush()));
    }
  }

  private endedFrom(error: unknown): RunEnded {
    if (error instanceof RunEnded) return error;
    const stopped = this.executor?.stopped ?? (error instanceof RunStoppedError ? error : undefined);
    if (stopped) return RunEnded.stopped(stopped);
    return new RunEnded('agent error', `The agent stopped on an unexpected error: ${errorMessage(error)}.`);
  }

  private async loop(executor: StepExecutor): Promise<LlmRunResult> {
    const { initialUrl, resume, step } = this.options;
    if (initialUrl && !resume && !step) {
      this.script.add(`open ${initialUrl}`);
      const failed = await executor.openStartPage(initialUrl);
      if (failed?.stopped) throw RunEnded.stopped(failed.stopped);
      if (failed) {
        return this.finish(
          'failed',
          'start page',
          `The start page ${initialUrl} could not be opened, so the agent did not start.`,
        );
      }
    }
    const conversation = new Conversation(
      this.page,
      this.limits,
      this.secrets,
      this.options.screenshot ?? false,
    );
    const model = new ModelCaller(
      this.options.provider,
      this.options.model,
      this.limits,
      this.meter,
      this.log,
      executor.signal,
    );
    await conversation.begin({
      query: this.options.query,
      ...(initialUrl ? { initialUrl } : {}),
      ...(resume ? { resume } : {}),
      ...(step ? { step } : {}),
    });

    for (let turn = 1; turn <= this.limits.maxSteps; turn++) {
      executor.signal.throwIfAborted();
      const response = await model.call(turn, conversation);
      const calls = response.toolCalls;
      if (response.text) this.log.info(`model says: ${cut(response.text, 300)}`);
      conversation.answered(response);
      if (calls.length === 0) {
        this.log.write({
          outcome: 'info',
          level: 'warn',
          message: `agent step ${turn}: the model answered without a tool call (stop reason: ${response.stopReason ?? 'none'})`,
        });
        this.guards.failed('the model answered without calling a tool');
        conversation.nudge();
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
        const outcome = await this.runToolCall(call, executor, conversation);
        results.push(outcome.result);
        if (outcome.done) done = outcome.done;
        failed = outcome.result.isError === true;
      }
      if (done) {
        const said = this.secrets.redact(done.summary.trim());
        const { verdict, summary } = step
          ? this.evidence.stepVerdict(step.check, done.passed, said)
          : this.evidence.verdict(done.passed, said);
        return this.finish(verdict, 'done', summary);
      }
      await conversation.results(results);
    }
    throw this.guards.stepLimit();
  }

  private async runToolCall(
    call: ToolCall,
    executor: StepExecutor,
    conversation: Conversation,
  ): Promise<{ result: ToolResult; done?: { passed: boolean; summary: string } }> {
    const fail = (message: string): { result: ToolResult } => {
      this.log.write({
        outcome: 'info',
        level: 'warn',
        action: call.name,
        message: `rejected tool call: ${message}`,
      });
      this.guards.failed(message);
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
    const { step } = this.options;
    const index = step ? step.index : (this.options.resume?.done.length ?? 0) + this.steps.length + 1;
    const plan = planToolCall(call.name, call.arguments, index);
    if (plan.kind === 'invalid') return fail(plan.error);
    // A check is read from the page, never made true by changing it.
    if (step?.check && plan.kind === 'step' && !readsOnly(plan.step)) {
      return fail(
        `step ${step.index} is a check: verify it with assert_* tools (or wait_for_text, scroll); ${call.name} would change the page`,
      );
    }
    if (plan.kind === 'done') {
      this.log.info(`the agent called done(passed: ${plan.passed}): ${cut(plan.summary, 500)}`, {
        action: 'done',
      });
      return { result: { callId: call.id, content: 'ok' }, done: plan };
    }
    const { snapshot } = conversation;
    this.guards.checkRepeat(call, this.page.url(), snapshot);
    if (plan.ref && !(await refExists(this.page, plan.ref))) {
      return fail(`no element has the ref ${plan.ref} now; use a ref from the latest observation`);
    }
    const element = plan.ref ? snapshot?.elements[plan.ref] : undefined;
    const described = plan.ref ? `${snapshot?.refs[plan.ref] ?? 'the element'} [${plan.ref}]` : undefined;
    const selector = plan.ref ? `"${refSelector(plan.ref)}"` : undefined;
    const { result, said, stopped } = await executor.run(this.secrets.revealStep(plan.step), {
      ...(described && selector
        ? {
            target: described,
            strategy: 'ref',
            rewrite: (text: string) => text.replaceAll(selector, described),
          }
        : {}),
      // From the unrevealed step: secrets stay placeholders in what is stored and exported.
      recordAs: plan.step,
      ...(element ? { element: { ...element, css: '' } } : {}),
    });
    this.steps.push(result);
    if (stopped) throw RunEnded.stopped(stopped);
    const passed = result.status === 'passed';
    this.evidence.step(isAssertion(plan.step), passed ? undefined : said);
    if (passed) {
      this.guards.succeeded();
      this.script.passed(plan.step, element, `step ${index} (${call.name})`);
    } else {
      this.guards.failed(said);
    }
    const content = passed
      ? `ok: ${said}`
      : `${isAssertion(plan.step) ? 'assertion failed' : 'error'}: ${said}`;
    return {
      result: {
        callId: call.id,
        // The model gets placeholders, not the log's mask, so it can still reason about the value.
        content: this.secrets.redact(content),
        ...(passed ? {} : { isError: true }),
      },
    };
  }

  private finish(verdict: Verdict, endedBy: LlmEndReason, summary: string): LlmRunResult {
    const usage = this.meter.snapshot();
    const { step } = this.options;
    const used = `${usage.llmCalls} LLM ${usage.llmCalls === 1 ? 'call' : 'calls'}, ${usage.inputTokens} input + ${usage.outputTokens} output tokens, estimated ${formatUsd(usage.costUsd)}`;
    if (step) {
      // One step of the interpreter's run: the run's own verdict comes later, from the interpreter.
      this.log.write({
        outcome: 'info',
        level: verdict === 'succeeded' ? 'info' : 'warn',
        step: step.index,
        message: `step ${step.index}: ${verdict === 'succeeded' ? 'resolved by the model' : `not resolved by the model (${endedBy})`}: ${summary}; ${used}`,
      });
    } else {
      this.log.info(`usage: ${used}`);
      this.log.verdict(verdict, summary, endedBy);
    }
    const shown = this.log.redactText(summary);
    return {
      outcome: llmOutcome(verdict, endedBy, shown, this.steps),
      verdict,
      summary: shown,
      steps: this.steps,
      assertions: { total: this.evidence.total, passed: this.evidence.passed },
      usage,
      endedBy,
      ...(verdict === 'succeeded' ? this.script.result() : {}),
    };
  }
}

/** What a check may do: read the page (assertions, waiting for text) and scroll to what it reads. */
function readsOnly(step: Step): boolean {
  return isAssertion(step) || step.action === 'waitForText' || step.action === 'scroll';
}
