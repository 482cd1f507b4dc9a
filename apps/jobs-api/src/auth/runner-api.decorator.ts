import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiSecurity, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { HttpErrorDto } from '@suite/contracts';
import { ApiKeyGuard } from './api-key.guard.js';

/** A `/v1` controller of the runner: only with an API key (bearer or X-API-Key); documented as such. */
export function RunnerApi(tag: string): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    ApiSecurity('bearer'),
    ApiSecurity('api-key'),
    ApiUnauthorizedResponse({ description: 'Missing or invalid API key.', type: HttpErrorDto }),
    UseGuards(ApiKeyGuard),
  );
}
