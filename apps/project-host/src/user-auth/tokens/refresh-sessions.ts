import { Inject, Injectable, Logger } from '@nestjs/common';
import { newId, sqlPool, type TenantDb } from '@suite/db';
import { randomUUID } from 'node:crypto';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import type { UserSnapshot } from '../../events/auth-events.publisher.js';
import { AuthStateCache } from '../../events/auth-state.cache.js';
import type { ProjectContext } from '../../projects/project-context.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import type { TenantTx } from '../codes/nonce-codes.js';
import { looksLikeToken, randomToken, sha256Hex } from '../crypto/auth-secrets.js';
import { REFRESH_TOKEN_TTL_MS, TX_OPTIONS } from '../user-auth.constants.js';
import { snapshotOf, tokenUserOf, type TokenUser } from '../user-snapshot.js';
import { AccessTokens, type AccessClaims } from './access-tokens.js';
import { RefreshGraceCache } from './refresh-grace.cache.js';
import type { ClientMeta, TokenPair } from './token-pair.js';

/** How long after a rotation its pair may still be on its way to the grace cache. */
const GRACE_PAIR_WAIT_MS = 2_000;

/**
 * The common rotation in one statement (see `rotateCurrent`), named so each connection plans it
 * once. $1 the presented token's hash; $2-$6 the successor's id, hash, expiry, ip and user agent.
 */
const ROTATE_CURRENT = {
  name: 'rotate-current-session-v2',
  text: `
    WITH current AS (
      SELECT id, user_id, family_id FROM platform_auth.sessions
       WHERE token_hash = $1 AND rotated_at IS NULL AND revoked_at IS NULL AND expires_at > now()
         FOR UPDATE
    ), successor AS (
      INSERT INTO platform_auth.sessions (id, user_id, family_id, token_hash, expires_at, ip, user_agent)
      SELECT $2::uuid, user_id, family_id, $3, $4, $5, $6 FROM current
    ), rotated AS (
      UPDATE platform_auth.sessions AS s SET rotated_at = now(), replaced_by_id = $2::uuid
        FROM current WHERE s.id = current.id
    )
    SELECT current.family_id, u.id, u.email, u.name, u.picture, u.email_verified
      FROM current JOIN platform_auth.users AS u ON u.id = current.user_id`,
};

export type RotateOutcome =
  | { ok: true; pair: TokenPair }
  /** `user` is set when the token belonged to a known user (for auth.failed). */
  | { ok: false; user: UserSnapshot | null; reused: boolean };

interface LockedSession {
  id: string;
  userId: string;
  familyId: string;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date;
}

/**
 * Refresh tokens: 256 random bits, stored only as their sha256, one row per token; a sign-in starts
 * a family and each rotation adds the successor to it. Rotation locks the row (SELECT ... FOR
 * UPDATE), so concurrent presentations of one token queue behind the first. As the contract says,
 * a rotated token presented again is a reuse (theft or a bug): 401, and the whole family is
 * revoked. Racing tabs are the platform client's job (one refresh across tabs). Only when the
 * opt-in REFRESH_REUSE_GRACE_MS is set do presentations while it rotates or within the window get
 * the same successor pair instead.
 */
@Injectable()
export class RefreshSessions {
  private readonly logger = new Logger('refresh-sessions');
  private readonly graceMs: number;

  constructor(
    private readonly tokens: AccessTokens,
    private readonly grace: RefreshGraceCache,
    private readonly state: AuthStateCache,
    @Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig,
  ) {
    this.graceMs = config.REFRESH_REUSE_GRACE_MS;
  }

  /** Signs a user in: a new session family and its first pair. */
  async start(ctx: ProjectContext, tx: TenantTx, user: TokenUser, meta: ClientMeta): Promise<TokenPair> {
    const refreshToken = randomToken();
    const familyId = randomUUID();
    await tx.session.create({ data: this.row(user.id, familyId, refreshToken, meta) });
    return { accessToken: await this.tokens.issue(audienceOf(ctx), user, familyId), refreshToken };
  }

