import { Module, type DynamicModule } from '@nestjs/common';
import { SUITE_VERSION } from '@suite/config';
import { ConfigValueModule, WorkerCoreModule } from '@suite/nest-core';
import { AGENT_RUNNER } from './agent/agent-runner.js';
import { BrowserRunService } from './agent/browser-run.service.js';
import { BrowserSessions } from './agent/browser-sessions.js';
import { AgentRouter } from './agent/agent-router.js';
import { InterpreterAgentRunner } from './agent/interpreter-agent.runner.js';
import { LlmAgentRunner } from './agent/llm-agent.runner.js';
import type { BrowserWorkerConfig } from './browser-worker.config.js';
import { RunnerMetricsObserver } from './health/runner-metrics.observer.js';
import { BrowserJobConsumer } from './jobs/browser-job.consumer.js';
import { JobReaper } from './jobs/job-reaper.js';
import { JobRunService } from './jobs/job-run.service.js';
import { workerConnectionProviders } from './jobs/worker-connections.js';
import { SuiteScheduleConsumer } from './suites/suite-schedule.consumer.js';
import { suiteScheduleProviders } from './suites/suite-schedule.providers.js';
import { BROWSER_WORKER_CONFIG } from './worker.tokens.js';

@Module({})
export class WorkerModule {
  static forRoot(config: BrowserWorkerConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigValueModule.forRoot(BROWSER_WORKER_CONFIG, config),
        WorkerCoreModule.forRoot('browser-worker', SUITE_VERSION, config),
      ],
      providers: [
        RunnerMetricsObserver,
        ...workerConnectionProviders,
        BrowserSessions,
        BrowserRunService,
        InterpreterAgentRunner,
        LlmAgentRunner,
        { provide: AGENT_RUNNER, useClass: AgentRouter },
        JobRunService,
        BrowserJobConsumer,
        JobReaper,
        ...suiteScheduleProviders,
        SuiteScheduleConsumer,
      ],
    };
  }
}
