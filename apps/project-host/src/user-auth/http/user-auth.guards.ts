import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Inject,
  Injectable,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import type { ProjectRequest } from '../../projects/host.guards.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import { AuthRateLimits, type IpLimitGroup } from '../limits/auth-rate-limits.js';
import { clientIp } from '../limits/client-ip.js';
import { AccessTokens, headerOf, type AccessClaims } from '../tokens/access-tokens.js';
import { audienceOf, RefreshSessions } from '../tokens/refresh-sessions.js';
import type { ClientMeta } from '../tokens/token-pair.js';
import { LEGACY_ACCESS_TOKEN_ALG } from '../user-auth.constants.js';
import { PROJECT_ACCESS_STRATEGY } from './project-access.strategy.js';

export interface UserAuthRoutePolicy {
  /** Refused with 403 email_password_disabled when the project turned email/password off. */
  emailPassword?: boolean;
  /** The per-IP bucket the route counts against; none for routes that are cheap and harmless. */
  ipLimit?: IpLimitGroup;
}

/** How a reserved /api/user route is gated (every one of them answers 404 auth_disabled when auth is off). */
export const UserAuthRoute = Reflector.createDecorator<UserAuthRoutePolicy>();

type UserAuthRequest = ProjectRequest & { clientMeta?: ClientMeta; accessClaims?: AccessClaims };

/**
 * The gates of the spec, in its order: auth off (404 auth_disabled), email/password off (403
 * email_password_disabled), then the route's per-IP rate limit. Runs after ProjectHostGuard.
 * Gate refusals fire no hook.
 */
@Injectable()
export class UserAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: AuthRateLimits,
    @Inject(PROJECT_HOST_CONFIG) private readonly config: ProjectHostConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<UserAuthRequest>();
    const project = request.projectContext!;
    if (!project.auth.enabled) throw new AuthError(AuthErrorCode.AuthDisabled, undefined, { status: 404 });
    // All bodies are JSON (spec): a form post is refused rather than read as a body.
    const contentType = request.headers['content-type'];
    if (contentType !== undefined && !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType)) {
      throw new AuthError(AuthErrorCode.UnsupportedMediaType);
    }
    const policy = this.reflector.get(UserAuthRoute, context.getHandler()) ?? {};
    if (policy.emailPassword && !project.auth.emailPassword) {
      throw new AuthError(AuthErrorCode.EmailPasswordDisabled, undefined, { status: 403 });
    }
    const ip = clientIp(
      request.raw.socket.remoteAddress,
      request.headers['x-forwarded-for'],
      this.config.TRUSTED_PROXY_HOPS,
    );
    const userAgent = request.headers['user-agent'];
    request.clientMeta = { ip, userAgent: typeof userAgent === 'string' ? userAgent : undefined };
    if (policy.ipLimit) await this.limits.consumeIp(policy.ipLimit, project.project.id, ip);
    return true;
  }
}

/**
 * `Authorization: Bearer <access token>` of this project (verified by passport-jwt, see
 * project-access.strategy.ts), for a session that is still signed in (a sign-out or a detected
 * token theft ends access at once here, not 15 minutes later). A token signed before the move to
 * ES256 (EdDSA) is verified by AccessTokens until it expires.
 */
@Injectable()
export class AccessTokenGuard extends AuthGuard(PROJECT_ACCESS_STRATEGY) {
  constructor(
    private readonly tokens: AccessTokens,
    private readonly sessions: RefreshSessions,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<UserAuthRequest & { user?: unknown }>();
    const project = request.projectContext!;
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer[ ]+([^\s]+)\s*$/i.exec(header) : null;
    if (!match) throw new AuthError(AuthErrorCode.Unauthorized, 'Send Authorization: Bearer <accessToken>');
    let claims: AccessClaims | undefined;
    if (headerOf(match[1]!)?.alg === LEGACY_ACCESS_TOKEN_ALG) {
      claims = await this.tokens.verify(audienceOf(project), match[1]!);
    } else {
      await super.canActivate(context);
      claims = request.user as AccessClaims | undefined;
    }
    if (!claims || !(await this.sessions.isLive(project, claims))) throw invalidToken();
    request.accessClaims = claims;
    return true;
  }

  override handleRequest<T>(error: unknown, user: T | false): T {
    if (error || !user) throw invalidToken();
    return user;
  }
}

function invalidToken(): AuthError {
  return new AuthError(AuthErrorCode.Unauthorized, 'The access token is invalid or expired');
}

/** The verified claims of the request's access token (routes behind AccessTokenGuard). */
export const CurrentClaims = createParamDecorator((_: unknown, context: ExecutionContext): AccessClaims => {
  const claims = context.switchToHttp().getRequest<UserAuthRequest>().accessClaims;
  if (!claims) throw new Error('CurrentClaims used on a route without AccessTokenGuard');
  return claims;
});

/** Client address (proxy hops applied) and user agent (routes behind UserAuthGuard). */
export const CurrentClient = createParamDecorator((_: unknown, context: ExecutionContext): ClientMeta => {
  const meta = context.switchToHttp().getRequest<UserAuthRequest>().clientMeta;
  if (!meta) throw new Error('CurrentClient used on a route without UserAuthGuard');
  return meta;
});