  async rotate(ctx: ProjectContext, refreshToken: string, meta: ClientMeta): Promise<RotateOutcome> {
    if (!looksLikeToken(refreshToken)) return { ok: false, user: null, reused: false };
    const hash = sha256Hex(refreshToken);
    const projectId = ctx.project.id;
    const fast = await this.rotateCurrent(ctx, hash, meta);
    if (fast) return { ok: true, pair: fast };
    // Not a current token (unknown, revoked, expired, already rotated: a racing tab or a reuse).
    const outcome = await ctx.tenant.$transaction(async (tx): Promise<RotateOutcome> => {
      const row = await lockSession(tx, hash);
      if (!row) return { ok: false, user: null, reused: false };
      const user = await tx.user.findUnique({ where: { id: row.userId } });
      if (!user) return { ok: false, user: null, reused: false };
      const now = Date.now();
      if (row.revokedAt || row.expiresAt.getTime() <= now) {
        return { ok: false, user: snapshotOf(user), reused: false };
      }
      if (row.rotatedAt) {
        if (this.graceMs > 0 && now - row.rotatedAt.getTime() <= this.graceMs) {
          const pair = await this.gracePair(projectId, hash, row.rotatedAt);
          if (pair) return { ok: true, pair };
        }
        await revokeFamilyRows(tx, row.familyId);
        return { ok: false, user: snapshotOf(user), reused: true };
      }
      const next = randomToken();
      const successor = await tx.session.create({ data: this.row(user.id, row.familyId, next, meta) });
      await tx.session.update({
        where: { id: row.id },
        data: { rotatedAt: new Date(now), replacedById: successor.id },
      });
      const pair = {
        accessToken: await this.tokens.issue(audienceOf(ctx), tokenUserOf(user), row.familyId),
        refreshToken: next,
      };
      // Cached before the commit releases the row lock, so the requests queued behind it find it.
      if (this.graceMs > 0) await this.grace.put(projectId, hash, pair, this.graceMs);
      return { ok: true, pair };
    }, TX_OPTIONS);
    // A reuse revoked the family: its access tokens stop working everywhere now.
    if (!outcome.ok && outcome.reused && outcome.user)
      await this.state.invalidate(projectId, [outcome.user.id]);
    return outcome;
  }

  /**
   * The common case in one statement (one round trip, its own transaction): the token is current
   * (not rotated, revoked or expired), so its row is locked, the successor inserted and the row
   * marked rotated. A concurrent presentation of the same token waits for the lock and then no
   * longer matches (READ COMMITTED re-checks the locked row), so it takes the careful path.
   */
  private async rotateCurrent(
    ctx: ProjectContext,
    hash: string,
    meta: ClientMeta,
  ): Promise<TokenPair | undefined> {
    const next = randomToken();
    const successorId = newId();
    const tokenHash = sha256Hex(next);
    const expiresAt = new Date(Date.now() + REFRESH_TOKEN_TTL_MS);
    const userAgent = meta.userAgent?.slice(0, 512) ?? null;
    const { rows } = await sqlPool(ctx.tenant).query<{
      family_id: string;
      id: string;
      email: string;
      name: string | null;
      picture: string | null;
      email_verified: boolean;
    }>({
      ...ROTATE_CURRENT,
      values: [hash, successorId, tokenHash, expiresAt, meta.ip ?? null, userAgent],
    });
    const found = rows[0];
    if (!found) return undefined;
    const pair = {
      accessToken: await this.tokens.issue(
        audienceOf(ctx),
        { ...snapshotOf(found), emailVerified: found.email_verified },
        found.family_id,
      ),
      refreshToken: next,
    };
    // Requests that presented the same token meanwhile wait for this in the careful path. The
    // rotation has committed: should Redis fail, the client still gets its new pair.
    if (this.graceMs > 0) {
      await this.grace.put(ctx.project.id, hash, pair, this.graceMs).catch((error: unknown) => {
        this.logger.warn(
          { err: error, projectId: ctx.project.id },
          'could not cache a rotated pair for racing requests',
        );
      });
    }
    return pair;
  }

