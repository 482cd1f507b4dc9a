import { Controller, Get, Inject, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import { ControlPlaneHostGuard, CurrentProject, ProjectHostGuard } from '../../projects/host.guards.js';
import type { ProjectContext } from '../../projects/project-context.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import { UserAuthGuard, UserAuthRoute } from '../http/user-auth.guards.js';
import { clientIp } from '../limits/client-ip.js';
import type { ClientMeta } from '../tokens/token-pair.js';
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
 * The binding cookie: a random browser key on the callback's host that ties a sign-in's state to the
 * browser that started it. HttpOnly, SameSite=Lax (the provider's redirect back is a top-level
 * cross-site GET), only sent to these routes, ten minutes. It proves nothing but "same browser":
 * it is not an auth cookie.
 */
export const IDP_BROWSER_COOKIE = 'ua_idp_browser';

function browserKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === IDP_BROWSER_COOKIE) return value.join('=');
  }
  return undefined;
}

/**
 * GET /internal/auth/idp/start and /internal/auth/idp/callback on the PUBLIC_URL host: the hand-off
 * that binds a sign-in to the browser, and the one authorized redirect URI of every project (the
 * state says which project it is for).
 */
@UseGuards(ControlPlaneHostGuard)
@Controller('internal/auth/idp')
export class IdpCallbackController {
  constructor(
    private readonly idp: IdpSignInService,
    @Inject(PROJECT_HOST_CONFIG) private readonly config: ProjectHostConfig,
  ) {}

  @Get('start')
  async hop(
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { location, browserKey } = await this.idp.hop(query, browserKeyOf(request));
    const secure = new URL(this.config.PUBLIC_URL).protocol === 'https:' ? '; Secure' : '';
    void reply.header(
      'Set-Cookie',
      `${IDP_BROWSER_COOKIE}=${browserKey}; Path=/internal/auth/idp; Max-Age=${IDP_STATE_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
    );
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
    redirect(reply, await this.idp.callback(query, rawQuery, meta, browserKeyOf(request)));
  }
}
