import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { HttpErrorDto } from '@suite/contracts';
import { ModelRegistry, type ModelInfo } from '@suite/jobs';
import { ApiKeyGuard } from '../auth/api-key.guard.js';

@ApiTags('models')
@ApiSecurity('bearer')
@ApiSecurity('api-key')
@ApiUnauthorizedResponse({ description: 'Missing or invalid API key.', type: HttpErrorDto })
@UseGuards(ApiKeyGuard)
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
