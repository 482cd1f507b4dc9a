import { Inject, Injectable } from '@nestjs/common';
import { type InstructionTestOptions, runInstructionTest } from '@suite/browser-agent';
import { type HybridTestResult, runHybridTest } from '@suite/llm-agent';
import type { MainDb } from '@suite/db';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { JobRepository } from '@suite/jobs';
import { StepResolutionRepository, type TestKey } from '../jobs/step-resolution.repository.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import type { AgentRunContext, AgentRunner, AgentRunResult } from './agent-runner.js';
import { BrowserRunService, jobAgentLog } from './browser-run.service.js';
import { passedRunActions } from './recorded-actions.js';

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
    private readonly browserRun: BrowserRunService,
    private readonly jobs: JobRepository,
    private readonly resolutions: StepResolutionRepository,
  ) {}

  run(context: AgentRunContext): Promise<AgentRunResult> {
    const { job } = context;
    const agent = jobAgentLog(context);
    const { secrets } = agent;
    return this.browserRun.run(
      context,
      agent,
      (test) => {
        const options: InstructionTestOptions = { ...test, secretValues: Object.values(secrets) };
        const hybrid = this.hybridModel(job);
        return hybrid ? this.runHybrid(job, options, hybrid, secrets) : runInstructionTest(options);
      },
      (result) =>
        this.jobs.recordRun(job.id, { actions: passedRunActions(result.outcome, result.steps, secrets) }),
    );
  }

  /** The served model that fills the interpreter's gaps: the default one, unless the job opts out. */
  private hybridModel(job: MainDb.Job): string | undefined {
    const metadata = job.metadata as { resolve_with_model?: unknown } | null;
    if (metadata?.resolve_with_model === false) return undefined;
    return this.config.llm.defaultModel;
  }

  private async runHybrid(
    job: MainDb.Job,
    options: InstructionTestOptions,
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
