import { Module } from '@nestjs/common';
import { McpModule } from '../mcp/mcp.module.js';
import { ProjectCodeModule } from '../project-code/project-code.module.js';
import { UserAuthModule } from '../user-auth/user-auth.module.js';
import { AdminFormsController } from './admin-forms.controller.js';
import { AdminTokenController } from './admin-token.controller.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { AuthOverviewService } from './auth-overview.service.js';
import { controlPlaneRepositoryProviders } from './control-plane.providers.js';
import { FormValidationService } from './form-validation.service.js';
import { MailLogService } from './mail-log.service.js';
import { MailResendService } from './mail-resend.service.js';
import { ProjectContexts } from './project-contexts.js';
import { ProjectMailActionsController } from './project-mail-actions.controller.js';
import { ProjectMcpController } from './project-mcp.controller.js';
import { ProjectMcpService } from './project-mcp.service.js';
import { ProjectUserSessionsController } from './project-user-sessions.controller.js';
import { SmtpTestMailer } from './smtp-test-mailer.js';
import { SmtpTestService } from './smtp-test.service.js';
import { PrismaUserDetailRepository, UserDetailRepository } from './user-detail.repository.js';
import { UserSessionsService } from './user-sessions.service.js';
import { ProjectAuthController } from './project-auth.controller.js';
import { ProjectEmailsController } from './project-emails.controller.js';
import { ProjectSettingsService } from './project-settings.service.js';
import { ProjectUsersController } from './project-users.controller.js';
import { ProjectsController } from './projects.controller.js';
import { ProjectsService } from './projects.service.js';
import { TenantMovesService } from './tenant-moves.service.js';
import { TenantServersController } from './tenant-servers.controller.js';
import { TenantUpgradesService } from './tenant-upgrades.service.js';
import { PrismaTenantUsersRepository, TenantUsersRepository } from './tenant-users.repository.js';
import { UsersAdminService } from './users-admin.service.js';

/** Control-plane API (projects, auth and SMTP settings, domains, users, mail log); apps/project-worker delivers the mail. */
@Module({
  // The user detail and mail resend go through the end-user flows (sessions, codes, auth mail).
  // MCP tools and grants: the active deployments and the end user's own revocation.
  imports: [UserAuthModule, ProjectCodeModule, McpModule],
  controllers: [
    ProjectsController,
    ProjectUsersController,
    ProjectEmailsController,
    ProjectAuthController,
    AdminTokenController,
    AdminFormsController,
    ProjectUserSessionsController,
    ProjectMailActionsController,
    TenantServersController,
    ProjectMcpController,
  ],
  providers: [
    AdminTokenGuard,
    ...controlPlaneRepositoryProviders,
    { provide: TenantUsersRepository, useClass: PrismaTenantUsersRepository },
    TenantMovesService,
    TenantUpgradesService,
    ProjectsService,
    ProjectSettingsService,
    UsersAdminService,
    MailLogService,
    AuthOverviewService,
    ProjectContexts,
    { provide: UserDetailRepository, useClass: PrismaUserDetailRepository },
    UserSessionsService,
    MailResendService,
    SmtpTestMailer,
    SmtpTestService,
    FormValidationService,
    ProjectMcpService,
  ],
})
export class ControlPlaneModule {}
