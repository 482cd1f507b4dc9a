import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { ModelRegistry, type ModelInfo } from '@suite/jobs';
import { RunnerApi } from '../auth/runner-api.decorator.js';

@RunnerApi('models')
@Controller('v1/models')
export class ModelsController {
  constructor(@Inject(ModelRegistry) private readonly models: ModelRegistry) {}

  @Get()
  @ApiOkResponse({
    description:
      'The agent models this deployment can run; `default` marks the one used when a job names none.',
  })
  list(): { models: ModelInfo[] } {
    return { models: this.models.list() };
  }
}
