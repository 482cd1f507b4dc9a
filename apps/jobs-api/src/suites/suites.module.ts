import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module.js';
import { SuitesController } from './suites.controller.js';
import { suitesProviders } from './suites.providers.js';

@Module({
  imports: [JobsModule],
  controllers: [SuitesController],
  providers: [...suitesProviders],
})
export class SuitesModule {}
