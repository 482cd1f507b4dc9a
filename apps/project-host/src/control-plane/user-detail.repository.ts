import { Injectable } from '@nestjs/common';
import type { TenantClient, TenantDb } from '@suite/db';

/** One sign-in: a refresh-token family, from its first token to its latest rotation. */
export interface SessionFamilyRow {
  familyId: string;
  startedAt: Date;
  lastRefreshedAt: Date;
  expiresAt: Date;
  /** When it was revoked (sign-out, theft, reset, sign out everywhere), or null. */
  revokedAt: Date | null;
  /** Its latest token can still be refreshed. */
  active: boolean;
  ip: string | null;
  userAgent: string | null;
}

export type UserDetailRow = Omit<TenantDb.User, 'passwordHash'> & {
  hasPassword: boolean;
  identities: Pick<TenantDb.Identity, 'issuer' | 'email' | 'createdAt'>[];
  /** The newest sign-ins first, at most SESSION_FAMILIES of them. */
  sessions: SessionFamilyRow[];
  /** Sign-ins still active, all of them. */
  activeSessions: number;
  lastSignInAt: Date | null;
};

/** One end user with their identity links and sign-ins (the project's tenant database). */
export abstract class UserDetailRepository {
  abstract find(tenant: TenantClient, userId: string, now: Date): Promise<UserDetailRow | null>;
  /** Where the user's latest magic link led (its code row keeps it), or null. */
  abstract lastMagicLinkTarget(tenant: TenantClient, userId: string): Promise<string | null>;
  /** The id of the user whose email change waits for `email`, or null. */
  abstract withPendingEmail(tenant: TenantClient, email: string): Promise<string | null>;
}

/** How many sign-ins a user detail lists (newest first). */
export const SESSION_FAMILIES = 50;

@Injectable()
export class PrismaUserDetailRepository extends UserDetailRepository {
  async find(tenant: TenantClient, userId: string, now: Date): Promise<UserDetailRow | null> {
    const user = await tenant.user.findUnique({
      where: { id: userId },
      include: {
        identities: { select: { issuer: true, email: true, createdAt: true }, orderBy: { createdAt: 'asc' } },
      },
    });
    if (!user) return null;
    // A family is one row per refresh (rotation): grouped here, so a long-lived sign-in with
    // thousands of rotations is still one session with its true start.
    const [families, live] = await Promise.all([
      tenant.session.groupBy({
        by: ['familyId'],
        where: { userId },
        _min: { createdAt: true },
        _max: { createdAt: true, expiresAt: true, revokedAt: true },
        orderBy: { _min: { createdAt: 'desc' } },
        take: SESSION_FAMILIES,
      }),
      tenant.session.groupBy({
        by: ['familyId'],
        where: { userId, revokedAt: null, rotatedAt: null, expiresAt: { gt: now } },
      }),
    ]);
    const latest = await tenant.session.findMany({
      where: { userId, familyId: { in: families.map((f) => f.familyId) }, replacedById: null },
      orderBy: { createdAt: 'desc' },
      select: { familyId: true, ip: true, userAgent: true },
    });
    const active = new Set(live.map((f) => f.familyId));
    const sessions = families.map((family): SessionFamilyRow => {
      const last = latest.find((row) => row.familyId === family.familyId);
      return {
        familyId: family.familyId,
        startedAt: family._min.createdAt!,
        lastRefreshedAt: family._max.createdAt!,
        expiresAt: family._max.expiresAt!,
        revokedAt: active.has(family.familyId) ? null : family._max.revokedAt,
        active: active.has(family.familyId),
        ip: last?.ip ?? null,
        userAgent: last?.userAgent ?? null,
      };
    });
    const { passwordHash, ...rest } = user;
    return {
      ...rest,
      hasPassword: passwordHash !== null,
      sessions,
      activeSessions: active.size,
      // A sign-in starts a family; a refresh only continues one.
      lastSignInAt: sessions[0]?.startedAt ?? null,
    };
  }

  async lastMagicLinkTarget(tenant: TenantClient, userId: string): Promise<string | null> {
    const code = await tenant.nonce.findFirst({
      where: { userId, kind: 'magic_link' },
      orderBy: { createdAt: 'desc' },
      select: { redirectUri: true },
    });
    return code?.redirectUri ?? null;
  }

  async withPendingEmail(tenant: TenantClient, email: string): Promise<string | null> {
    const user = await tenant.user.findFirst({ where: { pendingEmail: email }, select: { id: true } });
    return user?.id ?? null;
  }
}
