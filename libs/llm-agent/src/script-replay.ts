import {
  type InstructionTestOptions,
  type InstructionTestResult,
  interpretQuery,
  recordAction,
  runInstructionTest,
  type RunOutcome,
  runInterpreter,
  runRecorded,
  SecretValues,
} from '@suite/browser-agent';
import { type LlmRunResult, runLlmAgent } from './llm-agent.js';
import type { LlmTestOptions, LlmTestResult } from './llm-test-runner.js';
import { formatUsd } from './token-usage.js';

export interface ReplayOptions extends Omit<InstructionTestOptions, 'query'> {
  /** `LlmRunResult.script` of a passed run. */
  script: string;
  secrets?: Readonly<Record<string, string>>;
}

/**
 * Replays a passed LLM run with the built-in interpreter: no model, no cost, same assertions.
 * Secrets are filled in from their placeholders and masked in the log like the agent does.
 */
export async function replayLlmScript(options: ReplayOptions): Promise<InstructionTestResult> {
  const { script, secrets: values, ...rest } = options;
  const secrets = new SecretValues(values);
  for (const value of secrets.values) options.log.addSecret(value);
  return runInstructionTest({ ...rest, query: secrets.reveal(script) });
}

export interface HealingReplayOptions extends LlmTestOptions {
  /** The stored script of an earlier passed run of the same test (`LlmRunResult.script`). */
  script: string;
  /** How many model calls the recorded run needed, to say how many the replay saved. */
  recordedModelCalls?: number;
}

/** What the replay did, for the job's summary and the worker's bookkeeping. */
export interface ReplayReport {
  /** Recorded steps that ran without the model. */
  replayedSteps: number;
  totalSteps: number;
  /** 1-based recorded step from which the model took over, when one no longer worked. */
  healedFromStep?: number;
  /** Model calls this run made (0 for a clean replay). */
  modelCalls: number;
  /** Model calls the recorded run needed minus the ones this run made (never below 0). */
  modelCallsSaved?: number;
}

export interface HealingReplayResult extends LlmTestResult {
  replay: ReplayReport;
}

/**
 * Replays a passed run's recorded steps with the interpreter, without calling the model. When a
 * step no longer works (the page changed), the LLM agent takes over from that step, on the page as
 * the replay left it, told which steps already ran (self-healing). Returns undefined when the
 * stored script cannot be read, so the caller runs the model from the start.
 */
export async function runHealingReplay(
  options: HealingReplayOptions,
): Promise<HealingReplayResult | undefined> {
  const { script, recordedModelCalls, ...agentOptions } = options;
  const { log } = options;
  const parsed = interpretQuery(script);
  if (!parsed.ok) {
    log.write({
      outcome: 'info',
      level: 'warn',
      message:
        'replay: the stored script of the earlier run could not be read; the model runs the test instead',
    });
    return undefined;
  }
  const secrets = new SecretValues(options.secrets);
  for (const value of secrets.values) log.addSecret(value);
  const steps = parsed.steps.map((step) => secrets.revealStep(step));
  const lines = parsed.steps.map((step) => step.text);
  return runRecorded(options, async () => {
    log.info(
      `replay: running the ${steps.length} recorded steps of an earlier passed run of this test without the model`,
    );
    const replay = await runInterpreter({
      page: options.page,
      steps,
      log,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.highlightMouse !== undefined ? { highlightMouse: options.highlightMouse } : {}),
      ...(options.initialUrl ? { initialUrl: options.initialUrl } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // Recorded from the unrevealed steps, so secrets stay placeholders named as in the metadata.
    const passed = replay.steps
      .filter((s) => s.status === 'passed')
      .map((s) => {
        const source = parsed.steps[s.index - 1];
        return source && s.recorded ? { ...s, recorded: recordAction(source, s.recorded.element) } : s;
      });
    const failed = replay.steps.find((s) => s.status === 'failed');
    const saved = (used: number) =>
      recordedModelCalls === undefined ? {} : { modelCallsSaved: Math.max(0, recordedModelCalls - used) };
    if (replay.verdict === 'succeeded') {
      const report: ReplayReport = {
        replayedSteps: steps.length,
        totalSteps: steps.length,
        modelCalls: 0,
        ...saved(0),
      };
      const note = savedNote(report);
      log.info(`replay: all ${steps.length} recorded steps passed without calling the model${note}`);
      const summary = `Replayed the recorded run without the model${note}: ${replay.summary}`;
      const result: LlmRunResult = {
        outcome: { kind: 'passed', summary },
        verdict: 'succeeded',
        summary,
        steps: passed,
        assertions: replay.assertions,
        usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
        endedBy: 'done',
        script,
      };
      return { ...result, replay: report };
    }
    // No step ran at all (the start page did not open) or the run was stopped: nothing to heal.
    if (!failed || options.signal?.aborted || failed.index === 1) {
      log.info(
        'replay: the recorded run could not be repeated and there is nothing the model could continue',
      );
      // Failed or cancelled, as the replay ended; the job's error has always said `agent error`.
      const ended = replay.outcome;
      const outcome: RunOutcome =
        ended.kind === 'failed' || ended.kind === 'cancelled' ? { ...ended, endedBy: 'agent error' } : ended;
      const result: LlmRunResult = {
        outcome,
        verdict: 'failed',
        summary: replay.summary,
        steps: replay.steps,
        assertions: replay.assertions,
        usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
        endedBy: 'agent error',
      };
      return { ...result, replay: { replayedSteps: passed.length, totalSteps: steps.length, modelCalls: 0 } };
    }
    const failedLine = lines[failed.index - 1] ?? failed.text;
    log.write({
      outcome: 'info',
      level: 'warn',
      message: `self-healing: recorded step ${failed.index} of ${steps.length} ("${failedLine}") no longer works (${failed.error ?? 'failed'}); the model continues from step ${failed.index} on the current page, steps 1-${failed.index - 1} are not repeated`,
    });
    const doneSteps = parsed.steps.slice(0, failed.index - 1);
    const healed = await runLlmAgent({
      ...agentOptions,
      resume: {
        done: doneSteps.map((step) => step.text),
        failed: { text: failedLine, error: failed.error ?? 'failed' },
        assertionsPassed: passed.filter((s) => s.action.startsWith('assert')).length,
      },
    });
    const report: ReplayReport = {
      replayedSteps: passed.length,
      totalSteps: steps.length,
      healedFromStep: failed.index,
      modelCalls: healed.usage.llmCalls,
      ...saved(healed.usage.llmCalls),
    };
    log.info(
      `self-healing: the model made ${healed.usage.llmCalls} ${healed.usage.llmCalls === 1 ? 'call' : 'calls'} (${formatUsd(healed.usage.costUsd)}) from step ${failed.index}${savedNote(report)}; verdict ${healed.verdict}`,
    );
    const summary = `Replayed steps 1-${failed.index - 1} of the recorded run without the model; step ${failed.index} no longer worked, so the model continued from there${savedNote(report)}. ${healed.summary}`;
    return {
      ...healed,
      outcome: { ...healed.outcome, summary },
      summary,
      steps: [...passed, ...healed.steps],
      replay: report,
    };
  });
}

function savedNote(report: ReplayReport): string {
  if (report.modelCallsSaved === undefined) return '';
  return ` (${report.modelCallsSaved} model ${report.modelCallsSaved === 1 ? 'call' : 'calls'} saved)`;
}
