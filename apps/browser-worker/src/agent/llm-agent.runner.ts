import { Inject, Injectable } from '@nestjs/common';
import { AgentLog, formatLogLine } from '@suite/browser-agent';
import { runLlmTest, secretsFromMetadata } from '@suite/llm-agent';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import {
  InfrastructureError,
  type AgentRunContext,
  type AgentRunner,
  type AgentRunResult,
} from './agent-runner.js';
import { BrowserSessions, type BrowserEnvName } from './browser-sessions.js';
import { toJobStep } from './interpreter-agent.runner.js';

/** An LLM agent (OpenAI-compatible or Anthropic) observing the page and acting through tools. */
@Injectable()
export class LlmAgentRunner implements AgentRunner {
  constructor(
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
    private readonly browsers: BrowserSessions,
  ) {}

  async run({ job, log, videoPath, signal }: AgentRunContext): Promise<AgentRunResult> {
    const secrets = secretsFromMetadata(job.metadata);
    const agentLog = new AgentLog({ sink: (_line, entry) => log({ ...entry, text: formatLogLine(entry) }) });
    for (const value of Object.values(secrets)) agentLog.addSecret(value);
    agentLog.info(`job ${job.id}: model ${job.model}, ${job.env}, start at ${job.initialUrl}`);
    const model = this.config.llm.get(job.model);
    const session = await this.browsers.acquire(job.env as BrowserEnvName);
    try {
      const result = await runLlmTest({
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
        video: { outputPath: videoPath },
      });
      if (!session.browser.connected)
        throw new InfrastructureError('the browser crashed or disconnected during the run');
      return {
        verdict: result.verdict,
        summary: result.summary,
        steps: result.steps.map(toJobStep),
        videoWritten: Boolean(result.video?.ok),
        ...(result.endedBy !== 'done' ? { error: result.endedBy } : {}),
      };
    } finally {
      await session.close();
    }
  }
}
