import type { Page } from 'puppeteer-core';
import type { AgentLog } from './agent-log.js';
import { interpretQuery, runInterpreter, type RunResult } from './interpreter-agent.js';
import { type RecordedRun, type RecordingOptions, runRecorded } from './recorded-run.js';
import { needsInputOutcome } from './run-outcome.js';
import type { RunLimits } from './run-limits.js';

export interface InstructionTestOptions extends RecordingOptions {
  page: Page;
  query: string;
  log: AgentLog;
  limits?: Partial<RunLimits>;
  highlightMouse?: boolean;
  initialUrl?: string;
  signal?: AbortSignal;
  /** Values to mask in the log, the results and the screenshot (`metadata.secrets`). */
  secretValues?: readonly string[];
  /** `metadata.secrets` by name, for the steps' `{{secret.NAME}}` placeholders. */
  secrets?: Readonly<Record<string, string>>;
}

/** A query that was not understood ends `needs_input` (`outcome.kind`) before any browser work. */
export type InstructionTestResult = RunResult & RecordedRun;

/**
 * One natural-language test from query to verdict: parse (reject early), record, run, and always
 * end the video's capture, whatever happened in between (the encoder finishes the file after).
 */
export async function runInstructionTest(options: InstructionTestOptions): Promise<InstructionTestResult> {
  const { log } = options;
  const interpreted = interpretQuery(options.query);
  if (!interpreted.ok) {
    for (const unknown of interpreted.unknown) {
      log.write({
        outcome: 'failed',
        step: unknown.index,
        message: unknown.text,
        error: `not understood: "${unknown.text}"`,
      });
    }
    log.verdict('failed', interpreted.summary);
    await log.flush();
    return {
      outcome: needsInputOutcome(interpreted),
      verdict: 'failed',
      summary: interpreted.summary,
      steps: [],
      assertions: { total: 0, passed: 0 },
    };
  }
  log.info(`parsed ${interpreted.steps.length} ${interpreted.steps.length === 1 ? 'step' : 'steps'}`);
  return runRecorded(options, () =>
    runInterpreter({
      page: options.page,
      steps: interpreted.steps,
      log,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.highlightMouse !== undefined ? { highlightMouse: options.highlightMouse } : {}),
      ...(options.initialUrl ? { initialUrl: options.initialUrl } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.secretValues ? { secretValues: options.secretValues } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
    }),
  );
}
