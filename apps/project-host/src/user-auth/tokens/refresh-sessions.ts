import { Inject, Injectable } from '@nestjs/common';
import type { TenantDb } from '@suite/db';
import { randomUUID } from 'node:crypto';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import type { UserSnapshot } from '../../events/auth-events.publisher.js';
import type { ProjectContext } from '../../projects/project-context.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import type { TenantTx } from '../codes/nonce-codes.js';
import { looksLikeToken, randomToken, sha256Hex } from '../crypto/auth-secrets.js';
import { REFRESH_TOKEN_TTL_MS, TX_OPTIONS } from '../user-auth.constants.js';
import { snapshotOf } from '../user-snapshot.js';
import { AccessTokens } from './access-tokens.js';
import { RefreshGraceCache } from './refresh-grace.cache.js';
import type { ClientMeta, TokenPair } from './token-pair.js';

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
 * UPDATE), so concurrent presentations of one token queue behind the first. Those that arrive while
 * it rotates or within REFRESH_REUSE_GRACE_MS after get the same successor pair (racing tabs); any
 * later reuse is theft or a bug, and revokes the whole family.
 */
@Injectable()
export class RefreshSessions {
  private readonly graceMs: number;

  constructor(
    private readonly tokens: AccessTokens,
    private readonly grace: RefreshGraceCache,
    @Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig,
  ) {
    this.graceMs = config.REFRESH_REUSE_GRACE_MS;
  }

  /** Signs a user in: a new session family and its first pair. */
  async start(ctx: ProjectContext, tx: TenantTx, user: UserSnapshot, meta: ClientMeta): Promise<TokenPair> {
    const refreshToken = randomToken();
    const familyId = randomUUID();
    await tx.session.create({ data: this.row(user.id, familyId, refreshToken, meta) });
    return { accessToken: await this.tokens.issue(audienceOf(ctx), user, familyId), refreshToken };
  }

  async rotate(ctx: ProjectContext, refreshToken: string, meta: ClientMeta): Promise<RotateOutcome> {
    if (!looksLikeToken(refreshToken)) return { ok: false, user: null, reused: false };
    const hash = sha256Hex(refreshToken);
    const projectId = ctx.project.id;
    return ctx.tenant.$transaction(async (tx): Promise<RotateOutcome> => {
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
          const pair = await this.grace.get(projectId, hash);
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
        accessToken: await this.tokens.issue(audienceOf(ctx), snapshotOf(user), row.familyId),
        refreshToken: next,
      };
      // Cached before the commit releases the row lock, so the requests queued behind it find it.
      if (this.graceMs > 0) await this.grace.put(projectId, hash, pair, this.graceMs);
      return { ok: true, pair };
    }, TX_OPTIONS);
  }

  /** Signs out the session the token belongs to (its whole family); the user, when a live row matched. */
  async revoke(ctx: ProjectContext, refreshToken: string): Promise<UserSnapshot | null> {
    if (!looksLikeToken(refreshToken)) return null;
    const hash = sha256Hex(refreshToken);
    return ctx.tenant.$transaction(async (tx) => {
      const row = await lockSession(tx, hash);
      if (!row || row.revokedAt) return null;
      await revokeFamilyRows(tx, row.familyId);
      const user = await tx.user.findUnique({ where: { id: row.userId } });
      return user ? snapshotOf(user) : null;
    }, TX_OPTIONS);
  }

  /** Signs a user out everywhere (after a password reset). */
  async revokeAllOf(tx: TenantTx, userId: string): Promise<void> {
    await tx.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
  }

  /** Whether the session family an access token names is still signed in. */
  async isLive(ctx: ProjectContext, familyId: string): Promise<boolean> {
    const live = await ctx.tenant.session.findFirst({
      where: { familyId, revokedAt: null, expiresAt: { gt: new Date() } },
      select: { id: true },
    });
    return live !== null;
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
