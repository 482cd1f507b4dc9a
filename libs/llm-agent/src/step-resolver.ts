import {
  type AgentLog,
  findOnce,
  isAssertion,
  type RecordedAction,
  SecretValues,
  type Step,
  type StepResolution,
  type StepResolver,
  type StepResult,
  type StepToResolve,
  type Target,
} from '@suite/browser-agent';
import type { Page } from 'puppeteer-core';
import { instructionFor } from './instruction-lines.js';
import type { LlmRunLimits } from './llm-limits.js';
import { runLlmAgent } from './llm-agent.js';
import type { LlmProvider } from './llm-provider.js';
import { cut } from './run-guards.js';
import type { ModelPricing, RunUsage } from './token-usage.js';

/** The concrete actions that resolved one step of a test, stored so later runs need no model. */
export interface StoredStepResolution {
  /** 1-based position of the step in the test. */
  index: number;
  /** The step as written (secrets as placeholders); a stored resolution is used only for the same text. */
  text: string;
  /** Each action as it ran: the step's fields and the element it acted on (role + name, CSS path). */
  actions: RecordedAction[];
}

/** A step's result from the hybrid engine: with every action it took, for storing and script export. */
export interface ResolvedStepResult extends StepResult {
  recordedActions?: RecordedAction[];
}

export interface ModelStepResolverOptions {
  page: Page;
  /** The whole test as written, given to the model for context. */
  query: string;
  log: AgentLog;
  provider: LlmProvider;
  model: string;
  pricing?: ModelPricing;
  limits?: Partial<LlmRunLimits>;
  secrets?: Readonly<Record<string, string>>;
  highlightMouse?: boolean;
  typingDelayMs?: number;
  /** Resolutions stored by earlier runs of the same test. */
  stored?: readonly StoredStepResolution[];
}

/** Roles the interpreter's locator takes as a target role (an element with another role is found by CSS). */
const TARGET_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'checkbox',
  'radio',
  'combobox',
  'heading',
  'img',
  'tab',
  'menuitem',
  'switch',
  'option',
  'listitem',
  'row',
  'cell',
  'dialog',
  'columnheader',
  'slider',
  'spinbutton',
  'searchbox',
  'listbox',
  'menu',
  'treeitem',
  'table',
]);

/** Words of a step that expects something of the page rather than doing something to it. */
const EXPECTATION =
  /\b(?:verify|verifies|assert|expect|ensure|confirm|make sure|check (?:that|whether|if)|should|must|is (?:shown|visible|displayed|present|hidden|gone)|appears?|displays?|shows?|contains?|reads?)\b/i;

/**
 * The hybrid engine's side of a step the interpreter hands over (`runInterpreter`'s `resolveStep`):
 * a stored resolution from an earlier run is replayed without the model; a stored action that no
 * longer finds its target is re-resolved once by the model (self-healing); a step with nothing
 * stored goes to the model, for that step only, with the same tools, budgets and verdict rules.
 */
export class ModelStepResolver {
  private readonly stored = new Map<number, StoredStepResolution>();
  private readonly fresh = new Map<number, StoredStepResolution>();
  private readonly secrets: SecretValues;
  private total: RunUsage = { llmCalls: 0, inputTokens: 0, outputTokens: 0 };

  constructor(private readonly options: ModelStepResolverOptions) {
    for (const resolution of options.stored ?? []) this.stored.set(resolution.index, resolution);
    this.secrets = new SecretValues(options.secrets);
  }

  /** The callback for `runInterpreter`. */
  readonly resolve: StepResolver = (request) => this.resolveStep(request);

  /** For `runInterpreter`'s `resolvesFirst`: a step with a stored resolution replays it at once. */
  readonly resolvesFirst = (step: { index: number; text: string }): boolean =>
    this.stored.get(step.index)?.text === this.secrets.redact(step.text);

  /** Model calls (and tokens) this run made. */
  get usage(): RunUsage {
    return { ...this.total };
  }

