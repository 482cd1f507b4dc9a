import { Injectable } from '@nestjs/common';
import { AuthError } from '@suite/errors';
import { randomToken } from '@suite/project-runtime';
import type { ProjectContext } from '../../projects/project-context.js';
import type { ClientMeta } from '../../user-auth/tokens/token-pair.js';
import { MCP_OFF_MESSAGE, mcpIsOff } from '../mcp-switch.js';
import { csrfCookieHeader, pendingCookieHeader, readConsentCookie } from './consent-cookies.js';
import {
  authMessage,
  EXPIRED,
  FORGED,
  IDP_BAD,
  IDP_ELSEWHERE,
  idpMessage,
  MAGIC_BAD,
  MAGIC_ELSEWHERE,
  SIGN_IN_OFF,
} from './consent-messages.js';
import { IDP_UNDISCOVERED_FIELD, type ConsentView } from './consent-page.js';
import { ConsentSeals } from './consent-seals.js';
import { ConsentSignInService, type ConsentUser } from './consent-sign-in.service.js';
import { McpOAuthService, RedirectableError, type AuthorizeRequest } from './mcp-oauth.service.js';
import type { OAuthClientRecord } from './oauth-clients.js';
import { OAuthError } from './oauth-error.js';

/** What the controller read from the request. */
export interface ConsentInput {
  /** This host's origin as the client reached it (the issuer). */
  origin: string;
  /** The Cookie header. */
  cookies: string | undefined;
  /** The query (GET) or the form's fields (POST). */
  params: Record<string, unknown>;
  meta: ClientMeta;
}

/** What to answer: the page to render or where to send the browser (303), with the cookies to set. */
export type ConsentAnswer =
  | { kind: 'page'; status: number; view: ConsentView; setCookies: string[] }
  | { kind: 'redirect'; location: string; setCookies: string[] };

/** A checked authorization request in flight in this browser: what every step of the page goes on with. */
interface InFlight {
  client: OAuthClientRecord;
  authorize: AuthorizeRequest;
  /** The fields every form carries: the sealed request and the CSRF token. */
  hidden: Record<string, string>;
  /** What the sign-in ticket is bound to (the sealed request and the CSRF cookie). */
  ticketBinding: string;
  /** This browser's CSRF cookie. */
  browser: string;
}

type Opened = { ok: true; flight: InFlight } | { ok: false; answer: ConsentAnswer };

/**
 * The consent page's flow (`/oauth/authorize`). GET checks the request (an unknown client or a
 * redirect URI it did not register is shown, never redirected: no open redirect; other problems
 * go back to the client with `error`, `state` and `iss`) and shows the sign-in step; POST checks
 * the CSRF token, signs in or up (ConsentSignInService: the /api/user services, blocking hooks
 * awaited), then shows Allow / Deny unless the user approved this client before, and redirects
 * with a code.
 *
 * No session cookie: the checked request travels sealed in the forms, and after the sign-in a
 * sealed ticket (the user, bound to this request and this browser's CSRF cookie) replaces the
 * password. CSRF: a random cookie (HttpOnly, SameSite=Lax) and its HMAC in every form.
 *
 * A mailed link or the identity provider leaves the request pending in this browser, sealed in a
 * cookie bound to its CSRF cookie; their returns (`/oauth/authorize/magic`, `/oauth/authorize/idp`)
 * take the request from that cookie only. So a link or hand-back works only in the browser that
 * asked for it (someone who makes a victim's inbox receive a link cannot have the victim approve
 * the attacker's request), and the only place it leads is the consent step of the stored request.
 */
@Injectable()
export class ConsentService {
  constructor(
    private readonly oauth: McpOAuthService,
    private readonly signIn: ConsentSignInService,
    private readonly seals: ConsentSeals,
  ) {}

