import { Module } from '@nestjs/common';
import { MailDeliveryModule } from '../mail/mail-delivery.module.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { DomainVerification } from './domain-verification.js';
import { MailLogService } from './mail-log.service.js';
import { ProjectEmailsController } from './project-emails.controller.js';
import { ProjectSettingsService } from './project-settings.service.js';
import { ProjectUsersController } from './project-users.controller.js';
import { ProjectsController } from './projects.controller.js';
import { ProjectsService } from './projects.service.js';
import { TenantDatabases } from './tenant-databases.js';
import { UsersAdminService } from './users-admin.service.js';

/** Control-plane API (projects, auth and SMTP settings, domains, users, mail log) and mail delivery. */
@Module({
  imports: [MailDeliveryModule],
  controllers: [ProjectsController, ProjectUsersController, ProjectEmailsController],
  providers: [
    AdminTokenGuard,
    TenantDatabases,
    ProjectsService,
    ProjectSettingsService,
    UsersAdminService,
    MailLogService,
    DomainVerification,
  ],
})
export class ControlPlaneModule {}
