import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { type AuthOverviewView, AuthOverviewService } from './auth-overview.service.js';
import { ControlPlaneApi } from './control-plane-api.decorator.js';

/** A project's auth settings as the dashboard's Auth page reads them (PUT is in ProjectsController). */
@ControlPlaneApi()
@Controller('v1/projects/:projectId/auth')
export class ProjectAuthController {
  constructor(private readonly overview: AuthOverviewService) {}

  @Get()
  @ApiOperation({
    summary: 'The auth settings, and whether the platform\u2019s identity provider is configured.',
  })
  @ApiOkResponse({
    description: 'The settings of PUT …/auth (secrets only as hasClientSecret) and platformIdp.configured.',
  })
  get(@Param('projectId') projectId: string): Promise<AuthOverviewView> {
    return this.overview.get(projectId);
  }
}
