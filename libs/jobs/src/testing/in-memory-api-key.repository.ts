import { randomUUID } from 'node:crypto';
import { ApiKeyRepository, type ApiKeyRecord } from '../api-key.repository.js';

/** The API keys table in memory, for unit tests of the services above it. */
export class InMemoryApiKeyRepository extends ApiKeyRepository {
  readonly rows: (ApiKeyRecord & { hash: string })[] = [];

  findByHash(hash: string) {
    return Promise.resolve(this.rows.find((row) => row.hash === hash) ?? null);
  }

  touch(id: string): Promise<void> {
    const row = this.rows.find((r) => r.id === id);
    if (row) row.lastUsedAt = new Date();
    return Promise.resolve();
  }

  insert(key: { owner: string; name: string; prefix: string; hash: string }): Promise<{ id: string }> {
    const row = { id: randomUUID(), ...key, createdAt: new Date(), revokedAt: null, lastUsedAt: null };
    this.rows.unshift(row);
    return Promise.resolve({ id: row.id });
  }

  revoke(match: { id: string } | { prefix: string }): Promise<number> {
    const hits = this.rows.filter(
      (row) => !row.revokedAt && ('id' in match ? row.id === match.id : row.prefix === match.prefix),
    );
    for (const row of hits) row.revokedAt = new Date();
    return Promise.resolve(hits.length);
  }

  list(owner?: string): Promise<ApiKeyRecord[]> {
    return Promise.resolve(
      this.rows.filter((row) => !owner || row.owner === owner).map(({ hash: _hash, ...row }) => row),
    );
  }
}
