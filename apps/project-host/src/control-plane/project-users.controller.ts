import { Controller, Delete, Get, HttpCode, Param, Query, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ADMIN_INPUT, UserErrorDto, UsersQueryDto } from '@suite/contracts';
import { ControlPlaneHostGuard } from '../projects/host.guards.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import type { Page } from './project.view.js';
import { type AuthUserView, UsersAdminService } from './users-admin.service.js';

/** A project's end users (`?search=&page=&pageSize=`). */
@ApiTags('control plane')
@ApiBearerAuth('admin-token')
@ApiUnauthorizedResponse({ description: 'Missing or wrong PLATFORM_ADMIN_TOKEN.', type: UserErrorDto })
@ApiBadRequestResponse({
  description: 'invalid-request: the message names the bad field.',
  type: UserErrorDto,
})
@UseGuards(ControlPlaneHostGuard, AdminTokenGuard)
@Controller('v1/projects/:projectId/users')
export class ProjectUsersController {
  constructor(private readonly users: UsersAdminService) {}

  @Get()
  list(
    @Param('projectId') projectId: string,
    @Query(ADMIN_INPUT) query: UsersQueryDto,
  ): Promise<Page<AuthUserView>> {
    return this.users.list(projectId, query);
  }

  @Delete(':userId')
  @HttpCode(204)
  remove(@Param('projectId') projectId: string, @Param('userId') userId: string): Promise<void> {
    return this.users.remove(projectId, userId);
  }
}
