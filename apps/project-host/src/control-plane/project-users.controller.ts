import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { ADMIN_INPUT, UsersQueryDto } from '@suite/contracts';
import type { Page } from './project.view.js';
import { type AuthUserView, UsersAdminService } from './users-admin.service.js';
import { ControlPlaneApi } from './control-plane-api.decorator.js';

/** A project's end users (`?search=&page=&pageSize=`). */
@ControlPlaneApi()
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
