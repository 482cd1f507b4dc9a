import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import type { IdpClient } from './idp-client.resolver.js';

/** What a sign-in keeps between the start route and the callback (never sent to the browser). */
export interface AuthorizationChecks {
  codeVerifier: string;
  nonce: string;
}

/** The verified id_token claims the sign-in uses. */
export interface IdpIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
  picture: string | undefined;
}

const DISCOVERY_TTL_MS = 10 * 60_000;
const SCOPE = 'openid email profile';

/**
 * OpenID Connect through openid-client: discovery (cached a few minutes per issuer and client),
 * authorization URLs with PKCE S256 and a nonce, and the code exchange with every id_token check
 * (JWKS signature, issuer, audience, expiry, nonce) done by the library.
 */
@Injectable()
export class OidcClients {
  private readonly configs = new Map<string, { config: Promise<oidc.Configuration>; until: number }>();

  async authorizationUrl(
    client: IdpClient,
    redirectUri: string,
    state: string,
  ): Promise<{ url: string; checks: AuthorizationChecks }> {
    const config = await this.config(client);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: SCOPE,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, checks: { codeVerifier, nonce } };
  }

  /** The origin of the provider's authorization endpoint (from discovery, cached). */
  async authorizationOrigin(client: IdpClient): Promise<string> {
    const endpoint = (await this.config(client)).serverMetadata().authorization_endpoint;
    return new URL(endpoint ?? client.issuerUrl).origin;
  }

  /** Exchanges the code of `callbackUrl` (state already checked by the caller) for verified claims. */
  async exchange(
    client: IdpClient,
    callbackUrl: URL,
    redirectUri: string,
    checks: AuthorizationChecks,
  ): Promise<IdpIdentity> {
    const config = await this.config(client);
    const tokens = await oidc.authorizationCodeGrant(
      config,
      callbackUrl,
      {
        pkceCodeVerifier: checks.codeVerifier,
        expectedNonce: checks.nonce,
        // The caller consumed the server-side state; the URL's own state is not compared again.
        expectedState: oidc.skipStateCheck,
        idTokenExpected: true,
      },
      { redirect_uri: redirectUri },
    );
    const idToken = tokens.claims();
    if (!idToken) throw new Error('the token response carried no id_token');
    let claims: Record<string, unknown> = idToken;
    // Conformant providers may keep scope-requested claims (email, profile) out of the id_token
    // and serve them at the userinfo endpoint, for the same subject (checked by the library).
    if (idToken.email === undefined && config.serverMetadata().userinfo_endpoint) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
      claims = { ...info, ...idToken };
    }
    const text = (value: unknown): string | undefined =>
      typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    return {
      issuer: idToken.iss,
      subject: idToken.sub,
      email: text(claims.email)?.toLowerCase(),
      emailVerified: claims.email_verified === true,
      name: text(claims.name)?.slice(0, 200),
      picture: pictureUrl(claims.picture),
    };
  }

  private config(client: IdpClient): Promise<oidc.Configuration> {
    const key = [client.issuerUrl, client.clientId, sha(client.clientSecret)].join('\n');
    const cached = this.configs.get(key);
    if (cached && cached.until > Date.now()) return cached.config;
    const issuer = new URL(client.issuerUrl);
    const config = oidc.discovery(
      issuer,
      client.clientId,
      client.clientSecret,
      oidc.ClientSecretPost(client.clientSecret),
      // http is for a provider on this machine (tests, local development) only.
      { execute: isLoopbackHttp(issuer) ? [oidc.allowInsecureRequests] : [], timeout: 10 },
    );
    // A failed discovery is not cached: the next sign-in tries again.
    config.catch(() => this.configs.delete(key));
    this.configs.set(key, { config, until: Date.now() + DISCOVERY_TTL_MS });
    if (this.configs.size > 1_000) this.configs.delete(this.configs.keys().next().value!);
    return config;
  }
}

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function sha(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Only an http(s) URL of sane length is kept as a profile picture. */
function pictureUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2048) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
