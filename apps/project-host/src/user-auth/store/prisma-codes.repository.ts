import type { NonceKind, TenantClient } from '@suite/db';
import type { CodeRecord, CodeRepository, NewCode } from './auth-store.js';
import type { TenantTx } from './tenant-tx.js';

const DAY_MS = 24 * 3600_000;

export class PrismaCodeRepository implements CodeRepository {
  /** `root` is the tenant client outside a transaction (undefined inside one). */
  constructor(
    private readonly db: TenantTx,
    private readonly root: TenantClient | undefined,
    private readonly txOptions: { maxWait: number; timeout: number },
  ) {}

  async replace(code: NewCode, now: Date): Promise<void> {
    const drop = {
      where: {
        userId: code.userId,
        OR: [{ kind: code.kind, consumedAt: null }, { expiresAt: { lt: new Date(now.getTime() - DAY_MS) } }],
      },
    };
    if (this.root) {
      await this.root.$transaction(
        [this.root.nonce.deleteMany(drop), this.root.nonce.create({ data: code })],
        this.txOptions,
      );
      return;
    }
    await this.db.nonce.deleteMany(drop);
    await this.db.nonce.create({ data: code });
  }

  async consume(codeHash: string, kind: NonceKind, now: Date): Promise<CodeRecord | null> {
    // One conditional UPDATE: of two concurrent uses exactly one matches.
    const [row] = await this.db.nonce.updateManyAndReturn({
      where: { codeHash, kind, consumedAt: null, expiresAt: { gt: now } },
      data: { consumedAt: now },
    });
    return row ?? null;
  }

  findByHash(codeHash: string): Promise<CodeRecord | null> {
    return this.db.nonce.findUnique({ where: { codeHash } });
  }

  async voidLive(userId: string, kind: NonceKind): Promise<void> {
    await this.db.nonce.deleteMany({ where: { userId, kind, consumedAt: null } });
  }
}
