import { Controller, Get, Header, Inject, Param, Res, UseGuards } from '@nestjs/common';
import { pageSecurityHeaders } from '@suite/nest-core';
import type { FastifyReply } from 'fastify';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { ControlPlaneHostGuard } from '../projects/host.guards.js';
import { authPage, emailPage, emailsPage, projectsPage, settingsPage, userPage } from './dashboard.pages.js';

/** The dashboard holds the admin token: its pages run only their own scripts and are never framed. */
const PAGE_HEADERS = pageSecurityHeaders();

/**
 * The dashboard's pages (control-plane host only); their data comes from the control-plane API.
 * Ids in the path are only echoed (escaped) into the page: an unknown one shows the API's 404 there.
 */
@UseGuards(ControlPlaneHostGuard)
@Controller()
export class DashboardController {
  constructor(@Inject(PROJECT_HOST_CONFIG) private readonly config: ProjectHostConfig) {}

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  projects(@Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.headers(PAGE_HEADERS);
    return projectsPage();
  }

  @Get('projects/:projectId/auth')
  @Header('content-type', 'text/html; charset=utf-8')
  auth(@Param('projectId') projectId: string, @Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.headers(PAGE_HEADERS);
    return authPage(projectId, `${this.config.PUBLIC_URL.replace(/\/+$/, '')}/internal/auth/idp/callback`);
  }

  @Get('projects/:projectId/users/:userId')
  @Header('content-type', 'text/html; charset=utf-8')
  user(
    @Param('projectId') projectId: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): string {
    void reply.headers(PAGE_HEADERS);
    return userPage(projectId, userId);
  }

  @Get('projects/:projectId/emails')
  @Header('content-type', 'text/html; charset=utf-8')
  emails(@Param('projectId') projectId: string, @Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.headers(PAGE_HEADERS);
    return emailsPage(projectId);
  }

  @Get('projects/:projectId/emails/:mailId')
  @Header('content-type', 'text/html; charset=utf-8')
  email(
    @Param('projectId') projectId: string,
    @Param('mailId') mailId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): string {
    void reply.headers(PAGE_HEADERS);
    return emailPage(projectId, mailId);
  }

  @Get('projects/:projectId/settings')
  @Header('content-type', 'text/html; charset=utf-8')
  settings(@Param('projectId') projectId: string, @Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.headers(PAGE_HEADERS);
    return settingsPage(projectId);
  }
}
