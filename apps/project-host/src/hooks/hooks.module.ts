import { Module } from '@nestjs/common';
import { ProjectCodeModule } from '../project-code/project-code.module.js';
import { AuthHooksProcessor } from './auth-hooks.processor.js';

/** Runs the projects' auth hooks from the `auth-hooks` queue. */
@Module({
  imports: [ProjectCodeModule],
  providers: [AuthHooksProcessor],
})
export class HooksModule {}
