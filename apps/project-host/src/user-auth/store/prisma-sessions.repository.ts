import { hotStatement, sqlPool, type TenantClient } from '@suite/db';
import type { TokenUser } from '../user-snapshot.js';
import type { LockedSession, NewSession, SessionRepository } from './auth-store.js';
import type { TenantTx } from './tenant-tx.js';

/**
 * The common rotation in one statement (see `rotateCurrent`), named so each connection plans it
 * once. $1 the presented token's hash; $2-$6 the successor's id, hash, expiry, ip and user agent;
 * $7 the client the token must belong to (null: an /api/user sign-in).
 */
const ROTATE_CURRENT = {
  name: 'rotate-current-session-v3',
  text: `
    WITH current AS (
      SELECT id, user_id, family_id, client_id FROM platform_auth.sessions
       WHERE token_hash = $1 AND rotated_at IS NULL AND revoked_at IS NULL AND expires_at > now()
         AND client_id IS NOT DISTINCT FROM $7::text
         FOR UPDATE
    ), successor AS (
      INSERT INTO platform_auth.sessions (id, user_id, family_id, token_hash, expires_at, ip, user_agent, client_id)
      SELECT $2::uuid, user_id, family_id, $3, $4, $5, $6, client_id FROM current
    ), rotated AS (
      UPDATE platform_auth.sessions AS s SET rotated_at = now(), replaced_by_id = $2::uuid
        FROM current WHERE s.id = current.id
    )
    SELECT current.family_id, u.id, u.email, u.name, u.picture, u.email_verified
      FROM current JOIN platform_auth.users AS u ON u.id = current.user_id`,
};

export class PrismaSessionRepository implements SessionRepository {
  /** `root`: the tenant client itself, whose node-postgres pool runs the one-statement rotation. */
  constructor(
    private readonly db: TenantTx,
    private readonly root: TenantClient,
  ) {}

  async create(session: NewSession): Promise<{ id: string }> {
    return this.db.session.create({ data: session, select: { id: true } });
  }

  /**
   * One round trip, its own transaction, through node-postgres (no Prisma on the hot path). A
   * concurrent presentation of the same token waits for the row lock and then no longer matches
   * (READ COMMITTED re-checks the locked row).
   */
  async rotateCurrent(
    tokenHash: string,
    successor: Omit<NewSession, 'userId' | 'familyId' | 'clientId'> & { id: string },
    clientId: string | null,
  ): Promise<{ familyId: string; user: TokenUser } | undefined> {
    const { rows } = await sqlPool(this.root).query<{
      family_id: string;
      id: string;
      email: string;
      name: string | null;
      picture: string | null;
      email_verified: boolean;
    }>(
      hotStatement({
        ...ROTATE_CURRENT,
        values: [
          tokenHash,
          successor.id,
          successor.tokenHash,
          successor.expiresAt,
          successor.ip,
          successor.userAgent,
          clientId,
        ],
      }),
    );
    const found = rows[0];
    if (!found) return undefined;
    return {
      familyId: found.family_id,
      user: {
        id: found.id,
        email: found.email,
        name: found.name,
        picture: found.picture,
        emailVerified: found.email_verified,
      },
    };
  }

  async lockByTokenHash(tokenHash: string): Promise<LockedSession | undefined> {
    const rows = await this.db.$queryRaw<
      {
        id: string;
        user_id: string;
        family_id: string;
        rotated_at: Date | null;
        revoked_at: Date | null;
        expires_at: Date;
        client_id: string | null;
      }[]
    >`SELECT id, user_id, family_id, rotated_at, revoked_at, expires_at, client_id
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
      clientId: row.client_id,
    };
  }

  async markRotated(id: string, rotatedAt: Date, replacedById: string): Promise<void> {
    await this.db.session.update({ where: { id }, data: { rotatedAt, replacedById } });
  }

  async revokeFamily(familyId: string, at: Date): Promise<void> {
    await this.db.session.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: at } });
  }

  async revokeAllOf(userId: string, at: Date): Promise<void> {
    await this.db.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: at } });
  }

  async openedFrom(userId: string, ip: string): Promise<boolean> {
    return (await this.db.session.findFirst({ where: { userId, ip }, select: { id: true } })) !== null;
  }

  async familyLive(userId: string, familyId: string, now: Date): Promise<boolean> {
    const live = await this.db.session.findFirst({
      where: { familyId, userId, revokedAt: null, expiresAt: { gt: now } },
      select: { id: true },
    });
    return live !== null;
  }
}
