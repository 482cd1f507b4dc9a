import { Module } from '@nestjs/common';
import { RUNNER_JOBS_EXPORTS, RunnerJobsConnections, runnerJobsProviders } from '@suite/jobs';
import { JOBS_API_CONFIG } from '../app.tokens.js';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { InstructionCheckController } from './instruction-check.controller.js';
import { InstructionCheckService } from './instruction-check.service.js';
import { JobScriptController } from './job-script.controller.js';
import { JobScriptService } from './job-script.service.js';
import { JobStreamService } from './job-stream.service.js';
import { JobsController } from './jobs.controller.js';
import { ModelsController } from './models.controller.js';

@Module({
  controllers: [JobsController, JobScriptController, ModelsController, InstructionCheckController],
  providers: [
    ...runnerJobsProviders(JOBS_API_CONFIG, 'jobs-api'),
    ApiKeyGuard,
    JobStreamService,
    JobScriptService,
    InstructionCheckService,
  ],
  exports: [...RUNNER_JOBS_EXPORTS, RunnerJobsConnections],
})
export class JobsModule {}