  /** GET /oauth/authorize: the request checked, the sign-in step (a CSRF cookie set when missing). */
  async show(ctx: ProjectContext, input: ConsentInput): Promise<ConsentAnswer> {
    if (mcpIsOff(ctx)) return unavailable(ctx, 404, `${MCP_OFF_MESSAGE}.`);
    const query = input.params;
    const existing = readConsentCookie(ctx.publicUrl, input.cookies, 'csrf');
    const browser = existing ?? randomToken();
    const setCookies = existing ? [] : [csrfCookieHeader(ctx.publicUrl, browser)];
    if (!ctx.auth.enabled) return unavailable(ctx, 404, SIGN_IN_OFF, setCookies);
    let client: OAuthClientRecord;
    let authorize: AuthorizeRequest;
    try {
      const known = await this.oauth.clientOf(ctx, query);
      client = known.client;
      try {
        authorize = this.oauth.authorizeRequest(input.origin, client, known.redirectUri, query);
      } catch (error) {
        if (!(error instanceof RedirectableError)) throw error;
        const state = typeof query.state === 'string' ? query.state : null;
        const location = this.oauth.redirect(
          input.origin,
          { redirectUri: known.redirectUri, state },
          { error: error.error, error_description: error.description },
        );
        return { kind: 'redirect', location, setCookies };
      }
    } catch (error) {
      if (error instanceof OAuthError) return unavailable(ctx, 400, error.description, setCookies);
      throw error;
    }
    const flight = this.inFlight(
      ctx,
      client,
      authorize,
      this.seals.seal(ctx, 'request', authorize, ''),
      browser,
    );
    return this.signInPage(ctx, flight, 200, {}, setCookies);
  }

  /** POST /oauth/authorize: one of the page's forms (sign in or up, mail a link, the provider, allow, deny). */
  async decide(ctx: ProjectContext, input: ConsentInput): Promise<ConsentAnswer> {
    const form = input.params;
    if (mcpIsOff(ctx)) return unavailable(ctx, 404, `${MCP_OFF_MESSAGE}.`);
    const browser = readConsentCookie(ctx.publicUrl, input.cookies, 'csrf');
    if (!this.seals.csrfMatches(ctx, browser, form.csrf)) return unavailable(ctx, 403, FORGED);
    if (!ctx.auth.enabled) return unavailable(ctx, 404, SIGN_IN_OFF);
    const sealedRequest = typeof form.request === 'string' ? form.request : '';
    const authorize = this.seals.open<AuthorizeRequest>(ctx, 'request', sealedRequest, '');
    if (!authorize) return unavailable(ctx, 400, EXPIRED);
    const opened = await this.stillRegistered(ctx, authorize, (client) =>
      this.inFlight(ctx, client, authorize, sealedRequest, browser),
    );
    if (!opened.ok) return opened.answer;
    const { flight } = opened;

    switch (form.action) {
      case 'deny':
        return redirect(
          this.oauth.redirect(input.origin, authorize, {
            error: 'access_denied',
            error_description: 'The user declined',
          }),
        );
      case 'allow': {
        const user = this.seals.open<ConsentUser>(ctx, 'ticket', form.ticket, flight.ticketBinding);
        if (!user) return unavailable(ctx, 400, EXPIRED);
        return redirect(await this.oauth.approve(ctx, input.origin, user.id, flight.client, authorize));
      }
      case 'magic-link':
        return this.mailLink(ctx, input, flight);
      case 'idp':
        return this.startIdp(ctx, input, flight);
      case 'signin':
      case 'signup': {
        let user: ConsentUser;
        try {
          user = await this.signIn.password(ctx, form.action, form, input.meta);
        } catch (error) {
          if (!(error instanceof AuthError)) throw error;
          return this.signInPage(ctx, flight, error.status ?? 400, refusal(error, form.email));
        }
        return this.signedIn(ctx, input.origin, flight, user);
      }
      default:
        return unavailable(ctx, 400, 'Unknown action.');
    }
  }

  /**
   * GET /oauth/authorize/magic: a mailed sign-in link of the consent page. The request comes from
   * this browser's pending cookie only (nothing in the link or the query can name another). Without
   * it the code is not spent: the link still works in the browser that asked for it.
   */
  async magicLinkReturn(ctx: ProjectContext, input: ConsentInput): Promise<ConsentAnswer> {
    const closed = closedPage(ctx);
    if (closed) return closed;
    if (!ctx.auth.emailPassword) return unavailable(ctx, 403, 'Sign-in by email is off for this project.');
    const opened = await this.pending(ctx, input, MAGIC_ELSEWHERE);
    if (!opened.ok) return opened.answer;
    let user: ConsentUser;
    try {
      user = await this.signIn.magicLink(ctx, input.params.code, input.meta);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      const limited = error.status === 429;
      return this.signInPage(ctx, opened.flight, limited ? 429 : 400, {
        error: limited ? authMessage(error) : MAGIC_BAD,
      });
    }
    return this.pendingSignedIn(ctx, input, opened.flight, user);
  }

