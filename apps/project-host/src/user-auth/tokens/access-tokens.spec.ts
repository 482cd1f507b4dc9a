import { describe, expect, it } from '@jest/globals';
import { AuthSecrets } from '../crypto/auth-secrets.js';
import { FakeClock, InMemorySigningKeys } from '../testing/fakes.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../user-auth.constants.js';
import { AccessTokens, CLOCK_TOLERANCE_S } from './access-tokens.js';
import { SigningKeyStore } from './signing-key.store.js';

// Access tokens over time, on in-memory signing keys and a clock the spec moves (what they accept
// and refuse otherwise is signing-key.store.spec.ts's).

const audience = { projectId: '0190c1a2-0000-7000-8000-000000000001', issuer: 'https://acme.example.test' };
const user = {
  id: '0190c1a2-0000-7000-8000-0000000000aa',
  email: 'ada@example.com',
  name: 'Ada',
  picture: null,
  emailVerified: false,
};
const family = '0190c1a2-0000-7000-8000-0000000000bb';

function setup() {
  const clock = new FakeClock();
  const keys = new SigningKeyStore(
    new InMemorySigningKeys(),
    new AuthSecrets('access-token-unit-test-secret-0123456789'),
    clock,
  );
  return { clock, tokens: new AccessTokens(keys, clock) };
}

describe('AccessTokens over time', () => {
  it('says who the token is for, for 15 minutes (and the clock tolerance), then nothing', async () => {
    const { clock, tokens } = setup();
    const token = await tokens.issue(audience, user, family);
    const claims = await tokens.verify(audience, token);
    expect(claims).toMatchObject({
      sub: user.id,
      sid: family,
      email: 'ada@example.com',
      email_verified: false,
    });
    expect(claims!.exp - claims!.iat).toBe(ACCESS_TOKEN_TTL_SECONDS);

    clock.advance((ACCESS_TOKEN_TTL_SECONDS + CLOCK_TOLERANCE_S - 1) * 1000);
    await expect(tokens.verify(audience, token)).resolves.toMatchObject({ sub: user.id });
    clock.advance(2_000);
    // The token was verified before: the process's cache of verified tokens expires it too.
    await expect(tokens.verify(audience, token)).resolves.toBeUndefined();
  });
});
