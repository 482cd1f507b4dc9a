import type { Page } from 'puppeteer-core';
import type { AgentLog } from './agent-log.js';
import { interpretQuery, runInterpreter, type RunResult } from './interpreter-agent.js';
import type { RunLimits } from './run-limits.js';
import type { RecordedVideo } from './video-recorder.js';
import { type RunVideoOptions, withVideo } from './with-video.js';

export interface InstructionTestOptions {
  page: Page;
  query: string;
  log: AgentLog;
  limits?: Partial<RunLimits>;
  highlightMouse?: boolean;
  initialUrl?: string;
  signal?: AbortSignal;
  /** Where to record the run; omit for no video. */
  video?: RunVideoOptions;
  /** Take a screenshot when a step fails (`screenshot` in the result; secrets unreadable in it). */
  failureScreenshot?: boolean;
  /** Values to mask in the log, the results and the screenshot (`metadata.secrets`). */
  secretValues?: readonly string[];
  /** `metadata.secrets` by name, for the steps' `{{secret.NAME}}` placeholders. */
  secrets?: Readonly<Record<string, string>>;
}

export interface InstructionTestResult extends RunResult {
  /** True when the query was rejected before any browser work (steps not understood). */
  rejected: boolean;
  /** The capture ended with the final state; `video.finished` says when the file is complete. */
  video?: RecordedVideo;
}

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
      verdict: 'failed',
      summary: interpreted.summary,
      steps: [],
      assertions: { total: 0, passed: 0 },
      rejected: true,
    };
  }
  log.info(`parsed ${interpreted.steps.length} ${interpreted.steps.length === 1 ? 'step' : 'steps'}`);
  const result = await withVideo(options, options.video, () =>
    runInterpreter({
      page: options.page,
      steps: interpreted.steps,
      log,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.highlightMouse !== undefined ? { highlightMouse: options.highlightMouse } : {}),
      ...(options.initialUrl ? { initialUrl: options.initialUrl } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.failureScreenshot ? { failureScreenshot: true } : {}),
      ...(options.secretValues ? { secretValues: options.secretValues } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
    }),
  );
  return { ...result, rejected: false };
}
