import { describe, expect, it } from '@jest/globals';
import { SESSION_FAMILY, TOKEN_AUDIENCE, TOKEN_USER, tokensOverTime } from '../testing/fakes.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../user-auth.constants.js';
import { CLOCK_TOLERANCE_S } from './access-tokens.js';

// Access tokens over time, on in-memory signing keys and a clock the spec moves (what they accept
// and refuse otherwise is signing-key.store.spec.ts's).

const audience = TOKEN_AUDIENCE;
const user = TOKEN_USER;
const family = SESSION_FAMILY;

describe('AccessTokens over time', () => {
  it('says who the token is for, for 15 minutes (and the clock tolerance), then nothing', async () => {
    const { clock, tokens } = tokensOverTime();
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
