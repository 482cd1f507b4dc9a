import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { UserErrorDto } from '@suite/contracts';
import { ControlPlaneHostGuard } from '../projects/host.guards.js';
import { AdminTokenGuard } from './admin-token.guard.js';

/** A control-plane controller: only on the control-plane host, only with the admin token; documented as such. */
export function ControlPlaneApi(): ClassDecorator {
  return applyDecorators(
    ApiTags('control plane'),
    ApiBearerAuth('admin-token'),
    ApiUnauthorizedResponse({ description: 'Missing or wrong PLATFORM_ADMIN_TOKEN.', type: UserErrorDto }),
    ApiBadRequestResponse({
      description: 'invalid-request: the message names the bad field.',
      type: UserErrorDto,
    }),
    UseGuards(ControlPlaneHostGuard, AdminTokenGuard),
  );
}