  /**
   * The pair a rotation within the grace answered with. The one-statement rotation stores it just
   * after its commit, so a request that queued behind it may look a moment too early: it looks
   * again for a short while (only when the rotation was just now) before calling it a reuse.
   */
  private async gracePair(projectId: string, hash: string, rotatedAt: Date): Promise<TokenPair | undefined> {
    for (;;) {
      const pair = await this.grace.get(projectId, hash);
      if (pair || Date.now() - rotatedAt.getTime() > GRACE_PAIR_WAIT_MS) return pair;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Signs out the session the token belongs to (its whole family); the user, when a live row matched. */
  async revoke(ctx: ProjectContext, refreshToken: string): Promise<UserSnapshot | null> {
    if (!looksLikeToken(refreshToken)) return null;
    const hash = sha256Hex(refreshToken);
    const revoked = await ctx.tenant.$transaction(async (tx) => {
      const row = await lockSession(tx, hash);
      if (!row || row.revokedAt) return undefined;
      await revokeFamilyRows(tx, row.familyId);
      const user = await tx.user.findUnique({ where: { id: row.userId } });
      return { userId: row.userId, user: user ? snapshotOf(user) : null };
    }, TX_OPTIONS);
    if (!revoked) return null;
    await this.state.invalidate(ctx.project.id, [revoked.userId]);
    return revoked.user;
  }

  /**
   * Signs a user out everywhere (after a password reset), inside the caller's transaction; call
   * `signedOutEverywhere` once it committed.
   */
  async revokeAllOf(tx: TenantTx, userId: string): Promise<void> {
    await tx.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
  }

  /** After `revokeAllOf` committed: the user's access tokens stop working in every process. */
  signedOutEverywhere(ctx: ProjectContext, userId: string): Promise<void> {
    return this.state.invalidate(ctx.project.id, [userId]);
  }

  /**
   * Whether `userId` ever signed in from `ip` (a session row opened from there): the user's own
   * address, which attacks from elsewhere must not lock out (rate limits).
   */
  async signedInFrom(ctx: ProjectContext, userId: string, ip: string): Promise<boolean> {
    const row = await ctx.tenant.session.findFirst({ where: { userId, ip }, select: { id: true } });
    return row !== null;
  }

  /** Whether the session family an access token names is still signed in (see AuthStateCache). */
  isLive(ctx: ProjectContext, claims: Pick<AccessClaims, 'sub' | 'sid'>): Promise<boolean> {
    return this.state.sessionLive(ctx.project.id, claims.sub, claims.sid, async () => {
      const live = await ctx.tenant.session.findFirst({
        where: { familyId: claims.sid, userId: claims.sub, revokedAt: null, expiresAt: { gt: new Date() } },
        select: { id: true },
      });
      return live !== null;
    });
  }

  private row(
    userId: string,
    familyId: string,
    token: string,
    meta: ClientMeta,
  ): TenantDb.Prisma.SessionUncheckedCreateInput {
    return {
      userId,
      familyId,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
    };
  }
}

export function audienceOf(ctx: ProjectContext): { projectId: string; issuer: string } {
  return { projectId: ctx.project.id, issuer: ctx.publicUrl };
}

async function lockSession(tx: TenantTx, tokenHash: string): Promise<LockedSession | undefined> {
  const rows = await tx.$queryRaw<
    {
      id: string;
      user_id: string;
      family_id: string;
      rotated_at: Date | null;
      revoked_at: Date | null;
      expires_at: Date;
    }[]
  >`SELECT id, user_id, family_id, rotated_at, revoked_at, expires_at
      FROM "platform_auth"."sessions" WHERE token_hash = ${tokenHash} FOR UPDATE`;
  const row = rows[0];
  if (!row) return undefined;
  const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));
  return {
    id: row.id,
    userId: row.user_id,
    familyId: row.family_id,
    rotatedAt: date(row.rotated_at),
    revokedAt: date(row.revoked_at),
    expiresAt: date(row.expires_at)!,
  };
}

async function revokeFamilyRows(tx: TenantTx, familyId: string): Promise<void> {
  await tx.session.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: new Date() } });
}
