import { Controller, Get, Inject, Logger, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { LoginDto, RegisterDto, validateUserInput } from '@suite/contracts';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { pageSecurityHeaders } from '@suite/nest-core';
import { AuthSecrets, randomToken, sha256Hex } from '@suite/project-runtime';
import type { FastifyReply } from 'fastify';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import { CurrentProject, ProjectHostGuard, type ProjectRequest } from '../../projects/host.guards.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { clientIp } from '../../user-auth/limits/client-ip.js';
import { PasswordAuthService } from '../../user-auth/services/password-auth.service.js';
import type { ClientMeta } from '../../user-auth/tokens/token-pair.js';
import type { TokenUser } from '../../user-auth/user-snapshot.js';
import { hostOrigin } from '../mcp-origin.js';
import { MCP_OFF_MESSAGE, mcpIsOff } from '../mcp-switch.js';
import { CONSENT_STYLE_SOURCE, consentPage, type ConsentView } from './consent-page.js';
import { McpOAuthService, RedirectableError, type AuthorizeRequest } from './mcp-oauth.service.js';
import type { OAuthClientRecord } from './oauth-clients.js';
import { OAuthError } from './oauth-error.js';

/** How long the page's forms stay good: a person signs in and decides within this. */
const FORM_TTL_MS = 15 * 60_000;

interface Sealed<T> {
  value: T;
  exp: number;
}

/**
 * `/oauth/authorize`: the consent page of the MCP flow. GET checks the request (an unknown client
 * or a redirect URI it did not register is shown here, never redirected: no open redirect; other
 * problems go back to the client with `error`, `state` and `iss`) and shows the sign-in step; POST
 * signs in or up through the same service as /api/user (rate limits, events, and blocking hooks
 * awaited as the contract's Events rule 2 says), then shows Allow / Deny unless the user approved
 * this client before, and redirects with a code.
 *
 * No session cookie: the validated request travels sealed in the form, and after the sign-in a
 * sealed ticket (the user, bound to this request and this browser's CSRF cookie) replaces the
 * password. CSRF: a random cookie (HttpOnly, SameSite=Lax) and its HMAC in every form. The page
 * may not be framed (CSP frame-ancestors 'none', X-Frame-Options DENY) and runs no script.
 */
@ApiExcludeController()
@UseGuards(ProjectHostGuard)
@Controller('oauth/authorize')
export class ConsentController {
  private readonly logger = new Logger('mcp-consent');

  constructor(
    private readonly oauth: McpOAuthService,
    private readonly passwords: PasswordAuthService,
    private readonly secrets: AuthSecrets,
    @Inject(PROJECT_HOST_CONFIG) private readonly config: ProjectHostConfig,
  ) {}

  @Get()
  async show(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const origin = hostOrigin(ctx, request);
    if (mcpIsOff(ctx)) return this.unavailable(reply, ctx, 404, `${MCP_OFF_MESSAGE}.`);
    const csrf = this.csrfCookie(ctx, request, reply);
    if (!ctx.auth.enabled) return this.unavailable(reply, ctx, 404, 'Sign-in is off for this project.');
    let client: OAuthClientRecord;
    let authorize: AuthorizeRequest;
    try {
      const known = await this.oauth.clientOf(ctx, query);
      client = known.client;
      try {
        authorize = this.oauth.authorizeRequest(origin, client, known.redirectUri, query);
      } catch (error) {
        if (!(error instanceof RedirectableError)) throw error;
        const state = typeof query.state === 'string' ? query.state : null;
        return this.redirect(
          reply,
          this.oauth.redirect(
            origin,
            { redirectUri: known.redirectUri, state },
            { error: error.error, error_description: error.description },
          ),
        );
      }
    } catch (error) {
      if (error instanceof OAuthError) return this.unavailable(reply, ctx, 400, error.description);
      throw error;
    }
    this.page(reply, 200, {
      ...this.common(ctx, client, authorize),
      step: 'sign-in',
      hidden: { request: this.seal(ctx, 'request', authorize, ''), csrf: this.csrfToken(ctx, csrf) },
    });
  }

  @Post()
  async decide(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const form = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
      string,
      unknown
    >;
    if (mcpIsOff(ctx)) return this.unavailable(reply, ctx, 404, `${MCP_OFF_MESSAGE}.`);
    const cookie = this.readCookie(ctx, request);
    if (!cookie || typeof form.csrf !== 'string' || form.csrf !== this.csrfToken(ctx, cookie)) {
      return this.unavailable(
        reply,
        ctx,
        403,
        'This form expired or did not come from this page. Start again from your application.',
      );
    }
    if (!ctx.auth.enabled) return this.unavailable(reply, ctx, 404, 'Sign-in is off for this project.');
    const sealedRequest = typeof form.request === 'string' ? form.request : '';
    const authorize = this.open<AuthorizeRequest>(ctx, 'request', sealedRequest, '');
    if (!authorize)
      return this.unavailable(reply, ctx, 400, 'This sign-in expired. Start again from your application.');
    const origin = hostOrigin(ctx, request);
    // The client may have been removed since the page was shown.
    let client: OAuthClientRecord;
    try {
      ({ client } = await this.oauth.clientOf(ctx, {
        client_id: authorize.clientId,
        redirect_uri: authorize.redirectUri,
      }));
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      // A metadata document may have changed or gone since the page was shown: say why.
      const why =
        error.error === 'invalid_client' && error.description.startsWith('The client')
          ? ` ${error.description}`
          : '';
      return this.unavailable(reply, ctx, 400, `This application is no longer registered.${why}`);
    }
    const hidden = { request: sealedRequest, csrf: form.csrf };
    const ticketAad = `${sha256Hex(sealedRequest)}:${cookie}`;

    const action = form.action;
    if (action === 'deny') {
      return this.redirect(
        reply,
        this.oauth.redirect(origin, authorize, {
          error: 'access_denied',
          error_description: 'The user declined',
        }),
      );
    }
    if (action === 'allow') {
      const user = this.open<{ id: string; email: string }>(ctx, 'ticket', form.ticket, ticketAad);
      if (!user)
        return this.unavailable(reply, ctx, 400, 'This sign-in expired. Start again from your application.');
      return this.redirect(reply, await this.oauth.approve(ctx, origin, user.id, client, authorize));
    }
    if (action !== 'signin' && action !== 'signup') {
      return this.unavailable(reply, ctx, 400, 'Unknown action.');
    }

    let user: TokenUser;
    try {
      if (!ctx.auth.emailPassword)
        throw new AuthError(AuthErrorCode.EmailPasswordDisabled, undefined, { status: 403 });
      const meta = this.meta(request);
      const userOnly = (_tx: unknown, signedIn: TokenUser) => Promise.resolve(signedIn);
      user =
        action === 'signin'
          ? await this.passwords.login(
              ctx,
              validateUserInput(LoginDto, { email: form.email, password: form.password }, 'body'),
              meta,
              userOnly,
            )
          : await this.passwords.register(
              ctx,
              validateUserInput(
                RegisterDto,
                { email: form.email, password: form.password, ...(form.name ? { name: form.name } : {}) },
                'body',
              ),
              meta,
              userOnly,
            );
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return this.page(reply, error.status ?? 400, {
        ...this.common(ctx, client, authorize),
        step: 'sign-in',
        hidden,
        error: messageOf(error),
        email: typeof form.email === 'string' ? form.email.slice(0, 320) : '',
      });
    }
    if (await this.oauth.hasConsent(ctx, user.id, client.id)) {
      return this.redirect(reply, await this.oauth.approve(ctx, origin, user.id, client, authorize));
    }
    this.page(reply, 200, {
      ...this.common(ctx, client, authorize),
      step: 'consent',
      signedInAs: user.email,
      hidden: { ...hidden, ticket: this.seal(ctx, 'ticket', { id: user.id, email: user.email }, ticketAad) },
    });
  }

  private common(ctx: ProjectContext, client: OAuthClientRecord, authorize: AuthorizeRequest) {
    const target = new URL(authorize.redirectUri);
    return {
      projectName: ctx.project.name ?? ctx.project.slug,
      clientName: client.name ?? 'An application',
      returnsTo:
        target.protocol === 'http:' || target.protocol === 'https:'
          ? target.host
          : target.protocol.slice(0, -1),
      ...(client.kind === 'metadata-document' ? { publishedBy: new URL(client.id).host } : {}),
      allowSignups: ctx.auth.allowSignups,
      emailPassword: ctx.auth.emailPassword,
      redirectUri: authorize.redirectUri,
    };
  }

  private page(
    reply: FastifyReply,
    status: number,
    view: ConsentView & { hidden: Record<string, unknown>; redirectUri?: string },
  ): void {
    const hidden = Object.fromEntries(Object.entries(view.hidden).map(([k, v]) => [k, String(v)]));
    void reply
      .status(status)
      .headers(pageHeaders(view.redirectUri))
      .type('text/html; charset=utf-8')
      .send(consentPage({ ...view, hidden }));
  }

  private unavailable(reply: FastifyReply, ctx: ProjectContext, status: number, message: string): void {
    this.page(reply, status, {
      projectName: ctx.project.name ?? ctx.project.slug,
      clientName: '',
      returnsTo: '',
      step: 'unavailable',
      error: message,
      hidden: {},
    });
  }

  /** A 303 to the client (a form's answer becomes a GET there). */
  private redirect(reply: FastifyReply, location: string): void {
    void reply
      .status(303)
      .headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
      .header('location', location)
      .send();
  }

  private cookieName(ctx: ProjectContext): string {
    // __Host-: only this exact host can set it (no sibling project host can plant one).
    return ctx.publicUrl.startsWith('https:') ? '__Host-mcp_csrf' : 'mcp_csrf';
  }

  private readCookie(ctx: ProjectContext, request: ProjectRequest): string | undefined {
    const name = this.cookieName(ctx);
    const header = request.headers.cookie ?? '';
    for (const part of header.split(';')) {
      const [key, ...rest] = part.trim().split('=');
      if (key === name) {
        const value = rest.join('=');
        return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
      }
    }
    return undefined;
  }

  private csrfCookie(ctx: ProjectContext, request: ProjectRequest, reply: FastifyReply): string {
    const existing = this.readCookie(ctx, request);
    if (existing) return existing;
    const value = randomToken();
    const secure = ctx.publicUrl.startsWith('https:') ? '; Secure' : '';
    void reply.header(
      'set-cookie',
      `${this.cookieName(ctx)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600${secure}`,
    );
    return value;
  }

  private csrfToken(ctx: ProjectContext, cookie: string): string {
    return this.secrets.hmacHex('consent-hmac', ctx.project.id, cookie);
  }

  private seal(ctx: ProjectContext, what: 'request' | 'ticket', value: unknown, bind: string): string {
    const body: Sealed<unknown> = { value, exp: Date.now() + FORM_TTL_MS };
    return this.secrets.seal(
      'consent-seal',
      JSON.stringify(body),
      `consent-${what}:${ctx.project.id}:${bind}`,
    );
  }

  private open<T>(
    ctx: ProjectContext,
    what: 'request' | 'ticket',
    sealed: unknown,
    bind: string,
  ): T | undefined {
    if (typeof sealed !== 'string' || sealed.length > 8_000) return undefined;
    const opened = this.secrets.open('consent-seal', sealed, `consent-${what}:${ctx.project.id}:${bind}`);
    if (!opened) return undefined;
    const body = JSON.parse(opened.toString('utf8')) as Sealed<T>;
    return body.exp > Date.now() ? body.value : undefined;
  }

  private meta(request: ProjectRequest): ClientMeta {
    const userAgent = request.headers['user-agent'];
    return {
      ip: clientIp(
        request.raw.socket.remoteAddress,
        request.headers['x-forwarded-for'],
        this.config.TRUSTED_PROXY_HOPS,
      ),
      userAgent: typeof userAgent === 'string' ? userAgent : undefined,
    };
  }
}

/**
 * The page's headers: the suite's page policy with this page's one inline style and no script.
 * The forms' answer is a redirect to the client, which form-action governs too: it lets exactly
 * that client's origin (or app scheme) through.
 */
function pageHeaders(redirectUri: string | undefined): Record<string, string> {
  const base = pageSecurityHeaders();
  let target = '';
  if (redirectUri) {
    const url = new URL(redirectUri);
    target = url.protocol === 'http:' || url.protocol === 'https:' ? ` ${url.origin}` : ` ${url.protocol}`;
  }
  const csp = base['content-security-policy']!.replace(
    "style-src 'self'",
    `style-src ${CONSENT_STYLE_SOURCE}`,
  )
    .replace(/script-src [^;]*/, "script-src 'none'")
    .replace("form-action 'self'", `form-action 'self'${target}`);
  return {
    ...base,
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

function messageOf(error: AuthError): string {
  switch (error.code) {
    case AuthErrorCode.InvalidCredentials:
      return 'The email or password is wrong.';
    case AuthErrorCode.IdentityAlreadyExists:
      return 'An account with this email exists already: sign in instead.';
    case AuthErrorCode.SignupDisabled:
      return 'This project does not take new accounts.';
    case AuthErrorCode.EmailPasswordDisabled:
      return 'Sign-in with email and password is off for this project.';
    default:
      return error.message;
  }
}
