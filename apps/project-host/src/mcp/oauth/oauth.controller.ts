import { Body, Controller, Get, HttpCode, Inject, Options, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AuthError, AuthErrorCode } from '@suite/errors';
import type { FastifyReply } from 'fastify';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import { CurrentProject, ProjectHostGuard, type ProjectRequest } from '../../projects/host.guards.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { AuthRateLimits } from '../../user-auth/limits/auth-rate-limits.js';
import { clientIp } from '../../user-auth/limits/client-ip.js';
import { allowCrossOrigin, preflight } from '../mcp-cors.js';
import { hostOrigin } from '../mcp-origin.js';
import { mcpIsOff } from '../mcp-switch.js';
import { McpOAuthService } from './mcp-oauth.service.js';
import { OAuthClients } from './oauth-clients.js';
import { OAuthError } from './oauth-error.js';

/**
 * The authorization server's machine endpoints on every project host: RFC 8414 metadata, dynamic
 * client registration (RFC 7591) and the token endpoint. Errors are RFC 6749 JSON bodies; token
 * answers are never cached.
 */
@ApiExcludeController()
@UseGuards(ProjectHostGuard)
@Controller()
export class OAuthController {
  constructor(
    private readonly oauth: McpOAuthService,
    private readonly clients: OAuthClients,
    private readonly limits: AuthRateLimits,
    @Inject(PROJECT_HOST_CONFIG) private readonly config: ProjectHostConfig,
  ) {}

  @Options([
    '.well-known/oauth-authorization-server',
    '.well-known/oauth-authorization-server/mcp',
    'oauth/register',
    'oauth/token',
  ])
  preflight(@Res() reply: FastifyReply): void {
    preflight(reply);
  }

  @Get(['.well-known/oauth-authorization-server', '.well-known/oauth-authorization-server/mcp'])
  metadata(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    allowCrossOrigin(reply);
    if (mcpIsOff(ctx)) {
      void reply.status(404).header('cache-control', 'no-store');
      return OAuthError.mcpOff().body;
    }
    const origin = hostOrigin(ctx, request);
    return {
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    };
  }

  @Post('oauth/register')
  async register(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Body() body: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    allowCrossOrigin(reply);
    if (mcpIsOff(ctx)) return this.fail(reply, OAuthError.mcpOff());
    if (!ctx.auth.enabled)
      return this.fail(reply, new OAuthError('access_denied', 'Sign-in is off for this project', 403));
    try {
      // Anyone may register: per address, as often as anyone may sign up.
      await this.limited(() => this.limits.consumeIp('register', ctx.project.id, this.ip(request)));
      void reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await this.clients.register(ctx, body));
    } catch (error) {
      if (error instanceof OAuthError) return this.fail(reply, error);
      throw error;
    }
  }

  @Post('oauth/token')
  @HttpCode(200)
  async token(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const params = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
      string,
      unknown
    >;
    allowCrossOrigin(reply);
    try {
      if (mcpIsOff(ctx)) throw OAuthError.mcpOff();
      if (!ctx.auth.enabled) throw new OAuthError('invalid_grant', 'Sign-in is off for this project');
      await this.limited(() => this.limits.consumeIp('refresh', ctx.project.id, this.ip(request)));
      const userAgent = request.headers['user-agent'];
      const answer = await this.limited(() =>
        this.oauth.token(ctx, hostOrigin(ctx, request), params, request.headers.authorization, {
          ip: this.ip(request),
          userAgent: typeof userAgent === 'string' ? userAgent : undefined,
        }),
      );
      void reply.status(200).headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(answer);
    } catch (error) {
      if (error instanceof OAuthError) return this.fail(reply, error);
      throw error;
    }
  }

  private ip(request: ProjectRequest): string {
    return clientIp(
      request.raw.socket.remoteAddress,
      request.headers['x-forwarded-for'],
      this.config.TRUSTED_PROXY_HOPS,
    );
  }

  /** A rate limit's refusal as OAuth says it: 429 temporarily_unavailable. */
  private async limited<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AuthError && error.code === AuthErrorCode.RateLimited) {
        throw new OAuthError('temporarily_unavailable', error.message, 429);
      }
      throw error;
    }
  }

  private fail(reply: FastifyReply, error: OAuthError): void {
    const headers: Record<string, string> = { 'cache-control': 'no-store' };
    if (error.status === 401) headers['www-authenticate'] = 'Basic realm="oauth"';
    void reply.status(error.status).headers(headers).send(error.body);
  }
}
