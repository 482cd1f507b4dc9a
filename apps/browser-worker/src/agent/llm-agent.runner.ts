import { Inject, Injectable } from '@nestjs/common';
import { AgentLog, captureFailureScreenshot, formatLogLine, type RecordedVideo } from '@suite/browser-agent';
import {
  type HealingReplayResult,
  type LlmTestOptions,
  type LlmTestResult,
  runHealingReplay,
  runLlmTest,
  secretsFromMetadata,
} from '@suite/llm-agent';
import type { MainDb } from '@suite/db';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { JobRepository } from '@suite/jobs';
import { ReplayScriptRepository, type ReplayKey } from '../jobs/replay-script.repository.js';
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
import { toJobStep } from './interpreter-agent.runner.js';
import { reportNetwork, summaryWithBlocks } from './network-report.js';
import { passedRunActions } from './recorded-actions.js';

/**
 * An LLM agent (OpenAI-compatible or Anthropic) observing the page and acting through tools. A test
 * that passed before is first replayed from its stored script without the model; the model only
 * takes over from a recorded step that no longer works (see libs/llm-agent/README.md).
 */
@Injectable()
export class LlmAgentRunner implements AgentRunner {
  constructor(
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
    private readonly browsers: BrowserSessions,
    private readonly jobs: JobRepository,
    private readonly replayScripts: ReplayScriptRepository,
  ) {}

  async run({ job, log, videoPath, signal }: AgentRunContext): Promise<AgentRunResult> {
    const secrets = secretsFromMetadata(job.metadata);
    const agentLog = new AgentLog({ sink: (_line, entry) => log({ ...entry, text: formatLogLine(entry) }) });
    for (const value of Object.values(secrets)) agentLog.addSecret(value);
    agentLog.info(`job ${job.id}: model ${job.model}, ${job.env}, start at ${job.initialUrl}`);
    const model = this.config.llm.get(job.model);
    const key: ReplayKey = {
      owner: job.owner,
      model: job.model,
      initialUrl: job.initialUrl,
      query: job.query,
    };
    const replayOn = replayEnabled(job);
    const stored = replayOn ? await this.replayScripts.find(key) : null;
    if (!replayOn)
      agentLog.info('replay: off for this job (metadata.replay is false); the model runs the test');
    else if (stored) agentLog.info(`replay: found the recorded steps of job ${stored.jobId}, which passed`);
    const session = await this.browsers.acquire(job.env as BrowserEnvName);
    const network = reportNetwork(session, agentLog);
    let video: RecordedVideo | undefined;
    try {
      const options: LlmTestOptions = {
        page: session.page,
        query: job.query,
        log: agentLog,
        initialUrl: job.initialUrl,
        highlightMouse: job.highlightMouse,
        signal,
        provider: this.config.llm.providerFor(job.model),
        model: job.model,
        ...(model?.pricing ? { pricing: model.pricing } : {}),
        secrets,
        limits: {
          navigationTimeoutMs: this.config.NAVIGATION_TIMEOUT_MS,
          actionTimeoutMs: this.config.ACTION_TIMEOUT_MS,
          jobTimeoutMs: this.config.JOB_TIMEOUT_MS,
          maxSteps: this.config.LLM_MAX_STEPS,
        },
        video: { outputPath: videoPath, encoders: this.browsers.encoders },
      };
      let result: LlmTestResult | HealingReplayResult | undefined = stored
        ? await runHealingReplay({ ...options, script: stored.script, recordedModelCalls: stored.llmCalls })
        : undefined;
      result ??= await runLlmTest(options);
      video = result.video;
      if (!session.browser.connected)
        throw new InfrastructureError('the browser crashed or disconnected during the run');
      const replay = 'replay' in result ? result.replay : undefined;
      await this.jobs.recordRun(job.id, {
        actions: passedRunActions(result.verdict, result.steps, secrets),
        ...(replay
          ? {
              replay: {
                replayed_steps: replay.replayedSteps,
                total_steps: replay.totalSteps,
                healed_from_step: replay.healedFromStep ?? null,
                model_calls: replay.modelCalls,
                model_calls_saved: replay.modelCallsSaved ?? null,
              },
            }
          : {}),
      });
      // A clean replay changes nothing; a fresh or healed passing run becomes the script to replay.
      if (replayOn && result.verdict === 'succeeded' && result.script && result.usage.llmCalls > 0) {
        await this.replayScripts.save(key, {
          script: result.script,
          // A healed run's own calls cover only its tail; the test costs what the recording did.
          llmCalls: Math.max(result.usage.llmCalls, stored?.llmCalls ?? 0),
          jobId: job.id,
        });
      }
      // The page is still as the failed run left it (the session closes below).
      const screenshot =
        result.verdict === 'failed'
          ? await captureFailureScreenshot(session.page, Object.values(secrets))
          : undefined;
      return {
        verdict: result.verdict,
        summary: summaryWithBlocks(result.summary, session, agentLog),
        steps: result.steps.map(toJobStep),
        videoWritten: videoOutcome(result.video),
        ...(screenshot ? { screenshot } : {}),
        ...(result.endedBy !== 'done' ? { error: result.endedBy } : {}),
      };
    } finally {
      network.stop();
      await closeAfterRecording(session, video);
    }
  }
}

/** `metadata.replay: false` opts a job out of replaying (and of storing its script). */
function replayEnabled(job: MainDb.Job): boolean {
  const metadata = job.metadata as { replay?: unknown } | null;
  return metadata?.replay !== false;
}