  /**
   * GET /oauth/authorize/idp: where the identity provider's callback hands a consent-page sign-in
   * back (a single-use code, minted for this project and this browser's CSRF cookie) or says why
   * it failed. The request comes from this browser's pending cookie only, as for the magic link.
   */
  async idpReturn(ctx: ProjectContext, input: ConsentInput): Promise<ConsentAnswer> {
    const closed = closedPage(ctx);
    if (closed) return closed;
    const opened = await this.pending(ctx, input, IDP_ELSEWHERE);
    if (!opened.ok) return opened.answer;
    const failed = typeof input.params.error === 'string' ? input.params.error : undefined;
    const user = failed
      ? undefined
      : await this.signIn.redeemIdp(ctx, input.params.code, opened.flight.browser);
    if (!user) {
      return this.signInPage(ctx, opened.flight, failed === 'signup_disabled' ? 403 : 400, {
        error: failed ? idpMessage(failed) : IDP_BAD,
      });
    }
    return this.pendingSignedIn(ctx, input, opened.flight, user);
  }

  /**
   * Mails a sign-in link to this host's own magic page and keeps the request pending in this
   * browser. The answer is the same whether or not the address has an account.
   */
  private async mailLink(ctx: ProjectContext, input: ConsentInput, flight: InFlight): Promise<ConsentAnswer> {
    const email = typeof input.params.email === 'string' ? input.params.email.slice(0, 320) : '';
    let sent: string;
    try {
      sent = await this.signIn.mailLink(ctx, input.origin, input.params.email, input.meta);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return this.signInPage(ctx, flight, error.status ?? 400, refusal(error, email));
    }
    return this.signInPage(
      ctx,
      flight,
      200,
      { notice: `${sent} Open the link in this browser within 15 minutes to continue.`, email },
      [this.keepPending(ctx, flight)],
    );
  }

  /**
   * Sends the browser to the identity provider (through the callback's host, which binds the
   * sign-in to it) and keeps the request pending in this browser as the magic link does. When the
   * page could not name the provider in its form-action (discovery was slow when it rendered), a
   * redirect there would be blocked by the page policy: a page goes on to it instead.
   */
  private async startIdp(ctx: ProjectContext, input: ConsentInput, flight: InFlight): Promise<ConsentAnswer> {
    let location: string;
    try {
      location = await this.signIn.startIdp(ctx, input.origin, flight.browser, input.meta);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return this.signInPage(ctx, flight, error.status ?? 400, refusal(error, ''));
    }
    const setCookies = [this.keepPending(ctx, flight)];
    const elsewhere = new URL(location).origin !== input.origin;
    if (input.params[IDP_UNDISCOVERED_FIELD] === '1' && elsewhere) {
      const view = await this.common(ctx, flight);
      return page(200, { ...view, step: 'continue', continueTo: location, hidden: {} }, setCookies);
    }
    return redirect(location, setCookies);
  }

  /** After any sign-in: straight back to the client when the user approved it before, else Allow / Deny. */
  private async signedIn(
    ctx: ProjectContext,
    origin: string,
    flight: InFlight,
    user: ConsentUser,
    setCookies: string[] = [],
  ): Promise<ConsentAnswer> {
    if (await this.oauth.hasConsent(ctx, user.id, flight.client.id)) {
      return redirect(
        await this.oauth.approve(ctx, origin, user.id, flight.client, flight.authorize),
        setCookies,
      );
    }
    const ticket = this.seals.seal(ctx, 'ticket', { id: user.id, email: user.email }, flight.ticketBinding);
    return page(
      200,
      {
        ...(await this.common(ctx, flight)),
        step: 'consent',
        signedInAs: user.email,
        hidden: { ...flight.hidden, ticket },
      },
      setCookies,
    );
  }

  /** Signed in for the pending request: the pending cookie goes, and on as after any sign-in. */
  private pendingSignedIn(
    ctx: ProjectContext,
    input: ConsentInput,
    flight: InFlight,
    user: ConsentUser,
  ): Promise<ConsentAnswer> {
    return this.signedIn(ctx, input.origin, flight, user, [pendingCookieHeader(ctx.publicUrl, null)]);
  }

