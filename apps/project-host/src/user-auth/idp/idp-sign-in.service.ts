import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { authOutcomes } from '@suite/telemetry';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import {
  AuthEventsPublisher,
  type AuthEvent,
  type UserSnapshot,
} from '../../events/auth-events.publisher.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { ProjectResolver } from '../../projects/project-resolver.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import { randomToken, sha256Hex } from '@suite/project-runtime';
import { AuthRateLimits } from '../limits/auth-rate-limits.js';
import { assertRedirectUri, withQuery } from '../redirect-uri.js';
import { AuthStores, DuplicateRecord } from '../store/auth-store.js';
import { RefreshSessions } from '../tokens/refresh-sessions.js';
import type { ClientMeta, TokenPair } from '../tokens/token-pair.js';
import { snapshotOf, tokenUserOf } from '../user-snapshot.js';
import { AccountClaims } from '../services/account-claim.js';
import type { SignedIn } from '../services/password-auth.service.js';
import { IDP_CLIENT_RESOLVER, type IdpClient, type IdpClientResolver } from './idp-client.resolver.js';
import { hashOf, IdpStateStore, type PendingSignIn } from './idp-state.store.js';
import { OidcClients, type IdpIdentity } from './oidc-clients.js';

/**
 * The `error` query a failed callback redirects to redirect_uri with (never a 500 once the state
 * named a project and its redirect_uri).
 */
export type IdpRedirectError =
  | 'idp_oauth_failed'
  | 'invalid_state'
  | 'signup_disabled'
  | 'identity_not_linked'
  | 'idp_oauth_disabled'
  | 'idp_oauth_unconfigured'
  | 'auth_disabled';

type SignInResult =
  | {
      ok: true;
      /** None for the consent page's sign-in. */
      pair: TokenPair | undefined;
      user: UserSnapshot;
      created: boolean;
      updated: boolean;
      /** The account's address had never been proven: it now belongs to this provider account. */
      claimed?: boolean;
    }
  | { ok: false; error: IdpRedirectError; reason: string; user: UserSnapshot | null };

/** Starts the signed-in user's /api/user session in the sign-in's transaction (or none). */
type StartSession = SignedIn<TokenPair | undefined>;

/**
 * How long the consent page waits for the provider's discovery (when not cached) before it renders
 * without it: the page never waits out a slow provider's 10 s discovery timeout.
 */
export const CONSENT_DISCOVERY_BUDGET_MS = 1_500;

/** How the consent page offers identity-provider sign-in. */
export interface ConsentIdpOption {
  /** The provider's name on the button (its issuer's host). */
  name: string;
  /** The origins the sign-in's redirects pass, as far as known (form-action lets them through). */
  origins: string[];
  /** False: discovery did not answer within the budget, so the provider's origin is not among `origins`. */
  discovered: boolean;
}

/** Where the provider's callback hands a consent page's sign-in back to, on the project host. */
export const IDP_CONSENT_PATH = '/oauth/authorize/idp';

/** The authorized redirect URI of every project (Platform and Custom mode alike). */
export function idpCallbackUri(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/internal/auth/idp/callback`;
}

/** Where the start route hands the browser to, on the callback's host, to bind the state to it. */
export function idpHopUri(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/internal/auth/idp/start`;
}

/**
 * Identity-provider sign-in: the start route sends the browser to the provider with a server-side
 * state; the callback (on the PUBLIC_URL host, shared by every project) finds the project and the
 * caller's redirect_uri again from that state, exchanges the code, signs the user in (keyed by
 * issuer and subject) and redirects with the token pair.
 */
@Injectable()
export class IdpSignInService {
  private readonly logger = new Logger('idp');
  private readonly callbackUri: string;
  private readonly hopUri: string;

  constructor(
    @Inject(IDP_CLIENT_RESOLVER) private readonly clients: IdpClientResolver,
    private readonly oidc: OidcClients,
    private readonly states: IdpStateStore,
    private readonly projects: ProjectResolver,
    private readonly stores: AuthStores,
    private readonly sessions: RefreshSessions,
    private readonly limits: AuthRateLimits,
    private readonly events: AuthEventsPublisher,
    private readonly claims: AccountClaims,
    @Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig,
  ) {
    this.callbackUri = idpCallbackUri(config.PUBLIC_URL);
    this.hopUri = idpHopUri(config.PUBLIC_URL);
  }

