import { Injectable } from '@nestjs/common';
import { isUuid } from '@suite/db';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import jsonwebtoken, { type Jwt } from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import type { TokenUser } from '../user-snapshot.js';
import {
  ACCESS_TOKEN_ALG,
  ACCESS_TOKEN_TTL_SECONDS,
  ACCESS_TOKEN_TYP,
  LEGACY_ACCESS_TOKEN_ALG,
} from '../user-auth.constants.js';
import { SigningKeyStore, type SigningKey } from './signing-key.store.js';
import { Clock } from '../../platform/clock.js';

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
export const CLOCK_TOLERANCE_S = 5;
/** Verified tokens remembered per process (about 1 KB each), oldest dropped first. */
const VERIFIED_CACHE_SIZE = 20_000;

/**
 * Access tokens: JWTs signed with the project's own P-256 key (alg ES256, pinned), chosen by `kid`,
 * header and claim `typ` project_access, `aud` the project id, `iss` the project's public address,
 * 15 minutes. Verification (jsonwebtoken, the library under passport-jwt: see
 * http/project-access.strategy.ts) accepts nothing else: no other algorithm (none included), no key
 * of another project, no other audience, issuer or typ, nothing expired. Tokens signed before the
 * move to ES256 (EdDSA, by a key now retired) are verified with jose until they expire.
 */
@Injectable()
export class AccessTokens {
  private readonly verified = new Map<string, AccessClaims>();

  constructor(
    private readonly keys: SigningKeyStore,
    private readonly clock: Clock,
  ) {}

  async issue(audience: TokenAudience, user: TokenUser, sessionFamilyId: string): Promise<string> {
    const key = await this.keys.signingKey(audience.projectId);
    const alg = key.algorithm;
    const now = this.seconds();
    return new SignJWT({
      typ: ACCESS_TOKEN_TYP,
      sid: sessionFamilyId,
      email: user.email,
      name: user.name,
      picture: user.picture,
      email_verified: user.emailVerified,
    })
      .setProtectedHeader({ alg, kid: key.kid, typ: ACCESS_TOKEN_TYP })
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
      if (known.exp + CLOCK_TOLERANCE_S > this.clock.now().getTime() / 1000) return known;
      this.verified.delete(key);
    }
    const claims = await this.verifySignature(audience, token);
    if (claims) {
      this.verified.set(key, claims);
      if (this.verified.size > VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    }
    return claims;
  }

  /**
   * The project's ES256 key named by an (unverified) token's header, for jsonwebtoken to check the
   * token with; undefined for any other algorithm, a missing or foreign kid.
   */
  async keyFor(projectId: string, token: string): Promise<SigningKey | undefined> {
    const header = headerOf(token);
    if (!header || header.alg !== ACCESS_TOKEN_ALG || typeof header.kid !== 'string') return undefined;
    const key = await this.keys.verificationKey(projectId, header.kid);
    return key?.algorithm === ACCESS_TOKEN_ALG ? key : undefined;
  }

  /**
   * The claims of a token whose ES256 signature jsonwebtoken checked (`complete`: header and
   * payload), when it is one of this project's access tokens; undefined otherwise.
   */
  accept(audience: TokenAudience, verified: Jwt): AccessClaims | undefined {
    if (verified.header.alg !== ACCESS_TOKEN_ALG || verified.header.typ !== ACCESS_TOKEN_TYP)
      return undefined;
    const payload = verified.payload;
    if (typeof payload !== 'object' || payload === null) return undefined;
    if (payload.aud !== audience.projectId || payload.iss !== audience.issuer) return undefined;
    return claimsOf(payload as JWTPayload);
  }

  private seconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  private async verifySignature(audience: TokenAudience, token: string): Promise<AccessClaims | undefined> {
    const header = headerOf(token);
    if (header?.alg === LEGACY_ACCESS_TOKEN_ALG) return this.verifyLegacy(audience, token);
    const key = await this.keyFor(audience.projectId, token);
    if (!key) return undefined;
    try {
      const verified = jsonwebtoken.verify(token, key.publicKey, {
        algorithms: [ACCESS_TOKEN_ALG],
        audience: audience.projectId,
        issuer: audience.issuer,
        clockTolerance: CLOCK_TOLERANCE_S,
        clockTimestamp: this.seconds(),
        complete: true,
      });
      return this.accept(audience, verified);
    } catch {
      return undefined;
    }
  }

  /** A token signed before the move to ES256, by its project's (now retired) Ed25519 key. */
  private async verifyLegacy(audience: TokenAudience, token: string): Promise<AccessClaims | undefined> {
    try {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          if (header.alg !== LEGACY_ACCESS_TOKEN_ALG || typeof header.kid !== 'string')
            throw new Error('unexpected header');
          const key = await this.keys.verificationKey(audience.projectId, header.kid);
          if (!key || key.algorithm !== LEGACY_ACCESS_TOKEN_ALG) throw new Error('unknown key');
          return key.publicKey;
        },
        {
          algorithms: [LEGACY_ACCESS_TOKEN_ALG],
          typ: ACCESS_TOKEN_TYP,
          audience: audience.projectId,
          issuer: audience.issuer,
          requiredClaims: ['sub', 'sid', 'iat', 'exp', 'typ', 'email'],
          clockTolerance: CLOCK_TOLERANCE_S,
          currentDate: this.clock.now(),
        },
      );
      return claimsOf(payload);
    } catch {
      return undefined;
    }
  }
}

/** The decoded (not verified) JOSE header of a compact JWS, if it parses. */
export function headerOf(token: string): { alg?: unknown; kid?: unknown; typ?: unknown } | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0 || token.length > MAX_TOKEN_LENGTH) return undefined;
  try {
    const header: unknown = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8'));
    return typeof header === 'object' && header !== null ? header : undefined;
  } catch {
    return undefined;
  }
}

export function claimsOf(payload: JWTPayload): AccessClaims | undefined {
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
