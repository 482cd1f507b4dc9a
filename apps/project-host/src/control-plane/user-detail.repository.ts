import { Injectable } from '@nestjs/common';
import type { TenantClient, TenantDb } from '@suite/db';

export type UserDetailRow = Omit<TenantDb.User, 'passwordHash'> & {
  hasPassword: boolean;
  identities: Pick<TenantDb.Identity, 'issuer' | 'email' | 'createdAt'>[];
  sessions: Pick<
    TenantDb.Session,
    'familyId' | 'createdAt' | 'rotatedAt' | 'revokedAt' | 'expiresAt' | 'ip' | 'userAgent'
  >[];
};

/** One end user with their identity links and refresh-token rows (the project's tenant database). */
export abstract class UserDetailRepository {
  abstract find(tenant: TenantClient, userId: string): Promise<UserDetailRow | null>;
  /** Where the user's latest magic link led (its code row keeps it), or null. */
  abstract lastMagicLinkTarget(tenant: TenantClient, userId: string): Promise<string | null>;
  /** The id of the user whose email change waits for `email`, or null. */
  abstract withPendingEmail(tenant: TenantClient, email: string): Promise<string | null>;
}

/** How many refresh-token rows a user detail reads (newest first): enough for every recent sign-in. */
const SESSION_ROWS = 500;

@Injectable()
export class PrismaUserDetailRepository extends UserDetailRepository {
  async find(tenant: TenantClient, userId: string): Promise<UserDetailRow | null> {
    const user = await tenant.user.findUnique({
      where: { id: userId },
      include: {
        identities: { select: { issuer: true, email: true, createdAt: true }, orderBy: { createdAt: 'asc' } },
        sessions: {
          select: {
            familyId: true,
            createdAt: true,
            rotatedAt: true,
            revokedAt: true,
            expiresAt: true,
            ip: true,
            userAgent: true,
          },
          orderBy: { createdAt: 'desc' },
          take: SESSION_ROWS,
        },
      },
    });
    if (!user) return null;
    const { passwordHash, ...rest } = user;
    return { ...rest, hasPassword: passwordHash !== null };
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
