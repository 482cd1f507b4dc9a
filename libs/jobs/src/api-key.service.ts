import { RunnerError, RunnerErrorCode } from '@suite/errors';
import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyRecord, ApiKeyRepository } from './api-key.repository.js';

export interface Principal {
  owner: string;
  /** The key's database id, or `env` for keys from API_KEYS. */
  keyId: string;
}

export interface CreatedApiKey {
  id: string;
  owner: string;
  name: string;
  prefix: string;
  /** Shown once; only its hash is stored. */
  key: string;
}

/** Keys given in API_KEYS all belong to this owner. */
export const ENV_KEYS_OWNER = 'default';

const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * API keys of `/v1`, `/a2a` and `/mcp`. Keys are stored as SHA-256 hashes. Successful lookups are
 * cached for a few seconds so a busy client costs no database round trip per request; a revoked
 * key therefore stops working within `cacheTtlMs`.
 */
export class ApiKeyService {
  private readonly envHashes: Set<string>;
  private readonly cache = new Map<string, { principal: Principal; until: number }>();

  constructor(
    private readonly keys: ApiKeyRepository,
    envKeys: readonly string[],
    private readonly cacheTtlMs = 10_000,
  ) {
    this.envHashes = new Set(envKeys.map(hashKey));
  }

  /** Reads `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
  static keyFromHeaders(headers: Record<string, string | string[] | undefined>): string | undefined {
    const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
    const auth = single(headers.authorization);
    const bearer = auth?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
    return bearer || single(headers['x-api-key'])?.trim() || undefined;
  }

  async authenticate(key: string | undefined): Promise<Principal> {
    if (!key) {
      throw new RunnerError(
        RunnerErrorCode.Unauthorized,
        'An API key is required: send it as "Authorization: Bearer <key>" or "X-API-Key: <key>".',
      );
    }
    const hash = hashKey(key);
    const cached = this.cache.get(hash);
    if (cached && cached.until > Date.now()) return cached.principal;

    let principal: Principal | undefined;
    if (this.envHashes.has(hash)) principal = { owner: ENV_KEYS_OWNER, keyId: 'env' };
    else {
      const row = await this.keys.findByHash(hash);
      if (row && !row.revokedAt) {
        principal = { owner: row.owner, keyId: row.id };
        void this.keys.touch(row.id).catch(() => undefined);
      }
    }
    if (!principal)
      throw new RunnerError(RunnerErrorCode.Unauthorized, 'The API key is not valid or was revoked.');
    this.cache.set(hash, { principal, until: Date.now() + this.cacheTtlMs });
    if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value!);
    return principal;
  }

  async create(owner: string, name = 'default'): Promise<CreatedApiKey> {
    if (!/^[\w.@-]{1,100}$/.test(owner)) throw new Error('owner must be 1-100 letters, digits, or . _ @ -');
    const key = `sk_${randomBytes(24).toString('base64url')}`;
    const prefix = key.slice(0, 10);
    const { id } = await this.keys.insert({ owner, name, prefix, hash: hashKey(key) });
    return { id, owner, name, prefix, key };
  }

  /** Revokes by id or by the key's visible prefix; returns how many keys were revoked. */
  async revoke(idOrPrefix: string): Promise<number> {
    const match = /^[0-9a-f-]{36}$/i.test(idOrPrefix) ? { id: idOrPrefix } : { prefix: idOrPrefix };
    const count = await this.keys.revoke(match);
    this.cache.clear();
    return count;
  }

  list(owner?: string): Promise<ApiKeyRecord[]> {
    return this.keys.list(owner);
  }
}
