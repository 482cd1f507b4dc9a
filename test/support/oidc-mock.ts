import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';

// A real OpenID provider for the identity-provider specs (oauth2-mock-server): discovery, JWKS,
// an authorize endpoint that answers at once (no login page), PKCE checks and signed id_tokens whose
// claims a test sets (email_verified, picture, a wrong nonce, audience or expiry).

export interface MockProvider {
  /** Discovery base (IDP_ISSUER_URL). */
  issuer: string;
  /** Where the provider listens (the issuer, unless `issuerUrl` named another, e.g. a proxy's). */
  origin: string;
  /** Claims put on the next tokens (after the provider's own sub, aud and nonce). */
  claims: Record<string, unknown>;
  /** An `error` the authorize endpoint answers with instead of a code (e.g. access_denied). */
  authorizeError: string | undefined;
  /** Query parameters of the authorize requests received, oldest first. */
  authorizeRequests: URLSearchParams[];
  stop(): Promise<void>;
}

/** `issuerUrl`: the issuer the provider names in discovery and tokens (a proxy in front of it). */
export async function startMockProvider(options: { issuerUrl?: string } = {}): Promise<MockProvider> {
  const server = new OAuth2Server();
  if (options.issuerUrl) server.issuer.url = options.issuerUrl;
  // Under Jest's VM modules, a key object made by node:crypto (as keys.generate does) fails the
  // library's plain-object check; one copied into this realm passes.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = JSON.parse(JSON.stringify(privateKey.export({ format: 'jwk' }))) as Record<string, unknown>;
  await server.issuer.keys.add({ ...jwk, kid: randomUUID(), alg: 'RS256' });
  await server.start(0, '127.0.0.1');
  const provider: MockProvider = {
    issuer: server.issuer.url!,
    origin: `http://127.0.0.1:${server.address().port}`,
    claims: {},
    authorizeError: undefined,
    authorizeRequests: [],
    stop: () => server.stop(),
  };
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, provider.claims);
  });
  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: { url?: string }) => {
    provider.authorizeRequests.push(new URL(req.url ?? '/', provider.issuer).searchParams);
    if (provider.authorizeError) {
      redirect.url.searchParams.delete('code');
      redirect.url.searchParams.set('error', provider.authorizeError);
    }
  });
  return provider;
}
