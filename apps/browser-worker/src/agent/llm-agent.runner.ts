import { Inject, Injectable } from '@nestjs/common';
import {
  type HealingReplayResult,
  type LlmTestOptions,
  type LlmTestResult,
  runHealingReplay,
  runLlmTest,
} from '@suite/llm-agent';
import type { MainDb } from '@suite/db';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { JobRepository } from '@suite/jobs';
import { ReplayScriptRepository, type ReplayKey } from '../jobs/replay-script.repository.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import type { AgentRunContext, AgentRunner, AgentRunResult } from './agent-runner.js';
import { BrowserRunService, jobAgentLog } from './browser-run.service.js';
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
    private readonly browserRun: BrowserRunService,
    private readonly jobs: JobRepository,
    private readonly replayScripts: ReplayScriptRepository,
  ) {}

  async run(context: AgentRunContext): Promise<AgentRunResult> {
    const { job } = context;
    const agent = jobAgentLog(context);
    const { log: agentLog, secrets } = agent;
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
    return this.browserRun.run(
      context,
      agent,
      async (test): Promise<LlmTestResult | HealingReplayResult> => {
        const options: LlmTestOptions = {
          ...test,
          provider: this.config.llm.providerFor(job.model),
          model: job.model,
          ...(model?.pricing ? { pricing: model.pricing } : {}),
          limits: { ...test.limits, maxSteps: this.config.LLM_MAX_STEPS },
        };
        const replayed = stored
          ? await runHealingReplay({ ...options, script: stored.script, recordedModelCalls: stored.llmCalls })
          : undefined;
        return replayed ?? runLlmTest(options);
      },
      async (result) => {
        const replay = 'replay' in result ? result.replay : undefined;
        await this.jobs.recordRun(job.id, {
          actions: passedRunActions(result.outcome, result.steps, secrets),
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
        if (replayOn && result.outcome.kind === 'passed' && result.script && result.usage.llmCalls > 0) {
          await this.replayScripts.save(key, {
            script: result.script,
            // A healed run's own calls cover only its tail; the test costs what the recording did.
            llmCalls: Math.max(result.usage.llmCalls, stored?.llmCalls ?? 0),
            jobId: job.id,
          });
        }
      },
    );
  }
}

/** `metadata.replay: false` opts a job out of replaying (and of storing its script). */
function replayEnabled(job: MainDb.Job): boolean {
  const metadata = job.metadata as { replay?: unknown } | null;
  return metadata?.replay !== false;
}
