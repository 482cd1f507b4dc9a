import { Global, Module } from '@nestjs/common';
import { RUNNER_JOBS_EXPORTS, RunnerJobsConnections, runnerJobsProviders } from '@suite/jobs';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';

/** The shared job service and API keys, wired as jobs-api wires them for /v1 (runnerJobsProviders). */
@Global()
@Module({
  providers: [...runnerJobsProviders(AGENT_GATEWAY_CONFIG, 'agent-gateway')],
  // The connections too: the A2A context repository shares the job service's database pool.
  exports: [...RUNNER_JOBS_EXPORTS, RunnerJobsConnections],
})
export class RunnerModule {}
