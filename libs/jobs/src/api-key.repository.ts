import type { MainClient, MainDb } from '@suite/db';

/** A stored key as listed: everything but its hash. */
export type ApiKeyRecord = Omit<MainDb.ApiKey, 'hash'>;

/** The API keys table: keys are found by the SHA-256 of their text, never stored in clear. */
export abstract class ApiKeyRepository {
  abstract findByHash(hash: string): Promise<{ id: string; owner: string; revokedAt: Date | null } | null>;
  /** Best effort: when the key was last used. */
  abstract touch(id: string): Promise<void>;
  abstract insert(key: {
    owner: string;
    name: string;
    prefix: string;
    hash: string;
  }): Promise<{ id: string }>;
  /** Revokes the unrevoked keys with this id, or with this visible prefix; how many. */
  abstract revoke(match: { id: string } | { prefix: string }): Promise<number>;
  /** Newest first; every owner's when `owner` is not given. */
  abstract list(owner?: string): Promise<ApiKeyRecord[]>;
}

export class PrismaApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly db: MainClient) {
    super();
  }

  findByHash(hash: string) {
    return this.db.apiKey.findUnique({ where: { hash }, select: { id: true, owner: true, revokedAt: true } });
  }

  async touch(id: string): Promise<void> {
    await this.db.apiKey.update({ where: { id }, data: { lastUsedAt: new Date() } });
  }

  insert(key: { owner: string; name: string; prefix: string; hash: string }): Promise<{ id: string }> {
    return this.db.apiKey.create({ data: key, select: { id: true } });
  }

  async revoke(match: { id: string } | { prefix: string }): Promise<number> {
    const { count } = await this.db.apiKey.updateMany({
      where: { ...match, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    return count;
  }

  list(owner?: string): Promise<ApiKeyRecord[]> {
    return this.db.apiKey.findMany({
      where: owner ? { owner } : {},
      orderBy: { createdAt: 'desc' },
      select: {
        id: true,
        owner: true,
        name: true,
        prefix: true,
        createdAt: true,
        revokedAt: true,
        lastUsedAt: true,
      },
    });
  }
}
