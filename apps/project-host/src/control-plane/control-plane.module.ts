import { Module } from '@nestjs/common';
import { AdminTokenGuard } from './admin-token.guard.js';
import { DomainVerification } from './domain-verification.js';
import { MailLogRepository, PrismaMailLogRepository } from './mail-log.repository.js';
import { MailLogService } from './mail-log.service.js';
import { ProjectEmailsController } from './project-emails.controller.js';
import { ProjectSettingsService } from './project-settings.service.js';
import { ProjectUsersController } from './project-users.controller.js';
import { ProjectsController } from './projects.controller.js';
import { PrismaProjectsRepository, ProjectsRepository } from './projects.repository.js';
import { ProjectsService } from './projects.service.js';
import { TenantDatabases } from './tenant-databases.js';
import { PrismaTenantUsersRepository, TenantUsersRepository } from './tenant-users.repository.js';
import { UsersAdminService } from './users-admin.service.js';

/** Control-plane API (projects, auth and SMTP settings, domains, users, mail log); apps/project-worker delivers the mail. */
@Module({
  controllers: [ProjectsController, ProjectUsersController, ProjectEmailsController],
  providers: [
    AdminTokenGuard,
    { provide: ProjectsRepository, useClass: PrismaProjectsRepository },
    { provide: TenantUsersRepository, useClass: PrismaTenantUsersRepository },
    { provide: MailLogRepository, useClass: PrismaMailLogRepository },
    TenantDatabases,
    ProjectsService,
    ProjectSettingsService,
    UsersAdminService,
    MailLogService,
    DomainVerification,
  ],
})
export class ControlPlaneModule {}
