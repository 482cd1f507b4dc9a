import { Injectable } from '@nestjs/common';
import { sha256Hex } from '@suite/project-runtime';
import { createHash } from 'node:crypto';
import { AuthEventsPublisher } from '../../events/auth-events.publisher.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { AuthRateLimits } from '../../user-auth/limits/auth-rate-limits.js';
import { AuthStores } from '../../user-auth/store/auth-store.js';
import { RefreshSessions, type SessionKind } from '../../user-auth/tokens/refresh-sessions.js';
import type { ClientMeta } from '../../user-auth/tokens/token-pair.js';
import { tokenUserOf } from '../../user-auth/user-snapshot.js';
import { McpAccessTokens, type McpTokenBinding } from '../mcp-access-tokens.js';
import { AuthorizationCodes } from './authorization-codes.js';
import { OAuthClients, type OAuthClientRecord } from './oauth-clients.js';
import { OAuthError } from './oauth-error.js';
import { redirectUriMatches } from './redirect-uris.js';

/** An authorization request that passed every check: what the consent page carries along. */
export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  /** The RFC 8707 resource the token will be bound to: this host's `/mcp`. */
  resource: string;
  scope: string | null;
}

/** A problem with the request after client and redirect URI are known: told to the client by redirect. */
export class RedirectableError extends OAuthError {}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope?: string;
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const one = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The project host as the OAuth 2.1 authorization server of its own `/mcp` (the MCP authorization
 * spec 2025-11-25): authorization code with PKCE S256 only, exact redirect URIs (loopback ports
 * free), `iss` in every authorization response (RFC 9207), tokens bound to the resource (RFC
 * 8707). A grant is a session family in platform_auth.sessions with the client's id: its refresh
 * tokens rotate, and a reuse revokes the family, by the very code /api/user uses (RefreshSessions);
 * signing out everywhere, a password reset and an account claim revoke grants with the rest.
 *
 * Why not a library's server: the MCP SDK's `mcpAuthRouter` is Express middleware with one fixed
 * issuer per router, while a project host answers for many projects (issuer per Host) on Fastify,
 * and its provider interface would still need all of this behind it (storage, rotation, consent);
 * `oidc-provider` (Koa) would need one Provider per project, keeps grants and tokens in its own
 * adapter outside platform_auth (so the contract's reuse rule and sign-out-everywhere would live
 * twice), runs its own login session cookies, and knows no client ID metadata documents. Both are
 * used where they fit: the SDK's schemas check client metadata, its client drives the e2e specs.
 */
@Injectable()
export class McpOAuthService {
  constructor(
    private readonly clients: OAuthClients,
    private readonly codes: AuthorizationCodes,
    private readonly sessions: RefreshSessions,
    private readonly tokens: McpAccessTokens,
    private readonly stores: AuthStores,
    private readonly events: AuthEventsPublisher,
    private readonly limits: AuthRateLimits,
  ) {}

  /** The client and its redirect URI: until both are known good, errors are shown, never redirected. */
  async clientOf(
    ctx: ProjectContext,
    query: Record<string, unknown>,
  ): Promise<{ client: OAuthClientRecord; redirectUri: string }> {
    const client = await this.clients.resolve(ctx, query.client_id);
    if (!client)
      throw new OAuthError('invalid_client', 'This application is not registered with this project.');
    const redirectUri = one(query.redirect_uri);
    if (!redirectUri || !redirectUriMatches(client.redirectUris, redirectUri)) {
      throw new OAuthError('invalid_request', 'The redirect URI is not one this application registered.');
    }
    return { client, redirectUri };
  }

  /** The rest of the request (RFC 6749 §4.1.1 with PKCE and RFC 8707); errors go back to the client. */
  authorizeRequest(
    origin: string,
    client: OAuthClientRecord,
    redirectUri: string,
    query: Record<string, unknown>,
  ): AuthorizeRequest {
    const state = one(query.state) ?? null;
    const fail = (error: string, description: string) => new RedirectableError(error, description);
    if (query.response_type !== 'code') throw fail('unsupported_response_type', 'response_type must be code');
    const challenge = one(query.code_challenge);
    if (!challenge || query.code_challenge_method !== 'S256' || !CHALLENGE.test(challenge)) {
      throw fail('invalid_request', 'PKCE is required: code_challenge with code_challenge_method S256');
    }
    const resource = one(query.resource) ?? `${origin}/mcp`;
    if (!isOwnResource(origin, resource)) throw fail('invalid_target', `resource must be ${origin}/mcp`);
    const scope = one(query.scope)?.slice(0, 500) ?? null;
    return {
      clientId: client.id,
      redirectUri,
      state,
      codeChallenge: challenge,
      resource: `${origin}/mcp`,
      scope,
    };
  }

  /** Where the browser goes with an answer: the redirect URI with the result, `state` and `iss`. */
  redirect(
    origin: string,
    request: Pick<AuthorizeRequest, 'redirectUri' | 'state'>,
    result: Record<string, string>,
  ): string {
    const url = new URL(request.redirectUri);
    for (const [key, value] of Object.entries(result)) url.searchParams.set(key, value);
    if (request.state !== null) url.searchParams.set('state', request.state);
    url.searchParams.set('iss', origin);
    return url.toString();
  }

  async hasConsent(ctx: ProjectContext, userId: string, clientId: string): Promise<boolean> {
    const row = await ctx.tenant.oAuthConsent.findUnique({
      where: { userId_clientId: { userId, clientId } },
    });
    return row !== null;
  }

