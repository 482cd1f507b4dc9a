import { Injectable } from '@nestjs/common';
import { isUuid } from '@suite/db';
import { jwtVerify, SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { Clock } from '../platform/clock.js';
import { CLOCK_TOLERANCE_S } from '../user-auth/tokens/access-tokens.js';
import { SigningKeyStore } from '../user-auth/tokens/signing-key.store.js';
import { ACCESS_TOKEN_ALG, ACCESS_TOKEN_TTL_SECONDS } from '../user-auth/user-auth.constants.js';
import type { TokenUser } from '../user-auth/user-snapshot.js';

/** JOSE header `typ` and claim `typ` of MCP access tokens: never accepted where project_access is. */
export const MCP_ACCESS_TOKEN_TYP = 'mcp_access';
/** As short as the contract's access tokens: a revoked grant stops within this even offline. */
export const MCP_ACCESS_TOKEN_TTL_SECONDS = ACCESS_TOKEN_TTL_SECONDS;
const MAX_TOKEN_LENGTH = 4096;

/** Which authorization server and which resource a token is for: `https://<host>` and `https://<host>/mcp`. */
export interface McpTokenBinding {
  projectId: string;
  /** The issuer (the project host's origin, as the client reached it). */
  issuer: string;
  /** The RFC 8707 resource: the `/mcp` URL of that origin. */
  resource: string;
}

export interface McpAccessClaims {
  sub: string;
  /** The grant's session family (platform_auth.sessions): revoking it ends the token at once. */
  sid: string;
  clientId: string;
  email: string;
  name: string | null;
  picture: string | null;
  email_verified: boolean;
  exp: number;
}

/**
 * Access tokens of MCP clients: JWTs signed with the project's own ES256 key (the key of its
 * /api/user tokens, chosen by `kid`) but with `typ` mcp_access and `aud` the resource (RFC 8707):
 * the `/mcp` URL of the host they were issued on. So a token works on that project's `/mcp` only —
 * not on its /api (typ), not on another project (key, issuer, audience) — and /api/user tokens do
 * not work on `/mcp`.
 */
@Injectable()
export class McpAccessTokens {
  readonly ttlSeconds = MCP_ACCESS_TOKEN_TTL_SECONDS;

  constructor(
    private readonly keys: SigningKeyStore,
    private readonly clock: Clock,
  ) {}

  async issue(
    binding: McpTokenBinding,
    user: TokenUser,
    grant: { sessionFamilyId: string; clientId: string },
  ): Promise<{ token: string; expiresIn: number }> {
    const key = await this.keys.signingKey(binding.projectId);
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const token = await new SignJWT({
      typ: MCP_ACCESS_TOKEN_TYP,
      sid: grant.sessionFamilyId,
      client_id: grant.clientId,
      email: user.email,
      name: user.name,
      picture: user.picture,
      email_verified: user.emailVerified,
    })
      .setProtectedHeader({ alg: key.algorithm, kid: key.kid, typ: MCP_ACCESS_TOKEN_TYP })
      .setIssuer(binding.issuer)
      .setAudience(binding.resource)
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + MCP_ACCESS_TOKEN_TTL_SECONDS)
      .sign(key.privateKey);
    return { token, expiresIn: MCP_ACCESS_TOKEN_TTL_SECONDS };
  }

  /** The claims of a token issued for exactly this binding; undefined for anything else. */
  async verify(binding: McpTokenBinding, token: string): Promise<McpAccessClaims | undefined> {
    if (!token || token.length > MAX_TOKEN_LENGTH) return undefined;
    try {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          if (header.alg !== ACCESS_TOKEN_ALG || typeof header.kid !== 'string') throw new Error('header');
          const key = await this.keys.verificationKey(binding.projectId, header.kid);
          if (!key || key.algorithm !== ACCESS_TOKEN_ALG) throw new Error('unknown key');
          return key.publicKey;
        },
        {
          algorithms: [ACCESS_TOKEN_ALG],
          typ: MCP_ACCESS_TOKEN_TYP,
          issuer: binding.issuer,
          audience: binding.resource,
          requiredClaims: ['sub', 'sid', 'iat', 'exp', 'email', 'client_id'],
          clockTolerance: CLOCK_TOLERANCE_S,
          currentDate: this.clock.now(),
        },
      );
      const { sub, sid, email, name, picture, email_verified, client_id, typ, iat, exp } = payload;
      if (typ !== MCP_ACCESS_TOKEN_TYP || typeof sub !== 'string' || typeof sid !== 'string')
        return undefined;
      if (!isUuid(sub) || !isUuid(sid) || typeof email !== 'string' || typeof client_id !== 'string')
        return undefined;
      if (typeof iat !== 'number' || typeof exp !== 'number' || exp - iat > MCP_ACCESS_TOKEN_TTL_SECONDS)
        return undefined;
      return {
        sub,
        sid,
        clientId: client_id,
        email,
        name: typeof name === 'string' ? name : null,
        picture: typeof picture === 'string' ? picture : null,
        email_verified: email_verified === true,
        exp,
      };
    } catch {
      return undefined;
    }
  }
}
