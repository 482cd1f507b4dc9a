import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { UserErrorDto } from '@suite/contracts';
import { ControlPlaneApi } from './control-plane-api.decorator.js';
import { type UserDetailView, UserSessionsService } from './user-sessions.service.js';

/** One end user of a project: detail and sign out everywhere (the list and delete are in ProjectUsersController). */
@ControlPlaneApi()
@ApiNotFoundResponse({
  description: 'project_not_found, or not_found: no such user in this project.',
  type: UserErrorDto,
})
@Controller('v1/projects/:projectId/users/:userId')
export class ProjectUserSessionsController {
  constructor(private readonly users: UserSessionsService) {}

  @Get()
  @ApiOperation({ summary: 'The user with their sign-in methods, last sign-in and sessions.' })
  @ApiOkResponse({
    description: 'providers, lastSignInAt, activeSessions and sessions (one per refresh-token family).',
  })
  get(@Param('projectId') projectId: string, @Param('userId') userId: string): Promise<UserDetailView> {
    return this.users.detail(projectId, userId);
  }

  @Post('sign-out')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign the user out everywhere: every refresh token revoked, access tokens refused at once.',
  })
  @ApiOkResponse({ description: '`{ "revokedSessions": n }`: how many sessions were active.' })
  signOut(
    @Param('projectId') projectId: string,
    @Param('userId') userId: string,
  ): Promise<{ revokedSessions: number }> {
    return this.users.signOutEverywhere(projectId, userId);
  }
}
