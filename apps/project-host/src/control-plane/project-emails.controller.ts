import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ADMIN_INPUT, EmailsQueryDto, UserErrorDto } from '@suite/contracts';
import { ControlPlaneHostGuard } from '../projects/host.guards.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { type MailLogEntryView, MailLogService } from './mail-log.service.js';
import type { Page } from './project.view.js';

/** A project's mail log (`?status=&page=&pageSize=`), for the dashboard's Email page. */
@ApiTags('control plane')
@ApiBearerAuth('admin-token')
@ApiUnauthorizedResponse({ description: 'Missing or wrong PLATFORM_ADMIN_TOKEN.', type: UserErrorDto })
@ApiBadRequestResponse({
  description: 'invalid-request: the message names the bad field.',
  type: UserErrorDto,
})
@UseGuards(ControlPlaneHostGuard, AdminTokenGuard)
@Controller('v1/projects/:projectId/emails')
export class ProjectEmailsController {
  constructor(private readonly mailLog: MailLogService) {}

  @Get()
  list(
    @Param('projectId') projectId: string,
    @Query(ADMIN_INPUT) query: EmailsQueryDto,
  ): Promise<Page<MailLogEntryView>> {
    return this.mailLog.list(projectId, query);
  }
}
