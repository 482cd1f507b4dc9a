import { Inject, Injectable } from '@nestjs/common';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import type { AgentRunContext, AgentRunner, AgentRunResult } from './agent-runner.js';
import { InterpreterAgentRunner } from './interpreter-agent.runner.js';
import { LlmAgentRunner } from './llm-agent.runner.js';

/**
 * Picks the engine by the job's model: a served LLM model runs the LLM agent, anything else the
 * interpreter (the hybrid engine when a provider is configured: see InterpreterAgentRunner).
 */
@Injectable()
export class AgentRouter implements AgentRunner {
  constructor(
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
    private readonly interpreter: InterpreterAgentRunner,
    private readonly llm: LlmAgentRunner,
  ) {}

  run(context: AgentRunContext): Promise<AgentRunResult> {
    return this.config.llm.has(context.job.model) ? this.llm.run(context) : this.interpreter.run(context);
  }
}
