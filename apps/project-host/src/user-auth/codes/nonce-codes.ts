import { Injectable } from '@nestjs/common';
import type { NonceKind, TenantClient, TenantDb } from '@suite/db';
import { AuthSecrets, looksLikeToken, randomToken } from '../crypto/auth-secrets.js';
import { TX_OPTIONS } from '../user-auth.constants.js';

/** A tenant client or an interactive transaction on it. */
export type TenantTx = TenantDb.Prisma.TransactionClient;

export interface IssueCode {
  kind: NonceKind;
  userId: string;
  /** Where the code is mailed; for an email change, the new address. */
  email: string;
  ttlMs: number;
  redirectUri?: string;
}

/**
 * Single-use codes sent by mail (magic link, forgot password, email change): 256 bits from the
 * CSPRNG, stored only as an HMAC keyed with AUTH_SECRET over the project, the purpose and the code,
 * so a code is worthless for another project or purpose and a database leak reveals none. A user
 * has at most one live code per purpose: a newer one replaces the older. Consumption is a single
 * conditional UPDATE, so of two concurrent uses exactly one wins.
 */
@Injectable()
export class NonceCodes {
  constructor(private readonly secrets: AuthSecrets) {}

  async issue(tenant: TenantClient, projectId: string, input: IssueCode): Promise<string> {
    const code = randomToken();
    const now = Date.now();
    await tenant.$transaction(
      [
        tenant.nonce.deleteMany({
          where: {
            userId: input.userId,
            OR: [
              { kind: input.kind, consumedAt: null },
              { expiresAt: { lt: new Date(now - 24 * 3600_000) } },
            ],
          },
        }),
        tenant.nonce.create({
          data: {
            userId: input.userId,
            kind: input.kind,
            codeHash: this.hash(projectId, input.kind, code),
            email: input.email,
            expiresAt: new Date(now + input.ttlMs),
            redirectUri: input.redirectUri ?? null,
          },
        }),
      ],
      TX_OPTIONS,
    );
    return code;
  }

  /** Marks the code used and returns its row, or null when it is unknown, used, expired or of another purpose. */
  async consume(
    tx: TenantTx,
    projectId: string,
    kind: NonceKind,
    code: string,
  ): Promise<TenantDb.Nonce | null> {
    if (!looksLikeToken(code)) return null;
    const now = new Date();
    const [row] = await tx.nonce.updateManyAndReturn({
      where: { codeHash: this.hash(projectId, kind, code), kind, consumedAt: null, expiresAt: { gt: now } },
      data: { consumedAt: now },
    });
    return row ?? null;
  }

  /** The row of a code whatever its state (to name the user of a failed attempt), or null. */
  async find(
    tenant: TenantClient,
    projectId: string,
    kind: NonceKind,
    code: string,
  ): Promise<TenantDb.Nonce | null> {
    if (!looksLikeToken(code)) return null;
    return tenant.nonce.findUnique({ where: { codeHash: this.hash(projectId, kind, code) } });
  }

  /** Voids a user's live codes of one purpose (e.g. a pending email change that was superseded). */
  async voidAll(tx: TenantTx, userId: string, kind: NonceKind): Promise<void> {
    await tx.nonce.deleteMany({ where: { userId, kind, consumedAt: null } });
  }

  private hash(projectId: string, kind: NonceKind, code: string): string {
    return this.secrets.hmacHex('nonce-hmac', projectId, kind, code);
  }
}
