import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { ADMIN_INPUT, SendTestMailDto, UserErrorDto } from '@suite/contracts';
import { ControlPlaneApi } from './control-plane-api.decorator.js';
import { type MailDetailView, MailResendService } from './mail-resend.service.js';
import { type SmtpTestView, SmtpTestService } from './smtp-test.service.js';

/** A mail's detail and resend, and the SMTP test mail (the mail log list is in ProjectEmailsController). */
@ControlPlaneApi()
@ApiNotFoundResponse({
  description: 'project_not_found, or not_found: no such mail in this project.',
  type: UserErrorDto,
})
@Controller('v1/projects/:projectId')
export class ProjectMailActionsController {
  constructor(
    private readonly mails: MailResendService,
    private readonly smtpTest: SmtpTestService,
  ) {}

  @Get('emails/:mailId')
  @ApiOperation({
    summary: 'One mail: headers, a body preview with codes and links hidden, and whether it can be re-sent.',
  })
  @ApiOkResponse({ description: 'The mail-log entry with headers, preview and resend.' })
  detail(@Param('projectId') projectId: string, @Param('mailId') mailId: string): Promise<MailDetailView> {
    return this.mails.detail(projectId, mailId);
  }

  @Post('emails/:mailId/resend')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Send the mail again through its end-user flow: a sign-in, reset or email-change mail gets a fresh code (the old one stops working).',
  })
  @ApiAcceptedResponse({ description: '`{ "message": ... }`: what was queued, to whom.' })
  @ApiConflictResponse({
    description: 'The mail cannot be re-sent (its kind, the auth settings, or the user is gone).',
    type: UserErrorDto,
  })
  resend(
    @Param('projectId') projectId: string,
    @Param('mailId') mailId: string,
  ): Promise<{ message: string }> {
    return this.mails.resend(projectId, mailId);
  }

  @Post('smtp/test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a test mail through the project\u2019s saved SMTP server now.' })
  @ApiOkResponse({
    description:
      '`{ "sent": true, messageId }`, or `{ "sent": false, error }` with the SMTP error in plain words.',
  })
  @ApiConflictResponse({ description: 'SMTP is not configured for this project.', type: UserErrorDto })
  testSmtp(
    @Param('projectId') projectId: string,
    @Body(ADMIN_INPUT) body: SendTestMailDto,
  ): Promise<SmtpTestView> {
    return this.smtpTest.send(projectId, body);
  }
}
