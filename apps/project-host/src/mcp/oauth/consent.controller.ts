import { Controller, Get, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import { CurrentProject, ProjectHostGuard, type ProjectRequest } from '../../projects/host.guards.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { clientIp } from '../../user-auth/limits/client-ip.js';
import { hostOrigin } from '../mcp-origin.js';
import { consentPage, consentPageHeaders } from './consent-page.js';
import { ConsentService, type ConsentAnswer, type ConsentInput } from './consent.service.js';

/**
 * `/oauth/authorize`: the consent page of the MCP flow (ConsentService has the flow). This reads
 * the request and renders the answer: a server-rendered page that may not be framed (CSP
 * frame-ancestors 'none', X-Frame-Options DENY) and runs no script, or a 303.
 */
@ApiExcludeController()
@UseGuards(ProjectHostGuard)
@Controller('oauth/authorize')
export class ConsentController {
  constructor(
    private readonly consent: ConsentService,
    @Inject(PROJECT_HOST_CONFIG) private readonly config: ProjectHostConfig,
  ) {}

  @Get()
  async show(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.send(reply, await this.consent.show(ctx, this.input(ctx, request, request.query)));
  }

  @Post()
  async decide(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.send(reply, await this.consent.decide(ctx, this.input(ctx, request, request.body)));
  }

  /** A mailed sign-in link of the consent page. */
  @Get('magic')
  async magicLink(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.send(reply, await this.consent.magicLinkReturn(ctx, this.input(ctx, request, request.query)));
  }

  /** Where the identity provider's callback hands a consent-page sign-in back. */
  @Get('idp')
  async idpReturn(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.send(reply, await this.consent.idpReturn(ctx, this.input(ctx, request, request.query)));
  }

  private input(ctx: ProjectContext, request: ProjectRequest, params: unknown): ConsentInput {
    const userAgent = request.headers['user-agent'];
    return {
      origin: hostOrigin(ctx, request),
      cookies: request.headers.cookie,
      params: (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>,
      meta: {
        ip: clientIp(
          request.raw.socket.remoteAddress,
          request.headers['x-forwarded-for'],
          this.config.TRUSTED_PROXY_HOPS,
        ),
        userAgent: typeof userAgent === 'string' ? userAgent : undefined,
      },
    };
  }

  private send(reply: FastifyReply, answer: ConsentAnswer): void {
    for (const cookie of answer.setCookies) void reply.header('set-cookie', cookie);
    if (answer.kind === 'redirect') {
      // A 303 to the client: a form's answer becomes a GET there.
      void reply
        .status(303)
        .headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
        .header('location', answer.location)
        .send();
      return;
    }
    void reply
      .status(answer.status)
      .headers(consentPageHeaders(answer.view))
      .type('text/html; charset=utf-8')
      .send(consentPage(answer.view));
  }
}
