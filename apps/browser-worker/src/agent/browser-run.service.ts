import { Inject, Injectable } from '@nestjs/common';
import {
  AgentLog,
  formatLogLine,
  type RecordedRun,
  type RecordingOptions,
  type RunOutcome,
  type StepResult,
} from '@suite/browser-agent';
import type { JobStepDto, StepStatus } from '@suite/contracts';
import { secretsFromMetadata } from '@suite/llm-agent';
import type { Page } from 'puppeteer-core';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import {
  type AgentRunContext,
  type AgentRunResult,
  closeAfterRecording,
  InfrastructureError,
  videoOutcome,
} from './agent-runner.js';
import { type BrowserEnvName, BrowserSessions } from './browser-sessions.js';
import { reportNetwork, summaryWithBlocks } from './network-report.js';

/** What an engine's test runner returns: its outcome and steps, with the recording's video and screenshot. */
export type EngineResult = { outcome: RunOutcome; steps: StepResult[] } & RecordedRun;

/**
 * What the skeleton hands an engine: the options every engine's test runner takes, from the job,
 * its page and log, the worker's limits, and where to record (a failure screenshot always asked for).
 */
export interface JobTestOptions extends RecordingOptions {
  page: Page;
  query: string;
  log: AgentLog;
  initialUrl: string;
  highlightMouse: boolean;
  signal: AbortSignal;
  limits: { navigationTimeoutMs: number; actionTimeoutMs: number; jobTimeoutMs: number };
  /** `metadata.secrets` by name. */
  secrets: Readonly<Record<string, string>>;
}

/** The job's agent log: each entry goes to the job's log with its text line; secrets masked from the start. */
export function jobAgentLog(context: AgentRunContext): { log: AgentLog; secrets: Record<string, string> } {
  const { job } = context;
  const secrets = secretsFromMetadata(job.metadata);
  const log = new AgentLog({ sink: (_line, entry) => context.log({ ...entry, text: formatLogLine(entry) }) });
  for (const value of Object.values(secrets)) log.addSecret(value);
  log.info(`job ${job.id}: model ${job.model}, ${job.env}, start at ${job.initialUrl}`);
  return { log, secrets };
}

/** Step results as the job record shows them (snake_case), with how each element was found. */
export function toJobStep(step: StepResult): JobStepDto & Record<string, unknown> {
  return {
    index: step.index,
    text: step.text,
    action: step.action,
    status: step.status as StepStatus,
    duration_ms: step.durationMs,
    error: step.error ?? null,
    ...(step.message ? { message: step.message } : {}),
    ...(step.strategy ? { strategy: step.strategy, candidates: step.candidates ?? null } : {}),
    ...(step.url ? { url: step.url } : {}),
    ...(step.resolvedBy ? { resolved_by: step.resolvedBy } : {}),
  };
}

/**
 * The frame every engine runs in, the same for all: acquire the job's browser page (its network
 * policy reported to the log), run the engine recorded (the library's `runRecorded` takes the video
 * and the one failure screenshot), treat a browser that died under the test as the machinery's
 * failure, let the runner record what the run did, return the outcome, and close the page once the
 * recorder has let go of it.
 */
@Injectable()
export class BrowserRunService {
  constructor(
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
    private readonly browsers: BrowserSessions,
  ) {}

  async run<R extends EngineResult>(
    context: AgentRunContext,
    agent: { log: AgentLog; secrets: Readonly<Record<string, string>> },
    engine: (options: JobTestOptions) => Promise<R>,
    recordRun: (result: R) => Promise<void>,
  ): Promise<AgentRunResult> {
    const { job, signal, videoPath } = context;
    const { log, secrets } = agent;
    const session = await this.browsers.acquire(job.env as BrowserEnvName);
    const network = reportNetwork(session, log);
    let result: R | undefined;
    try {
      result = await engine({
        page: session.page,
        query: job.query,
        log,
        initialUrl: job.initialUrl,
        highlightMouse: job.highlightMouse,
        signal,
        limits: {
          navigationTimeoutMs: this.config.NAVIGATION_TIMEOUT_MS,
          actionTimeoutMs: this.config.ACTION_TIMEOUT_MS,
          jobTimeoutMs: this.config.JOB_TIMEOUT_MS,
        },
        secrets,
        video: {
          outputPath: videoPath,
          encoders: this.browsers.encoders,
          source: this.browsers.videoSource(job.env as BrowserEnvName),
        },
        failureScreenshot: true,
      });
      // A browser that died under the test is the machinery's failure, not the test's: retry it.
      if (!session.browser.connected)
        throw new InfrastructureError('the browser crashed or disconnected during the run');
      await recordRun(result);
      const { outcome } = result;
      return {
        outcome: { ...outcome, summary: summaryWithBlocks(outcome.summary, session, log) },
        steps: result.steps.map(toJobStep),
        videoWritten: videoOutcome(result.video),
        ...(result.screenshot ? { screenshot: result.screenshot } : {}),
      };
    } finally {
      network.stop();
      await closeAfterRecording(session, result?.video);
    }
  }
}
