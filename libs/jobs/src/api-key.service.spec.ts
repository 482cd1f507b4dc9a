import { describe, expect, it } from '@jest/globals';
import { RunnerError } from '@suite/errors';
import { ApiKeyService, ENV_KEYS_OWNER } from './api-key.service.js';
import { InMemoryApiKeyRepository } from './testing/index.js';

/** The message a call was refused with. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof RunnerError) return error.message;
    throw error;
  }
  throw new Error('the call succeeded');
}

describe('ApiKeyService', () => {
  it('accepts a key from API_KEYS as the default owner’s, and a created key as its owner’s', async () => {
    const keys = new ApiKeyService(new InMemoryApiKeyRepository(), ['env-key']);
    expect(await keys.authenticate('env-key')).toEqual({ owner: ENV_KEYS_OWNER, keyId: 'env' });
    const created = await keys.create('ada', 'ci');
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(await keys.authenticate(created.key)).toEqual({ owner: 'ada', keyId: created.id });
  });

  it('stores only the hash of a created key and shows no hash in lists', async () => {
    const repository = new InMemoryApiKeyRepository();
    const keys = new ApiKeyService(repository, []);
    const created = await keys.create('ada');
    expect(repository.rows[0]!.hash).not.toContain(created.key);
    expect(await keys.list('ada')).toEqual([expect.not.objectContaining({ hash: expect.anything() })]);
  });

  it('refuses a missing, unknown or revoked key, a revoked one at once despite the cache', async () => {
    const keys = new ApiKeyService(new InMemoryApiKeyRepository(), []);
    expect(await refusal(keys.authenticate(undefined))).toBe(
      'An API key is required: send it as "Authorization: Bearer <key>" or "X-API-Key: <key>".',
    );
    expect(await refusal(keys.authenticate('sk_unknown'))).toBe('The API key is not valid or was revoked.');
    const created = await keys.create('ada');
    await keys.authenticate(created.key);
    expect(await keys.revoke(created.prefix)).toBe(1);
    expect(await refusal(keys.authenticate(created.key))).toBe('The API key is not valid or was revoked.');
  });

  it('reads the key from a Bearer authorization header, else from X-API-Key', () => {
    expect(ApiKeyService.keyFromHeaders({ authorization: 'Bearer  sk_a ' })).toBe('sk_a');
    expect(ApiKeyService.keyFromHeaders({ 'x-api-key': 'sk_b' })).toBe('sk_b');
    expect(ApiKeyService.keyFromHeaders({ authorization: 'Basic xyz' })).toBeUndefined();
  });
});
