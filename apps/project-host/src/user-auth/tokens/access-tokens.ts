import { Injectable } from '@nestjs/common';
import { isUuid } from '@suite/db';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { randomUUID } from 'node:crypto';
import type { TokenUser } from '../user-snapshot.js';
import { ACCESS_TOKEN_ALG, ACCESS_TOKEN_TTL_SECONDS, ACCESS_TOKEN_TYP } from '../user-auth.constants.js';
import { SigningKeyStore } from './signing-key.store.js';

/** Who an access token speaks for (what defineApi's ctx.user is built from). */
export interface AccessClaims {
  /** User id. */
  sub: string;
  /** Session family id: every refresh token of one sign-in shares it. */
  sid: string;
  email: string;
  name: string | null;
  picture: string | null;
  /** Whether the user proved the address (mailed code or a provider that verified it). */
  email_verified: boolean;
  iat: number;
  exp: number;
}

/** The project an access token is for: its id is the audience, its public address the issuer. */
export interface TokenAudience {
  projectId: string;
  issuer: string;
}

const MAX_TOKEN_LENGTH = 4096;
const CLOCK_TOLERANCE_S = 5;
/** Verified tokens remembered per process (about 1 KB each), oldest dropped first. */
const VERIFIED_CACHE_SIZE = 20_000;

/**
 * Access tokens: JWTs signed with the project's own Ed25519 key (alg EdDSA, pinned), header and
 * claim `typ` project_access, `aud` the project id, `iss` the project's public address, 15 minutes.
 * Verification accepts nothing else: no other algorithm (none included), no key of another
 * project, no other audience, issuer or typ, nothing expired.
 */
@Injectable()
export class AccessTokens {
  private readonly verified = new Map<string, AccessClaims>();

  constructor(private readonly keys: SigningKeyStore) {}

  async issue(audience: TokenAudience, user: TokenUser, sessionFamilyId: string): Promise<string> {
    const key = await this.keys.signingKey(audience.projectId);
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      typ: ACCESS_TOKEN_TYP,
      sid: sessionFamilyId,
      email: user.email,
      name: user.name,
      picture: user.picture,
      email_verified: user.emailVerified,
    })
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: key.kid, typ: ACCESS_TOKEN_TYP })
      .setIssuer(audience.issuer)
      .setAudience(audience.projectId)
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
      .sign(key.privateKey);
  }

  /** The token's claims, or undefined for any token this project did not issue or that expired. */
  async verify(audience: TokenAudience, token: string): Promise<AccessClaims | undefined> {
    if (!token || token.length > MAX_TOKEN_LENGTH) return undefined;
    // A token whose signature this process already checked, for the same project, is the same
    // claims until it expires: its signature is not checked again.
    const key = `${audience.projectId} ${audience.issuer} ${token}`;
    const known = this.verified.get(key);
    if (known) {
      if (known.exp + CLOCK_TOLERANCE_S > Date.now() / 1000) return known;
      this.verified.delete(key);
    }
    const claims = await this.verifySignature(audience, token);
    if (claims) {
      this.verified.set(key, claims);
      if (this.verified.size > VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    }
    return claims;
  }

  private async verifySignature(audience: TokenAudience, token: string): Promise<AccessClaims | undefined> {
    try {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          if (header.alg !== ACCESS_TOKEN_ALG || typeof header.kid !== 'string')
            throw new Error('unexpected header');
          const key = await this.keys.verificationKey(audience.projectId, header.kid);
          if (!key) throw new Error('unknown key');
          return key.publicKey;
        },
        {
          algorithms: [ACCESS_TOKEN_ALG],
          typ: ACCESS_TOKEN_TYP,
          audience: audience.projectId,
          issuer: audience.issuer,
          requiredClaims: ['sub', 'sid', 'iat', 'exp', 'typ', 'email'],
          clockTolerance: CLOCK_TOLERANCE_S,
        },
      );
      return claimsOf(payload);
    } catch {
      return undefined;
    }
  }
}

function claimsOf(payload: JWTPayload): AccessClaims | undefined {
  const { sub, sid, email, name, picture, typ, iat, exp, email_verified } = payload;
  if (typ !== ACCESS_TOKEN_TYP) return undefined;
  if (typeof sub !== 'string' || typeof sid !== 'string' || typeof email !== 'string') return undefined;
  if (!isUuid(sub) || !isUuid(sid)) return undefined;
  if (typeof iat !== 'number' || typeof exp !== 'number') return undefined;
  // A token cannot live longer than the spec's 15 minutes, whatever its exp says.
  if (exp - iat > ACCESS_TOKEN_TTL_SECONDS) return undefined;
  return {
    sub,
    sid,
    email,
    name: typeof name === 'string' ? name : null,
    picture: typeof picture === 'string' ? picture : null,
    email_verified: email_verified === true,
    iat,
    exp,
  };
}
