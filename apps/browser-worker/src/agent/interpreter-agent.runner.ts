import { Inject, Injectable } from '@nestjs/common';
import {
  AgentLog,
  formatLogLine,
  type RecordedVideo,
  runInstructionTest,
  type StepResult,
} from '@suite/browser-agent';
import type { JobStepDto, StepStatus } from '@suite/contracts';
import { secretsFromMetadata } from '@suite/llm-agent';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { INSTRUCTIONS_NOT_UNDERSTOOD, JobRepository } from '@suite/jobs';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import {
  InfrastructureError,
  type AgentRunContext,
  type AgentRunner,
  type AgentRunResult,
  closeAfterRecording,
  videoOutcome,
} from './agent-runner.js';
import { BrowserSessions, type BrowserEnvName } from './browser-sessions.js';
import { reportNetwork, summaryWithBlocks } from './network-report.js';
import { passedRunActions } from './recorded-actions.js';

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
  };
}

/** The built-in interpreter: parses plain English steps and runs them in an isolated browser context. */
@Injectable()
export class InterpreterAgentRunner implements AgentRunner {
  constructor(
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
    private readonly browsers: BrowserSessions,
    private readonly jobs: JobRepository,
  ) {}

  async run({ job, log, videoPath, signal }: AgentRunContext): Promise<AgentRunResult> {
    const agentLog = new AgentLog({ sink: (_line, entry) => log({ ...entry, text: formatLogLine(entry) }) });
    agentLog.info(`job ${job.id}: model ${job.model}, ${job.env}, start at ${job.initialUrl}`);
    const secrets = secretsFromMetadata(job.metadata);
    const session = await this.browsers.acquire(job.env as BrowserEnvName);
    const network = reportNetwork(session, agentLog);
    let video: RecordedVideo | undefined;
    try {
      const result = await runInstructionTest({
        page: session.page,
        query: job.query,
        log: agentLog,
        initialUrl: job.initialUrl,
        highlightMouse: job.highlightMouse,
        signal,
        limits: {
          navigationTimeoutMs: this.config.NAVIGATION_TIMEOUT_MS,
          actionTimeoutMs: this.config.ACTION_TIMEOUT_MS,
          jobTimeoutMs: this.config.JOB_TIMEOUT_MS,
        },
        video: { outputPath: videoPath, encoders: this.browsers.encoders },
        failureScreenshot: true,
        secretValues: Object.values(secrets),
      });
      video = result.video;
      // A browser that died under the test is the machinery's failure, not the test's: retry it.
      if (!session.browser.connected)
        throw new InfrastructureError('the browser crashed or disconnected during the run');
      const actions = passedRunActions(result.verdict, result.steps, secrets);
      await this.jobs.recordRun(job.id, { actions });
      return {
        verdict: result.verdict,
        summary: summaryWithBlocks(result.summary, session, agentLog),
        steps: result.steps.map(toJobStep),
        videoWritten: videoOutcome(result.video),
        ...(result.screenshot ? { screenshot: result.screenshot } : {}),
        ...(result.verdict === 'failed' && result.rejected ? { error: INSTRUCTIONS_NOT_UNDERSTOOD } : {}),
      };
    } finally {
      network.stop();
      await closeAfterRecording(session, video);
    }
  }
}