  /** Steps the model resolved or healed in this run: what the store should now hold for them. */
  get resolved(): StoredStepResolution[] {
    return [...this.fresh.values()];
  }

  private async resolveStep(request: StepToResolve): Promise<ResolvedStepResult> {
    const started = Date.now();
    const text = this.secrets.redact(request.text);
    const stored = this.stored.get(request.index);
    if (stored && stored.text === text) return this.replay(request, stored, started);
    const why =
      request.reason === 'not understood'
        ? 'the interpreter could not read it'
        : `no element matched: ${cut(request.failed?.error ?? 'the target was not found', 300)}`;
    return this.askModel(request, started, why, [], 'model');
  }

  private async replay(
    request: StepToResolve,
    stored: StoredStepResolution,
    started: number,
  ): Promise<ResolvedStepResult> {
    const { log } = this.options;
    const { executor } = request;
    log.info(
      `step ${request.index}: replaying ${stored.actions.length} stored ${stored.actions.length === 1 ? 'action' : 'actions'} (resolved by the model in an earlier run) without the model`,
      { step: request.index },
    );
    const results: StepResult[] = [];
    for (const [i, action] of stored.actions.entries()) {
      const step = await this.replayStep(action, request.index);
      if (!step) {
        return this.heal(request, stored, results, started, i, 'the stored action names no element');
      }
      const { result, unresolved, stopped } = await executor.run(this.secrets.revealStep(step), {
        recordAs: step,
      });
      results.push(result);
      if (result.status === 'passed') continue;
      if (unresolved && !stopped) {
        return this.heal(request, stored, results.slice(0, -1), started, i, result.error ?? 'failed');
      }
      // An assertion read as false (or a run that was stopped) stays a failure: no model.
      return this.finish(request, started, results, 'replayed', result.error ?? 'failed');
    }
    return this.finish(request, started, results, 'replayed');
  }

  /** A stored action no longer finds its target: the model re-resolves the step once, from there. */
  private async heal(
    request: StepToResolve,
    stored: StoredStepResolution,
    ran: StepResult[],
    started: number,
    at: number,
    error: string,
  ): Promise<ResolvedStepResult> {
    const line = describeAction(stored.actions[at]);
    this.options.log.write({
      outcome: 'info',
      level: 'warn',
      step: request.index,
      message: `self-healing: stored action ${at + 1} of ${stored.actions.length} of step ${request.index} (${line}) no longer finds its target (${cut(error, 300)}); the model re-resolves the step once`,
    });
    const done = stored.actions.slice(0, at).map(describeAction);
    return this.askModel(request, started, `a stored action no longer works: ${line}`, ran, 'healed', done);
  }