  /** GET /api/user/auth/idp: where to send the browser. Fires no hook (spec). */
  async start(ctx: ProjectContext, query: unknown): Promise<string> {
    const client = this.clientOf(ctx);
    const raw = (query as Record<string, unknown> | undefined)?.redirect_uri;
    const redirectUri = assertRedirectUri(
      typeof raw === 'string' ? raw : '',
      ctx.hosts,
      ctx.auth.redirectSchemes,
    );
    return this.begin(ctx, client, { redirectUri });
  }

  /**
   * What the MCP consent page needs to offer this sign-in: the provider's name and the origins the
   * browser passes through (the callback's host and the provider's authorization endpoint; its
   * form-action must let them through, as Chromium checks every redirect of a form's answer).
   * Undefined when the project has no usable provider (Off, keys missing, discovery failing).
   *
   * Discovery (cached) is waited for `budgetMs` at most, so a slow provider never holds the page:
   * past the budget the button is offered anyway (`discovered: false`, the provider's origin not
   * yet known) and discovery goes on in the background; the press resolves it (`startForConsent`).
   */
  async consentOption(
    ctx: ProjectContext,
    budgetMs = CONSENT_DISCOVERY_BUDGET_MS,
  ): Promise<ConsentIdpOption | undefined> {
    const resolution = this.clients.resolve(ctx);
    if (!resolution.ok) return undefined;
    const name = new URL(resolution.client.issuerUrl).host;
    const hop = new URL(this.hopUri).origin;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), budgetMs);
    });
    try {
      const provider = await Promise.race([this.oidc.authorizationOrigin(resolution.client), late]);
      if (provider === undefined) return { name, origins: [hop], discovered: false };
      return { name, origins: [hop, provider], discovered: true };
    } catch (error) {
      this.logger.warn({ err: error, projectId: ctx.project.id }, 'identity-provider discovery failed');
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The consent page's sign-in: like `start`, but the callback hands the user back to `returnTo`
   * (the consent page's own origin, which the host guard resolved to this project) through a
   * single-use code bound to `browser` (the consent page's CSRF cookie), and mints no tokens.
   */
  async startForConsent(ctx: ProjectContext, returnTo: string, browser: string): Promise<string> {
    const client = this.clientOf(ctx);
    return this.begin(ctx, client, {
      redirectUri: `${returnTo}${IDP_CONSENT_PATH}`,
      purpose: 'consent',
      browser: sha256Hex(browser),
    });
  }

  /**
   * The user a consent sign-in handed back with `code`: once (any presentation spends it), for
   * this project only, and only in the browser whose consent page started it.
   */
  async redeemForConsent(
    ctx: ProjectContext,
    code: unknown,
    browser: string,
  ): Promise<{ id: string; email: string } | undefined> {
    const handback = await this.states.takeHandback(code);
    if (!handback || handback.projectId !== ctx.project.id || !hashOf(browser, handback.browser)) {
      return undefined;
    }
    // The account as it is now (deleted or moved to another address since: no sign-in).
    const row = await this.stores.of(ctx).users.findById(handback.user.id);
    return row && row.email === handback.user.email ? { id: row.id, email: row.email } : undefined;
  }

  private async begin(
    ctx: ProjectContext,
    client: IdpClient,
    target: Pick<PendingSignIn, 'redirectUri' | 'purpose' | 'browser'>,
  ): Promise<string> {
    const state = randomToken();
    let authorization;
    try {
      authorization = await this.oidc.authorizationUrl(client, this.callbackUri, state);
    } catch (error) {
      this.logger.warn({ err: error, projectId: ctx.project.id }, 'identity-provider discovery failed');
      return withQuery(target.redirectUri, { error: 'idp_oauth_failed' });
    }
    await this.states.save(state, {
      projectId: ctx.project.id,
      projectHost: ctx.hosts[0]!,
      ...target,
      ...authorization.checks,
    });
    // The browser goes to the provider through the callback's host, which binds the state to it
    // (a cookie there), so a callback URL made in another browser cannot sign this one in.
    const hop = randomToken();
    await this.states.saveHop(hop, { state, authorizationUrl: authorization.url });
    return `${this.hopUri}?${new URLSearchParams({ hop }).toString()}`;
  }

  /**
   * GET /internal/auth/idp/start on the callback's host: binds the sign-in's state to this browser
   * (`browserKey`, a fresh key for the binding cookie of this sign-in: never one the browser
   * brought, which a sibling host may have planted) and sends it on to the provider. A hand-off
   * is used once; whoever follows it is the browser bound.
   */
  async hop(
    query: Record<string, unknown>,
  ): Promise<{ location: string; state: string; browserKey: string }> {
    const pending = await this.states.takeHop(query.hop);
    if (!pending) {
      throw new AuthError(
        AuthErrorCode.InvalidRequest,
        'This sign-in is unknown, expired or already started: start it again.',
        { status: 400 },
      );
    }
    const browserKey = randomToken();
    await this.states.bind(pending.state, browserKey);
    return { location: pending.authorizationUrl, state: pending.state, browserKey };
  }

  /** GET /internal/auth/idp/callback: where to send the browser back to. */
  async callback(
    query: Record<string, unknown>,
    rawQuery: string,
    meta: ClientMeta,
    browserKey: string | undefined,
  ): Promise<string> {
    const pending = await this.states.consume(query.state);
    if (!pending) {
      throw new AuthError(
        AuthErrorCode.InvalidRequest,
        'This sign-in is unknown, expired or already used: start it again.',
        { status: 400 },
      );
    }
    const fail = (error: IdpRedirectError): string => {
      authOutcomes.inc({ action: 'idp', outcome: error });
      return withQuery(pending.redirectUri, { error });
    };
    // Sign-in CSRF: a callback URL that another browser started (an attacker's own sign-in, sent to
    // the victim) would sign this browser into that account. No tokens, no hook (a validation gate).
    if (!(await this.states.takeBinding(query.state as string, browserKey))) {
      this.logger.warn({ projectId: pending.projectId }, 'identity-provider callback from another browser');
      return fail('invalid_state');
    }
    const resolved = await this.projects.resolve(pending.projectHost);
    if (resolved.kind !== 'project' || resolved.context.project.id !== pending.projectId) {
      return fail('idp_oauth_failed');
    }
    const ctx = resolved.context;
    if (!ctx.auth.enabled) return fail('auth_disabled');
    const resolution = this.clients.resolve(ctx);
    if (!resolution.ok) {
      return fail(resolution.reason === 'disabled' ? 'idp_oauth_disabled' : 'idp_oauth_unconfigured');
    }
    await this.limits.consumeIp('callback', ctx.project.id, meta.ip);

    let identity: IdpIdentity;
    try {
      if (typeof query.error === 'string') throw new Error(`the provider answered error=${query.error}`);
      const callbackUrl = new URL(this.callbackUri);
      callbackUrl.search = rawQuery;
      identity = await this.oidc.exchange(resolution.client, callbackUrl, this.callbackUri, pending);
    } catch (error) {
      this.logger.warn({ err: error, projectId: ctx.project.id }, 'identity-provider sign-in failed');
      await this.publish(ctx, [{ kind: 'auth.failed', reason: 'idp_oauth_failed', user: null }]);
      return fail('idp_oauth_failed');
    }

    // The consent page's sign-in starts no /api/user session: the grant is the consent page's.
    const session: StartSession =
      pending.purpose === 'consent'
        ? () => Promise.resolve(undefined)
        : (tx, user) => this.sessions.start(ctx, tx, user, meta);
    let result: SignInResult;
    try {
      result = await this.signIn(ctx, identity, session).catch((error: unknown) => {
        // Two first sign-ins of one account raced: the second finds the first one's rows.
        if (error instanceof DuplicateRecord) return this.signIn(ctx, identity, session);
        throw error;
      });
    } catch (error) {
      this.logger.error({ err: error, projectId: ctx.project.id }, 'identity-provider sign-in failed');
      await this.publish(ctx, [{ kind: 'auth.failed', reason: 'idp_oauth_failed', user: null }]);
      return fail('idp_oauth_failed');
    }
    if (!result.ok) {
      await this.publish(ctx, [{ kind: 'auth.failed', reason: result.reason, user: result.user }]);
      return fail(result.error);
    }
    const { user } = result;
    if (result.claimed) await this.sessions.signedOutEverywhere(ctx, user.id);
    await this.publish(ctx, [
      ...(result.created ? [{ kind: 'user.created' as const, user }] : []),
      ...(result.updated
        ? [{ kind: 'user.updated' as const, user, ...(result.claimed ? { claimed: true } : {}) }]
        : []),
      { kind: 'user.signed_in', user },
    ]);
    authOutcomes.inc({ action: 'idp', outcome: 'success' });
    if (pending.purpose === 'consent') {
      // Back to the consent page with a code for this user, this project and that browser only.
      const code = randomToken();
      await this.states.saveHandback(code, {
        projectId: ctx.project.id,
        browser: pending.browser ?? '',
        user: { id: user.id, email: user.email },
      });
      return withQuery(pending.redirectUri, { code });
    }
    const { accessToken, refreshToken } = result.pair!;
    return withQuery(pending.redirectUri, { accessToken, refreshToken });
  }

  private clientOf(ctx: ProjectContext): IdpClient {
    const resolution = this.clients.resolve(ctx);
    if (resolution.ok) return resolution.client;
    throw resolution.reason === 'disabled'
      ? new AuthError(AuthErrorCode.IdpOauthDisabled, undefined, { status: 503 })
      : new AuthError(AuthErrorCode.IdpOauthUnconfigured, undefined, { status: 503 });
  }

  /**
   * Users are keyed by issuer and subject. A first sign-in with the email of an existing account
   * links to it only when the provider says the email is verified; otherwise a new email signs up
   * (when signups are on). The picture is refreshed every time.
   */
  private signIn(ctx: ProjectContext, identity: IdpIdentity, session: StartSession): Promise<SignInResult> {
    const { issuer, subject } = identity;
    return this.stores.of(ctx).transaction(async (tx): Promise<SignInResult> => {
      const picture = identity.picture ?? null;
      const linked = await tx.identities.findLinked(issuer, subject);
      if (linked) {
        const changes: { name?: string; picture?: string | null } = {};
        if (identity.name && identity.name !== linked.user.name) changes.name = identity.name;
        if (picture !== linked.user.picture) changes.picture = picture;
        const updated = Object.keys(changes).length > 0;
        // The provider now vouches for the account's own address: it is proven (not a profile
        // change the hooks hear of; the same provider account set the account up).
        const proves =
          identity.emailVerified && identity.email === linked.user.email && !linked.user.emailVerified;
        const row =
          updated || proves
            ? await tx.users.update(linked.userId, { ...changes, ...(proves ? { emailVerified: true } : {}) })
            : linked.user;
        if (identity.email && identity.email !== linked.email) {
          await tx.identities.updateEmail(linked.id, identity.email);
        }
        return {
          ok: true,
          user: snapshotOf(row),
          created: false,
          updated,
          pair: await session(tx, tokenUserOf(row)),
        };
      }

      const email = identity.email;
      if (!email) return { ok: false, error: 'idp_oauth_failed', reason: 'idp_oauth_failed', user: null };
      const existing = await tx.users.findByEmail(email);
      if (existing) {
        // Linking on an unverified email would hand the account to whoever typed that address.
        if (!identity.emailVerified) {
          return {
            ok: false,
            error: 'identity_not_linked',
            reason: 'identity_already_exists',
            user: snapshotOf(existing),
          };
        }
        // The provider proved the address: an account whose address never was is claimed first
        // (whoever registered it loses its password, sessions and links), and only then linked.
        const { claimed } = await this.claims.proveAddress(tx, existing);
        await tx.identities.link({ userId: existing.id, issuer, subject, email });
        const row = await tx.users.update(existing.id, {
          picture,
          emailVerified: true,
          // A claimed account keeps nothing its previous holder chose, the name included.
          ...(claimed
            ? { name: identity.name ?? null }
            : identity.name && !existing.name
              ? { name: identity.name }
              : {}),
        });
        // A new subject on the user: user.updated (the spec's "idp_subject changed").
        return {
          ok: true,
          user: snapshotOf(row),
          created: false,
          updated: true,
          claimed,
          pair: await session(tx, tokenUserOf(row)),
        };
      }

      if (!ctx.auth.allowSignups) {
        return { ok: false, error: 'signup_disabled', reason: 'signup_disabled', user: null };
      }
      const row = await tx.users.create({
        email,
        name: identity.name ?? null,
        picture,
        emailVerified: identity.emailVerified,
        identity: { issuer, subject, email },
      });
      return {
        ok: true,
        user: snapshotOf(row),
        created: true,
        updated: false,
        pair: await session(tx, tokenUserOf(row)),
      };
    });
  }

  private async publish(ctx: ProjectContext, events: Omit<AuthEvent, 'at' | 'provider'>[]): Promise<void> {
    await this.events.publish(
      ctx.project.id,
      events.map((event) => ({ ...event, provider: 'idp' as const })),
    );
  }
}
