import { Controller, Get, Inject, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import { ControlPlaneHostGuard, CurrentProject, ProjectHostGuard } from '../../projects/host.guards.js';
import type { ProjectContext } from '../../projects/project-context.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import { UserAuthGuard, UserAuthRoute } from '../http/user-auth.guards.js';
import { clientIp } from '../limits/client-ip.js';
import type { ClientMeta } from '../tokens/token-pair.js';
import { IdpBrowserCookie } from './idp-browser-cookie.js';
import { IdpSignInService } from './idp-sign-in.service.js';
import { IDP_STATE_TTL_SECONDS } from './idp-state.store.js';

/** Tokens travel on these redirects: no caching, no Referer to the next page. */
function redirect(reply: FastifyReply, location: string): void {
  void reply
    .status(302)
    .header('Location', location)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .send();
}

/** GET /api/user/auth/idp on a project host: 302 to the identity provider. */
@UseGuards(ProjectHostGuard, UserAuthGuard)
@Controller('api/user/auth/idp')
export class IdpStartController {
  constructor(private readonly idp: IdpSignInService) {}

  @Get()
  @UserAuthRoute({ ipLimit: 'login' })
  async start(
    @CurrentProject() ctx: ProjectContext,
    @Query() query: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    redirect(reply, await this.idp.start(ctx, query));
  }
}

/**
 * GET /internal/auth/idp/start and /internal/auth/idp/callback on the PUBLIC_URL host: the hand-off
 * that binds a sign-in to the browser, and the one authorized redirect URI of every project (the
 * state says which project it is for).
 */
@UseGuards(ControlPlaneHostGuard)
@Controller('internal/auth/idp')
export class IdpCallbackController {
  private readonly cookie: IdpBrowserCookie;

  constructor(
    private readonly idp: IdpSignInService,
    @Inject(PROJECT_HOST_CONFIG) private readonly config: ProjectHostConfig,
  ) {
    this.cookie = new IdpBrowserCookie(config.PUBLIC_URL);
  }

  @Get('start')
  async hop(@Query() query: Record<string, unknown>, @Res() reply: FastifyReply): Promise<void> {
    const { location, state, browserKey } = await this.idp.hop(query);
    void reply.header('Set-Cookie', this.cookie.set(state, browserKey, IDP_STATE_TTL_SECONDS));
    redirect(reply, location);
  }

  @Get('callback')
  async callback(
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const userAgent = request.headers['user-agent'];
    const meta: ClientMeta = {
      ip: clientIp(
        request.raw.socket.remoteAddress,
        request.headers['x-forwarded-for'],
        this.config.TRUSTED_PROXY_HOPS,
      ),
      userAgent: typeof userAgent === 'string' ? userAgent : undefined,
    };
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const browserKey = this.cookie.read(query.state, request.headers.cookie);
    const location = await this.idp.callback(query, rawQuery, meta, browserKey);
    if (typeof query.state === 'string') void reply.header('Set-Cookie', this.cookie.clear(query.state));
    redirect(reply, location);
  }
}
