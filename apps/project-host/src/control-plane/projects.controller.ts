import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ADMIN_INPUT,
  AddDomainDto,
  AuthSettingsDto,
  CreateProjectDto,
  PageQueryDto,
  SmtpSettingsDto,
} from '@suite/contracts';
import type { FastifyReply } from 'fastify';
import { ProjectSettingsService } from './project-settings.service.js';
import type { AuthSettingsView, DomainView, Page, ProjectView, SmtpSettingsView } from './project.view.js';
import { ProjectsService } from './projects.service.js';
import { ControlPlaneApi } from './control-plane-api.decorator.js';

/** Projects and their settings; only on the control-plane host, only with the admin token. */
@ControlPlaneApi()
@Controller('v1/projects')
export class ProjectsController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly settings: ProjectSettingsService,
  ) {}

  @Post()
  @HttpCode(201)
  create(@Body(ADMIN_INPUT) body: CreateProjectDto): Promise<ProjectView> {
    return this.projects.create(body);
  }

  @Get()
  list(@Query(ADMIN_INPUT) query: PageQueryDto): Promise<Page<ProjectView>> {
    return this.projects.list(query);
  }

  @Get(':projectId')
  get(@Param('projectId') projectId: string): Promise<ProjectView> {
    return this.projects.get(projectId);
  }

  @Delete(':projectId')
  @HttpCode(204)
  remove(@Param('projectId') projectId: string): Promise<void> {
    return this.projects.remove(projectId);
  }

  @Put(':projectId/auth')
  updateAuth(
    @Param('projectId') projectId: string,
    @Body(ADMIN_INPUT) body: AuthSettingsDto,
  ): Promise<AuthSettingsView> {
    return this.settings.updateAuth(projectId, body);
  }

  @Put(':projectId/smtp')
  updateSmtp(
    @Param('projectId') projectId: string,
    @Body(ADMIN_INPUT) body: SmtpSettingsDto,
  ): Promise<SmtpSettingsView> {
    return this.settings.updateSmtp(projectId, body);
  }

  /** 201 for a new domain, 200 when the project already had it. */
  @Post(':projectId/domains')
  async addDomain(
    @Param('projectId') projectId: string,
    @Body(ADMIN_INPUT) body: AddDomainDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DomainView> {
    const { created, domain } = await this.settings.addDomain(projectId, body);
    void reply.status(created ? 201 : 200);
    return domain;
  }

  /**
   * Has the project worker look the domain's DNS TXT record up now (waiting DOMAIN_CHECK_WAIT_MS
   * for it); 200 with the domain, verified or still pending.
   */
  @Post(':projectId/domains/:domain/verify')
  @HttpCode(200)
  verifyDomain(@Param('projectId') projectId: string, @Param('domain') domain: string): Promise<DomainView> {
    return this.settings.verifyDomain(projectId, domain);
  }
}
