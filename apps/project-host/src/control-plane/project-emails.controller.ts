import { Controller, Get, Param, Query } from '@nestjs/common';
import { ADMIN_INPUT, EmailsQueryDto } from '@suite/contracts';
import { type MailLogEntryView, MailLogService } from './mail-log.service.js';
import type { Page } from './project.view.js';
import { ControlPlaneApi } from './control-plane-api.decorator.js';

/** A project's mail log (`?status=&page=&pageSize=`), for the dashboard's Email page. */
@ControlPlaneApi()
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
