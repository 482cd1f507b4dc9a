import { describe, expect, it } from '@jest/globals';
import { AuthSecrets, looksLikeToken, randomToken, sha256Hex } from './auth-secrets.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';

describe('AuthSecrets', () => {
  const secrets = new AuthSecrets(SECRET);

  it('refuses a short secret', () => {
    expect(() => new AuthSecrets('short')).toThrow(/at least 32/);
  });

  it('seals and opens, bound to the purpose and the aad', () => {
    const sealed = secrets.seal('signing-key-seal', 'private bytes', 'project-a:kid-1');
    expect(sealed).not.toContain('private');
    expect(secrets.open('signing-key-seal', sealed, 'project-a:kid-1')?.toString()).toBe('private bytes');
    expect(secrets.open('signing-key-seal', sealed, 'project-b:kid-1')).toBeUndefined();
    expect(secrets.open('refresh-grace-seal', sealed, 'project-a:kid-1')).toBeUndefined();
    expect(new AuthSecrets(`${SECRET}x`).open('signing-key-seal', sealed, 'project-a:kid-1')).toBeUndefined();
  });

  it('detects tampering', () => {
    const sealed = Buffer.from(secrets.seal('refresh-grace-seal', 'pair', 'k'), 'base64url');
    sealed[14] = sealed[14]! ^ 1;
    expect(secrets.open('refresh-grace-seal', sealed.toString('base64url'), 'k')).toBeUndefined();
    expect(secrets.open('refresh-grace-seal', 'AAAA', 'k')).toBeUndefined();
  });

  it('uses a fresh nonce for every seal', () => {
    expect(secrets.seal('refresh-grace-seal', 'same', 'k')).not.toBe(
      secrets.seal('refresh-grace-seal', 'same', 'k'),
    );
  });

  it('keys the code HMAC with the secret and separates its parts', () => {
    const mac = secrets.hmacHex('nonce-hmac', 'project', 'magic_link', 'code');
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    expect(mac).toBe(secrets.hmacHex('nonce-hmac', 'project', 'magic_link', 'code'));
    expect(mac).not.toBe(
      new AuthSecrets(`${SECRET}x`).hmacHex('nonce-hmac', 'project', 'magic_link', 'code'),
    );
    expect(mac).not.toBe(secrets.hmacHex('nonce-hmac', 'project', 'forgot_password', 'code'));
    expect(secrets.hmacHex('nonce-hmac', 'ab', 'c')).not.toBe(secrets.hmacHex('nonce-hmac', 'a', 'bc'));
    expect(mac).not.toBe(sha256Hex('code'));
  });

  it('derives a development secret from the admin token when AUTH_SECRET is unset', () => {
    const a = AuthSecrets.fromConfig({ PLATFORM_ADMIN_TOKEN: 'admin-token-0123456789' });
    const b = AuthSecrets.fromConfig({ PLATFORM_ADMIN_TOKEN: 'admin-token-0123456789' });
    const c = AuthSecrets.fromConfig({ PLATFORM_ADMIN_TOKEN: 'admin-token-9876543210' });
    expect(a.hmacHex('nonce-hmac', 'x')).toBe(b.hmacHex('nonce-hmac', 'x'));
    expect(a.hmacHex('nonce-hmac', 'x')).not.toBe(c.hmacHex('nonce-hmac', 'x'));
    const explicit = AuthSecrets.fromConfig({
      PLATFORM_ADMIN_TOKEN: 'admin-token-0123456789',
      AUTH_SECRET: SECRET,
    });
    expect(explicit.hmacHex('nonce-hmac', 'x')).toBe(secrets.hmacHex('nonce-hmac', 'x'));
  });
});

describe('tokens', () => {
  it('are 256 random bits in base64url', () => {
    const tokens = new Set(Array.from({ length: 100 }, randomToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(looksLikeToken(token)).toBe(true);
    expect(looksLikeToken('x'.repeat(42))).toBe(false);
    expect(looksLikeToken(`${'x'.repeat(42)}=`)).toBe(false);
  });
});
