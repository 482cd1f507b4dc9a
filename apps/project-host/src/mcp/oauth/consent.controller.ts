import { Controller, Get, Inject, Logger, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CodeDto, LoginDto, MagicLinkQueryDto, RegisterDto, validateUserInput } from '@suite/contracts';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { pageSecurityHeaders } from '@suite/nest-core';
import { AuthSecrets, randomToken, sha256Hex } from '@suite/project-runtime';
import type { FastifyReply } from 'fastify';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import { CurrentProject, ProjectHostGuard, type ProjectRequest } from '../../projects/host.guards.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { AuthRateLimits } from '../../user-auth/limits/auth-rate-limits.js';
import { clientIp } from '../../user-auth/limits/client-ip.js';
import { IdpSignInService, type IdpRedirectError } from '../../user-auth/idp/idp-sign-in.service.js';
import { MailCodeAuthService } from '../../user-auth/services/mail-code-auth.service.js';
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
/** Where a mailed sign-in link of the consent page lands (this host's own page, nothing else). */
const MAGIC_PATH = '/oauth/authorize/magic';

type Sealable = 'request' | 'ticket' | 'pending';

/** A request this browser left pending (magic link, identity provider), opened from its cookie. */
interface Pending {
  client: OAuthClientRecord;
  pending: AuthorizeRequest;
  hidden: Record<string, string>;
  /** What the sign-in ticket is bound to (the sealed request and the CSRF cookie). */
  ticketAad: string;
  /** This browser's CSRF cookie. */
  browser: string;
}

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
 *
 * Magic link: the sign-in step can mail a link (the /api/user flow: same limits, mail, events,
 * and blocking hooks awaited on sign-in). The pending request waits in this browser, sealed in a
 * cookie bound to its CSRF cookie; the link lands on `/oauth/authorize/magic` of this host, which
 * takes the request only from that cookie. So the link works only in the browser that asked for
 * it (someone who makes a victim's inbox receive a link cannot have the victim approve the
 * attacker's request), and the only place it can lead is the consent step of the stored request.
 */
@ApiExcludeController()
@UseGuards(ProjectHostGuard)
@Controller('oauth/authorize')
export class ConsentController {
  private readonly logger = new Logger('mcp-consent');

  constructor(
    private readonly oauth: McpOAuthService,
    private readonly passwords: PasswordAuthService,
    private readonly mailCodes: MailCodeAuthService,
    private readonly idp: IdpSignInService,
    private readonly limits: AuthRateLimits,
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
      ...(await this.common(ctx, client, authorize)),
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
    if (action === 'magic-link') {
      return this.mailLink(reply, ctx, request, origin, client, authorize, form, hidden, cookie);
    }
    if (action === 'idp') {
      return this.idpSignIn(reply, ctx, request, origin, client, authorize, hidden, cookie);
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
      return this.signInAgain(reply, ctx, client, authorize, hidden, error, form.email);
    }
    return this.signedIn(reply, ctx, origin, client, authorize, hidden, ticketAad, user);
  }

  /**
   * A mailed sign-in link of the consent page. The request comes from this browser's pending
   * cookie only (nothing in the link or the query can name another), so it goes nowhere but the
   * consent step of the request this browser started.
   */
  @Get('magic')
  async magicLink(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (this.answeredClosed(reply, ctx)) return;
    if (!ctx.auth.emailPassword) {
      return this.unavailable(reply, ctx, 403, 'Sign-in by email is off for this project.');
    }
    // Without the pending request the code is not spent: the link still works in the browser that asked for it.
    const back = await this.pendingOf(
      ctx,
      request,
      reply,
      'Open this sign-in link in the browser where you asked for it, within 15 minutes. Or start again from your application.',
    );
    if (!back) return;
    const query = (request.query ?? {}) as Record<string, unknown>;
    let user: TokenUser;
    try {
      const meta = this.meta(request);
      await this.limits.consumeIp('callback', ctx.project.id, meta.ip);
      user = await this.mailCodes.magicLinkCallback(
        ctx,
        validateUserInput(CodeDto, { code: query.code }, 'query'),
        meta,
        (_tx, signedIn) => Promise.resolve(signedIn),
      );
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return this.pendingSignInAgain(
        reply,
        ctx,
        back,
        error.status === 429 ? 429 : 400,
        error.status === 429
          ? messageOf(error)
          : 'This sign-in link is wrong, used or expired. Ask for a new one below.',
      );
    }
    return this.pendingSignedIn(reply, ctx, request, back, user);
  }

  /**
   * Where the identity provider's callback hands a consent-page sign-in back (a single-use code,
   * minted for this project and this browser's CSRF cookie) or says why it failed. The request
   * comes from this browser's pending cookie only, as for the magic link.
   */
  @Get('idp')
  async idpReturn(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (this.answeredClosed(reply, ctx)) return;
    const back = await this.pendingOf(
      ctx,
      request,
      reply,
      'Finish signing in in the browser where you started, within 15 minutes. Or start again from your application.',
    );
    if (!back) return;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const failed = typeof query.error === 'string' ? query.error : undefined;
    const user = failed ? undefined : await this.idp.redeemForConsent(ctx, query.code, back.browser);
    if (!user) {
      return this.pendingSignInAgain(
        reply,
        ctx,
        back,
        failed === 'signup_disabled' ? 403 : 400,
        failed
          ? idpMessage(failed)
          : 'This sign-in was used already, expired, or started in another browser. Sign in again below.',
      );
    }
    return this.pendingSignedIn(reply, ctx, request, back, user);
  }

  /** The stored request's sign-in step again, saying what went wrong (the pending cookie stays). */
  private async pendingSignInAgain(
    reply: FastifyReply,
    ctx: ProjectContext,
    back: Pending,
    status: number,
    error: string,
  ): Promise<void> {
    return this.page(reply, status, {
      ...(await this.common(ctx, back.client, back.pending)),
      step: 'sign-in',
      hidden: back.hidden,
      error,
    });
  }

  /** Signed in for the stored request: the pending cookie goes, and on as after any sign-in. */
  private pendingSignedIn(
    reply: FastifyReply,
    ctx: ProjectContext,
    request: ProjectRequest,
    back: Pending,
    user: { id: string; email: string },
  ): Promise<void> {
    this.forgetPending(ctx, reply);
    const origin = hostOrigin(ctx, request);
    return this.signedIn(reply, ctx, origin, back.client, back.pending, back.hidden, back.ticketAad, user);
  }

  /**
   * The request this browser left pending (magic link, identity provider), its client, and the
   * forms' fields and ticket binding to go on with; undefined once a page saying why was sent.
   */
  private async pendingOf(
    ctx: ProjectContext,
    request: ProjectRequest,
    reply: FastifyReply,
    elsewhere: string,
  ): Promise<Pending | undefined> {
    const browser = this.readCookie(ctx, request);
    const pending = browser
      ? this.open<AuthorizeRequest>(ctx, 'pending', this.readCookie(ctx, request, 'pending'), browser)
      : undefined;
    if (!browser || !pending) {
      this.unavailable(reply, ctx, 400, elsewhere);
      return undefined;
    }
    let client: OAuthClientRecord;
    try {
      ({ client } = await this.oauth.clientOf(ctx, {
        client_id: pending.clientId,
        redirect_uri: pending.redirectUri,
      }));
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      this.unavailable(reply, ctx, 400, 'This application is no longer registered.');
      return undefined;
    }
    const sealedRequest = this.seal(ctx, 'request', pending, '');
    return {
      client,
      pending,
      hidden: { request: sealedRequest, csrf: this.csrfToken(ctx, browser) },
      ticketAad: `${sha256Hex(sealedRequest)}:${browser}`,
      browser,
    };
  }

  /** After any sign-in: straight back to the client when the user approved it before, else Allow / Deny. */
  private async signedIn(
    reply: FastifyReply,
    ctx: ProjectContext,
    origin: string,
    client: OAuthClientRecord,
    authorize: AuthorizeRequest,
    hidden: Record<string, string>,
    ticketAad: string,
    user: { id: string; email: string },
  ): Promise<void> {
    if (await this.oauth.hasConsent(ctx, user.id, client.id)) {
      return this.redirect(reply, await this.oauth.approve(ctx, origin, user.id, client, authorize));
    }
    this.page(reply, 200, {
      ...(await this.common(ctx, client, authorize)),
      step: 'consent',
      signedInAs: user.email,
      hidden: { ...hidden, ticket: this.seal(ctx, 'ticket', { id: user.id, email: user.email }, ticketAad) },
    });
  }

  /**
   * Mails a sign-in link to this host's own magic page and keeps the request in this browser
   * (sealed, bound to its CSRF cookie) for when the link is opened. The answer is the same whether
   * or not the address has an account.
   */
  private async mailLink(
    reply: FastifyReply,
    ctx: ProjectContext,
    request: ProjectRequest,
    origin: string,
    client: OAuthClientRecord,
    authorize: AuthorizeRequest,
    form: Record<string, unknown>,
    hidden: Record<string, string>,
    cookie: string,
  ): Promise<void> {
    const email = typeof form.email === 'string' ? form.email.slice(0, 320) : '';
    let sent: string;
    try {
      if (!ctx.auth.emailPassword)
        throw new AuthError(AuthErrorCode.EmailPasswordDisabled, undefined, { status: 403 });
      const meta = this.meta(request);
      await this.limits.consumeIp('mail', ctx.project.id, meta.ip);
      const input = validateUserInput(MagicLinkQueryDto, { email: form.email }, 'query');
      ({ message: sent } = await this.mailCodes.mailMagicLinkTo(
        ctx,
        input.email,
        `${origin}${MAGIC_PATH}`,
        meta,
      ));
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return this.signInAgain(reply, ctx, client, authorize, hidden, error, email);
    }
    this.keepPending(ctx, reply, authorize, cookie);
    this.page(reply, 200, {
      ...(await this.common(ctx, client, authorize)),
      step: 'sign-in',
      hidden,
      notice: `${sent} Open the link in this browser within 15 minutes to continue.`,
      email,
    });
  }

  /**
   * Sends the browser to the project's identity provider (through the callback's host, which binds
   * the sign-in to it) and keeps the request in this browser as the magic link does. The provider's
   * callback hands the user back to `/oauth/authorize/idp` with a code bound to this CSRF cookie.
   */
  private async idpSignIn(
    reply: FastifyReply,
    ctx: ProjectContext,
    request: ProjectRequest,
    origin: string,
    client: OAuthClientRecord,
    authorize: AuthorizeRequest,
    hidden: Record<string, string>,
    cookie: string,
  ): Promise<void> {
    let location: string;
    try {
      await this.limits.consumeIp('login', ctx.project.id, this.meta(request).ip);
      location = await this.idp.startForConsent(ctx, origin, cookie);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return this.signInAgain(reply, ctx, client, authorize, hidden, error, '');
    }
    this.keepPending(ctx, reply, authorize, cookie);
    return this.redirect(reply, location);
  }

  /** The request waits in this browser, sealed and bound to its CSRF cookie, for 15 minutes. */
  private keepPending(
    ctx: ProjectContext,
    reply: FastifyReply,
    authorize: AuthorizeRequest,
    cookie: string,
  ): void {
    const secure = ctx.publicUrl.startsWith('https:') ? '; Secure' : '';
    void reply.header(
      'set-cookie',
      `${this.cookieName(ctx, 'pending')}=${this.seal(ctx, 'pending', authorize, cookie)}; Path=/oauth/authorize; HttpOnly; SameSite=Lax; Max-Age=${FORM_TTL_MS / 1000}${secure}`,
    );
  }

  private forgetPending(ctx: ProjectContext, reply: FastifyReply): void {
    const secure = ctx.publicUrl.startsWith('https:') ? '; Secure' : '';
    void reply.header(
      'set-cookie',
      `${this.cookieName(ctx, 'pending')}=; Path=/oauth/authorize; HttpOnly; SameSite=Lax; Max-Age=0${secure}`,
    );
  }

  /** The sign-in step again, saying what went wrong, with the email kept. */
  private async signInAgain(
    reply: FastifyReply,
    ctx: ProjectContext,
    client: OAuthClientRecord,
    authorize: AuthorizeRequest,
    hidden: Record<string, string>,
    error: AuthError,
    email: unknown,
  ): Promise<void> {
    return this.page(reply, error.status ?? 400, {
      ...(await this.common(ctx, client, authorize)),
      step: 'sign-in',
      hidden,
      error: messageOf(error),
      email: typeof email === 'string' ? email.slice(0, 320) : '',
    });
  }

  private async common(ctx: ProjectContext, client: OAuthClientRecord, authorize: AuthorizeRequest) {
    const target = new URL(authorize.redirectUri);
    const idp = await this.idp.consentOption(ctx);
    return {
      projectName: ctx.project.name ?? ctx.project.slug,
      clientName: client.name ?? 'An application',
      returnsTo:
        target.protocol === 'http:' || target.protocol === 'https:'
          ? target.host
          : target.protocol.slice(0, -1),
      ...(client.kind === 'metadata-document' ? { publishedBy: new URL(client.id).host } : {}),
      allowSignups: ctx.auth.allowSignups,
      magicLink: ctx.auth.emailPassword,
      emailPassword: ctx.auth.emailPassword,
      redirectUri: authorize.redirectUri,
      ...(idp ? { idp: idp.name, formOrigins: idp.origins } : {}),
    };
  }

  private page(
    reply: FastifyReply,
    status: number,
    view: ConsentView & { hidden: Record<string, unknown>; redirectUri?: string; formOrigins?: string[] },
  ): void {
    const hidden = Object.fromEntries(Object.entries(view.hidden).map(([k, v]) => [k, String(v)]));
    void reply
      .status(status)
      // Only the sign-in step's forms lead through the identity provider.
      .headers(pageHeaders(view.redirectUri, view.step === 'sign-in' ? view.formOrigins : undefined))
      .type('text/html; charset=utf-8')
      .send(consentPage({ ...view, hidden }));
  }

  /** MCP or sign-in off for the project: answers the page that says so, and returns true. */
  private answeredClosed(reply: FastifyReply, ctx: ProjectContext): boolean {
    if (mcpIsOff(ctx)) this.unavailable(reply, ctx, 404, `${MCP_OFF_MESSAGE}.`);
    else if (!ctx.auth.enabled) this.unavailable(reply, ctx, 404, 'Sign-in is off for this project.');
    else return false;
    return true;
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

  private cookieName(ctx: ProjectContext, which: 'csrf' | 'pending' = 'csrf'): string {
    // __Host-: only this exact host can set it (no sibling project host can plant one). The
    // pending request's cookie has a path, so it cannot be __Host-; it is sealed and bound to the
    // CSRF cookie instead, so a planted one opens nothing.
    const name = `mcp_${which}`;
    return ctx.publicUrl.startsWith('https:')
      ? which === 'csrf'
        ? `__Host-${name}`
        : `__Secure-${name}`
      : name;
  }

  private readCookie(
    ctx: ProjectContext,
    request: ProjectRequest,
    which: 'csrf' | 'pending' = 'csrf',
  ): string | undefined {
    const name = this.cookieName(ctx, which);
    const header = request.headers.cookie ?? '';
    for (const part of header.split(';')) {
      const [key, ...rest] = part.trim().split('=');
      if (key === name) {
        const value = rest.join('=');
        const shape = which === 'csrf' ? /^[A-Za-z0-9_-]{43}$/ : /^[A-Za-z0-9_-]{1,3800}$/;
        return shape.test(value) ? value : undefined;
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

  private seal(ctx: ProjectContext, what: Sealable, value: unknown, bind: string): string {
    const body: Sealed<unknown> = { value, exp: Date.now() + FORM_TTL_MS };
    return this.secrets.seal(
      'consent-seal',
      JSON.stringify(body),
      `consent-${what}:${ctx.project.id}:${bind}`,
    );
  }

  private open<T>(ctx: ProjectContext, what: Sealable, sealed: unknown, bind: string): T | undefined {
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
 * that client's origin (or app scheme) through, and with identity-provider sign-in the origins
 * that sign-in's redirects pass (the callback's host and the provider's authorization endpoint).
 */
function pageHeaders(redirectUri: string | undefined, formOrigins: string[] = []): Record<string, string> {
  const base = pageSecurityHeaders();
  let target = '';
  if (redirectUri) {
    const url = new URL(redirectUri);
    target = url.protocol === 'http:' || url.protocol === 'https:' ? ` ${url.origin}` : ` ${url.protocol}`;
  }
  for (const origin of formOrigins) target += ` ${origin}`;
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

/** What the consent page says when the identity provider's callback came back with `error`. */
function idpMessage(error: string): string {
  switch (error as IdpRedirectError) {
    case 'signup_disabled':
      return 'This project does not take new accounts.';
    case 'identity_not_linked':
      return 'An account with this email exists already, and the provider did not confirm the address: sign in another way.';
    case 'invalid_state':
      return 'Finish signing in in the browser where you started.';
    case 'idp_oauth_disabled':
    case 'idp_oauth_unconfigured':
      return 'Sign-in with the identity provider is off for this project.';
    case 'auth_disabled':
      return 'Sign-in is off for this project.';
    default:
      return 'Signing in with the identity provider did not work. Try again, or sign in another way.';
  }
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
