import { Inject, Injectable } from '@nestjs/common';
import {
  AgentLog,
  formatLogLine,
  type RecordedVideo,
  runInstructionTest,
  type StepResult,
} from '@suite/browser-agent';
import type { JobStepDto, StepStatus } from '@suite/contracts';
import { type HybridTestResult, runHybridTest, secretsFromMetadata } from '@suite/llm-agent';
import type { MainDb } from '@suite/db';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { INSTRUCTIONS_NOT_UNDERSTOOD, JobRepository } from '@suite/jobs';
import { StepResolutionRepository, type TestKey } from '../jobs/step-resolution.repository.js';
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
    ...(step.resolvedBy ? { resolved_by: step.resolvedBy } : {}),
  };
}

/**
 * The built-in interpreter: parses plain English steps and runs them in an isolated browser context.
 * With an LLM provider configured it is the hybrid engine: the served default model resolves only
 * the steps the interpreter cannot read or find a target for, and what it did is stored with the
 * test so later runs replay it without the model (see libs/llm-agent/README.md).
 */
@Injectable()
export class InterpreterAgentRunner implements AgentRunner {
  constructor(
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
    private readonly browsers: BrowserSessions,
    private readonly jobs: JobRepository,
    private readonly resolutions: StepResolutionRepository,
  ) {}

  async run({ job, log, videoPath, signal }: AgentRunContext): Promise<AgentRunResult> {
    const agentLog = new AgentLog({ sink: (_line, entry) => log({ ...entry, text: formatLogLine(entry) }) });
    agentLog.info(`job ${job.id}: model ${job.model}, ${job.env}, start at ${job.initialUrl}`);
    const secrets = secretsFromMetadata(job.metadata);
    const session = await this.browsers.acquire(job.env as BrowserEnvName);
    const network = reportNetwork(session, agentLog);
    let video: RecordedVideo | undefined;
    try {
      const options = {
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
        secrets,
      };
      const hybrid = this.hybridModel(job);
      const result = hybrid
        ? await this.runHybrid(job, options, hybrid, secrets)
        : await runInstructionTest(options);
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

  /** The served model that fills the interpreter's gaps: the default one, unless the job opts out. */
  private hybridModel(job: MainDb.Job): string | undefined {
    const metadata = job.metadata as { resolve_with_model?: unknown } | null;
    if (metadata?.resolve_with_model === false) return undefined;
    return this.config.llm.defaultModel;
  }

  private async runHybrid(
    job: MainDb.Job,
    options: Parameters<typeof runInstructionTest>[0],
    model: string,
    secrets: Readonly<Record<string, string>>,
  ): Promise<HybridTestResult> {
    const key: TestKey = { owner: job.owner, initialUrl: job.initialUrl, query: job.query };
    const stored = await this.resolutions.find(key);
    const result = await runHybridTest({
      ...options,
      limits: { ...options.limits, maxSteps: this.config.LLM_MAX_STEPS },
      provider: this.config.llm.providerFor(model),
      model,
      ...(this.config.llm.get(model)?.pricing ? { pricing: this.config.llm.get(model)!.pricing! } : {}),
      secrets,
      stored,
    });
    try {
      await this.resolutions.save(key, result.resolved, job.id);
    } catch (error) {
      // Another run of the same test saving at the same moment: the next run asks the model again.
      options.log.write({
        outcome: 'info',
        level: 'warn',
        message: `hybrid: the resolved steps could not be stored (${(error as Error).message}); the next run asks the model again`,
      });
    }
    return result;
  }
}