  /**
   * The user approved (now, or before): the client stored (a metadata-document one as its
   * document says now), consent remembered, a code issued, the redirect to follow.
   */
  async approve(
    ctx: ProjectContext,
    origin: string,
    userId: string,
    client: OAuthClientRecord,
    request: AuthorizeRequest,
  ): Promise<string> {
    await this.clients.remember(ctx, client);
    await ctx.tenant.oAuthConsent.upsert({
      where: { userId_clientId: { userId, clientId: request.clientId } },
      create: { userId, clientId: request.clientId },
      update: {},
    });
    const code = await this.codes.issue(ctx.project.id, {
      clientId: request.clientId,
      userId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      scope: request.scope,
    });
    return this.redirect(origin, request, { code });
  }

  /** POST /oauth/token: client authentication, then the grant. */
  async token(
    ctx: ProjectContext,
    origin: string,
    params: Record<string, unknown>,
    authorization: string | undefined,
    meta: ClientMeta,
  ): Promise<TokenResponse> {
    const client = await this.authenticate(ctx, params, authorization);
    if (params.grant_type === 'authorization_code')
      return this.exchangeCode(ctx, origin, client, params, meta);
    if (params.grant_type === 'refresh_token') return this.refresh(ctx, origin, client, params, meta);
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }

  private async authenticate(
    ctx: ProjectContext,
    params: Record<string, unknown>,
    authorization: string | undefined,
  ): Promise<OAuthClientRecord> {
    let id = one(params.client_id);
    let secret = one(params.client_secret);
    const basic = authorization && /^Basic\s+(\S+)$/i.exec(authorization)?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    }
    const client = await this.clients.find(ctx, id);
    if (!client || !this.clients.authenticates(client, secret)) {
      throw new OAuthError('invalid_client', 'Unknown client or wrong client credentials', 401);
    }
    return client;
  }

  private async exchangeCode(
    ctx: ProjectContext,
    origin: string,
    client: OAuthClientRecord,
    params: Record<string, unknown>,
    meta: ClientMeta,
  ): Promise<TokenResponse> {
    const code = one(params.code) ?? '';
    const { grant, replayOf } = await this.codes.take(ctx.project.id, code);
    if (!grant) {
      if (replayOf) {
        // A code used twice was stolen: what its first exchange issued stops working (RFC 6749 §4.1.2).
        const [familyId, userId] = replayOf.split(' ');
        if (familyId && userId) await this.sessions.revokeFamily(ctx, userId, familyId);
      }
      throw new OAuthError('invalid_grant', 'The authorization code is invalid, expired or used');
    }
    if (grant.clientId !== client.id)
      throw new OAuthError('invalid_grant', 'The code was issued to another client');
    if (one(params.redirect_uri) !== grant.redirectUri) {
      throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
    }
    const verifier = one(params.code_verifier);
    if (!verifier || !VERIFIER.test(verifier) || s256(verifier) !== grant.codeChallenge) {
      throw new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge');
    }
    const resource = one(params.resource);
    if (resource !== undefined && resource !== grant.resource) {
      throw new OAuthError('invalid_target', `resource must be ${grant.resource}`);
    }
    const store = this.stores.of(ctx);
    const user = await store.users.findById(grant.userId);
    if (!user) throw new OAuthError('invalid_grant', 'The user of this code no longer exists');
    let familyId = '';
    const kind = this.kindOf(client, { projectId: ctx.project.id, issuer: origin, resource: grant.resource });
    const pair = await this.sessions.start(ctx, store, tokenUserOf(user), meta, {
      ...kind,
      accessToken: (tokenUser, family) => {
        familyId = family;
        return kind.accessToken(tokenUser, family);
      },
    });
    await this.codes.used(ctx.project.id, code, `${familyId} ${user.id}`);
    return this.answer(pair, grant.scope);
  }

  private async refresh(
    ctx: ProjectContext,
    origin: string,
    client: OAuthClientRecord,
    params: Record<string, unknown>,
    meta: ClientMeta,
  ): Promise<TokenResponse> {
    const refreshToken = one(params.refresh_token) ?? '';
    const resource = one(params.resource);
    if (resource !== undefined && !isOwnResource(origin, resource)) {
      throw new OAuthError('invalid_target', `resource must be ${origin}/mcp`);
    }
    await this.limits.consumeAccount('refresh', ctx.project.id, sha256Hex(refreshToken));
    const binding = { projectId: ctx.project.id, issuer: origin, resource: `${origin}/mcp` };
    const outcome = await this.sessions.rotate(ctx, refreshToken, meta, this.kindOf(client, binding));
    if (outcome.ok) return this.answer(outcome.pair, one(params.scope) ?? null);
    await this.events.publish(ctx.project.id, [
      { kind: 'auth.failed', reason: 'refresh_rejected', user: outcome.user, provider: 'email' },
    ]);
    throw new OAuthError('invalid_grant', 'The refresh token is invalid, expired or revoked');
  }

  private kindOf(client: OAuthClientRecord, binding: McpTokenBinding): SessionKind {
    return {
      clientId: client.id,
      accessToken: async (user, familyId) =>
        (await this.tokens.issue(binding, user, { sessionFamilyId: familyId, clientId: client.id })).token,
    };
  }

  private answer(pair: { accessToken: string; refreshToken: string }, scope: string | null): TokenResponse {
    return {
      access_token: pair.accessToken,
      token_type: 'Bearer',
      expires_in: this.tokens.ttlSeconds,
      refresh_token: pair.refreshToken,
      ...(scope ? { scope } : {}),
    };
  }
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** `<origin>/mcp` (with or without a trailing slash): the only resource this host protects. */
function isOwnResource(origin: string, resource: string): boolean {
  return resource === `${origin}/mcp` || resource === `${origin}/mcp/`;
}