  /** The request this browser left pending (magic link, identity provider), or the page saying why not. */
  private async pending(ctx: ProjectContext, input: ConsentInput, elsewhere: string): Promise<Opened> {
    const browser = readConsentCookie(ctx.publicUrl, input.cookies, 'csrf');
    const authorize = browser
      ? this.seals.open<AuthorizeRequest>(
          ctx,
          'pending',
          readConsentCookie(ctx.publicUrl, input.cookies, 'pending'),
          browser,
        )
      : undefined;
    if (!browser || !authorize) return { ok: false, answer: unavailable(ctx, 400, elsewhere) };
    return this.stillRegistered(ctx, authorize, (client) =>
      this.inFlight(ctx, client, authorize, this.seals.seal(ctx, 'request', authorize, ''), browser),
    );
  }

  /** The request's client as it is now (it may have been removed, or its document changed, since). */
  private async stillRegistered(
    ctx: ProjectContext,
    authorize: AuthorizeRequest,
    flight: (client: OAuthClientRecord) => InFlight,
  ): Promise<Opened> {
    try {
      const { client } = await this.oauth.clientOf(ctx, {
        client_id: authorize.clientId,
        redirect_uri: authorize.redirectUri,
      });
      return { ok: true, flight: flight(client) };
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      // A metadata document may have changed or gone since the page was shown: say why.
      const why =
        error.error === 'invalid_client' && error.description.startsWith('The client')
          ? ` ${error.description}`
          : '';
      return { ok: false, answer: unavailable(ctx, 400, `This application is no longer registered.${why}`) };
    }
  }

  private inFlight(
    ctx: ProjectContext,
    client: OAuthClientRecord,
    authorize: AuthorizeRequest,
    sealedRequest: string,
    browser: string,
  ): InFlight {
    return {
      client,
      authorize,
      hidden: { request: sealedRequest, csrf: this.seals.csrfToken(ctx, browser) },
      ticketBinding: this.seals.ticketBinding(sealedRequest, browser),
      browser,
    };
  }

  /** Set-Cookie keeping the request in this browser, sealed and bound to its CSRF cookie. */
  private keepPending(ctx: ProjectContext, flight: InFlight): string {
    return pendingCookieHeader(
      ctx.publicUrl,
      this.seals.seal(ctx, 'pending', flight.authorize, flight.browser),
    );
  }

  /** The sign-in step, with what went wrong or happened (and the email kept). */
  private async signInPage(
    ctx: ProjectContext,
    flight: InFlight,
    status: number,
    said: Pick<ConsentView, 'error' | 'notice' | 'email'>,
    setCookies: string[] = [],
  ): Promise<ConsentAnswer> {
    return page(
      status,
      { ...(await this.common(ctx, flight)), ...said, step: 'sign-in', hidden: flight.hidden },
      setCookies,
    );
  }

  /** What every step of the page shows: who asks, where the browser goes back to, how one signs in. */
  private async common(ctx: ProjectContext, { client, authorize }: InFlight) {
    const target = new URL(authorize.redirectUri);
    const idp = await this.signIn.idpOption(ctx);
    return {
      projectName: projectName(ctx),
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
      ...(idp ? { idp: { name: idp.name, discovered: idp.discovered }, formOrigins: idp.origins } : {}),
    };
  }
}

function page(status: number, view: ConsentView, setCookies: string[] = []): ConsentAnswer {
  return { kind: 'page', status, view, setCookies };
}

function redirect(location: string, setCookies: string[] = []): ConsentAnswer {
  return { kind: 'redirect', location, setCookies };
}

function projectName(ctx: ProjectContext): string {
  return ctx.project.name ?? ctx.project.slug;
}

/** A page that says the flow cannot go on here, and why. */
function unavailable(
  ctx: ProjectContext,
  status: number,
  message: string,
  setCookies: string[] = [],
): ConsentAnswer {
  return page(
    status,
    {
      projectName: projectName(ctx),
      clientName: '',
      returnsTo: '',
      step: 'unavailable',
      error: message,
      hidden: {},
    },
    setCookies,
  );
}

/** MCP or sign-in off for the project: the page that says so. */
function closedPage(ctx: ProjectContext): ConsentAnswer | undefined {
  if (mcpIsOff(ctx)) return unavailable(ctx, 404, `${MCP_OFF_MESSAGE}.`);
  if (!ctx.auth.enabled) return unavailable(ctx, 404, SIGN_IN_OFF);
  return undefined;
}

function refusal(error: AuthError, email: unknown): Pick<ConsentView, 'error' | 'email'> {
  return { error: authMessage(error), email: typeof email === 'string' ? email.slice(0, 320) : '' };
}