  private async askModel(
    request: StepToResolve,
    started: number,
    why: string,
    ran: StepResult[],
    kind: 'model' | 'healed',
    done: string[] = [],
  ): Promise<ResolvedStepResult> {
    const { options } = this;
    const check = request.step ? isAssertion(request.step) : EXPECTATION.test(request.text);
    const run = await runLlmAgent({
      page: options.page,
      query: options.query,
      log: options.log,
      provider: options.provider,
      model: options.model,
      ...(options.pricing ? { pricing: options.pricing } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.highlightMouse !== undefined ? { highlightMouse: options.highlightMouse } : {}),
      ...(options.typingDelayMs !== undefined ? { typingDelayMs: options.typingDelayMs } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
      executor: request.executor,
      step: {
        index: request.index,
        text: request.text,
        why,
        check,
        ...(done.length > 0 ? { done } : {}),
      },
    });
    const cost =
      this.total.costUsd !== undefined || run.usage.costUsd !== undefined
        ? { costUsd: (this.total.costUsd ?? 0) + (run.usage.costUsd ?? 0) }
        : {};
    this.total = {
      llmCalls: this.total.llmCalls + run.usage.llmCalls,
      inputTokens: this.total.inputTokens + run.usage.inputTokens,
      outputTokens: this.total.outputTokens + run.usage.outputTokens,
      ...cost,
    };
    const results = [...ran, ...run.steps];
    if (run.verdict !== 'succeeded') return this.finish(request, started, results, kind, run.summary);
    return this.finish(request, started, results, kind);
  }

  /** The step's one result and outcome entry; a passed model resolution is kept for the store. */
  private finish(
    request: StepToResolve,
    started: number,
    results: StepResult[],
    resolvedBy: StepResolution,
    error?: string,
  ): ResolvedStepResult {
    const { log } = this.options;
    const passed = results.filter((r) => r.status === 'passed');
    const actions = passed.flatMap((r) => (r.recorded ? [r.recorded] : []));
    const main = passed.find((r) => !r.action.startsWith('assert')) ?? passed[0];
    const action = main?.action ?? request.step?.action ?? 'unknown';
    const status = error === undefined ? 'passed' : 'failed';
    const did = passed.map((r) => r.message ?? r.text).join('; ');
    const words = RESOLUTION_WORDS[resolvedBy];
    const message = did ? `${words}: ${did}` : words;
    const url = results.at(-1)?.url;
    const durationMs = Date.now() - started;
    log.write({
      outcome: status,
      step: request.index,
      action,
      durationMs,
      ...(url ? { url } : {}),
      message,
      ...(error !== undefined ? { error } : {}),
      resolvedBy,
    });
    if (status === 'passed' && resolvedBy !== 'replayed') {
      this.fresh.set(request.index, {
        index: request.index,
        text: this.secrets.redact(request.text),
        actions,
      });
    }
    return {
      index: request.index,
      text: log.redactText(request.text),
      action,
      status,
      durationMs,
      strategy: resolvedBy === 'replayed' ? 'stored resolution' : 'model',
      message: log.redactText(message),
      ...(error !== undefined ? { error: log.redactText(error) } : {}),
      ...(url ? { url } : {}),
      ...(status === 'passed' && actions.length === 1 ? { recorded: actions[0] } : {}),
      ...(status === 'passed' ? { recordedActions: actions } : {}),
      resolvedBy,
    };
  }

  /**
   * A stored action as a step the interpreter runs: its element by role and accessible name, or by
   * its CSS path when that role and name match several elements now (or it has no usable role).
   */
  private async replayStep(action: RecordedAction | undefined, index: number): Promise<Step | undefined> {
    if (!action) return undefined;
    const body = action.step as Step & { target?: Target };
    const text = describeAction(action);
    if (!body.target) return { ...body, index, text } as Step;
    const target = await this.replayTarget(action);
    if (!target) return undefined;
    return { ...body, target, index, text } as Step;
  }

  private async replayTarget(action: RecordedAction): Promise<Target | undefined> {
    const element = action.element;
    if (!element) return undefined;
    const css = element.css ? { name: element.css } : undefined;
    if (element.role && element.name && TARGET_ROLES.has(element.role)) {
      const byName = { role: element.role, name: element.name } as Target;
      if (!css) return byName;
      const outcome = await findOnce(this.options.page, byName).catch(() => undefined);
      const tied = outcome?.match?.tied ?? 0;
      await outcome?.match?.handle.dispose().catch(() => undefined);
      return tied > 1 ? css : byName;
    }
    return css ?? (element.text ? { name: element.text } : undefined);
  }
}

const RESOLUTION_WORDS: Readonly<Record<StepResolution, string>> = {
  interpreted: 'interpreted',
  model: 'resolved by the model',
  replayed: 'replayed the stored resolution without the model',
  healed: 'healed: re-resolved by the model',
};

/** A stored action in words, for log lines and the model's "already done" list. */
function describeAction(action: RecordedAction | undefined): string {
  if (!action) return 'nothing';
  const element =
    action.element?.role && action.element.name
      ? { role: action.element.role, name: action.element.name }
      : undefined;
  const line = instructionFor({ ...action.step, index: 0, text: '' } as Step, element);
  if (line) return line;
  const on = action.element?.name ?? action.element?.text ?? action.element?.css;
  return on ? `${action.step.action} on "${cut(on, 80)}"` : action.step.action;
}
