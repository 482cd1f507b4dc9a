import { describe, expect, it } from '@jest/globals';
import { AuthSecrets } from '@suite/project-runtime';
import { SESSION_FAMILY, TOKEN_AUDIENCE, TOKEN_USER, tokensOverTime } from '../testing/fakes.js';
import { ACCESS_TOKEN_TTL_SECONDS, SIGNING_KEY_ROTATE_AFTER_MS } from '../user-auth.constants.js';
import { AccessTokens } from './access-tokens.js';
import { SigningKeyStore } from './signing-key.store.js';

// A project's signing keys over time, on in-memory rows and a clock the spec moves (the races and
// the database are signing-key.store.spec.ts's).

const audience = TOKEN_AUDIENCE;
const user = TOKEN_USER;
const setup = () => tokensOverTime();

describe('SigningKeyStore over time', () => {
  it('keeps one key until it is 90 days old, then signs with the next generation', async () => {
    const { clock, rows, keys } = setup();
    const first = await keys.signingKey(audience.projectId);
    clock.advance(SIGNING_KEY_ROTATE_AFTER_MS - 60_000);
    expect((await keys.signingKey(audience.projectId)).kid).toBe(first.kid);
    clock.advance(120_000);
    const second = await keys.signingKey(audience.projectId);
    expect(second).toMatchObject({ generation: 2 });
    expect(rows.rows.map((row) => [row.generation, row.retiredAt !== null])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('lets a retired key verify the tokens it signed for their lifetime and a minute, then no more', async () => {
    const { clock, keys } = setup();
    const token = await new AccessTokens(keys, clock).issue(audience, user, SESSION_FAMILY);
    const { kid } = await keys.signingKey(audience.projectId);
    await keys.rotate(audience.projectId);
    await expect(new AccessTokens(keys, clock).verify(audience, token)).resolves.toMatchObject({
      sub: user.id,
    });
    clock.advance(ACCESS_TOKEN_TTL_SECONDS * 1000 + 59_000);
    await expect(keys.verificationKey(audience.projectId, kid)).resolves.toMatchObject({ kid });
    clock.advance(2_000);
    await expect(keys.verificationKey(audience.projectId, kid)).resolves.toBeUndefined();
  });

  it('does not hand out a key that does not open with the current secret; a new one signs', async () => {
    const { rows, clock } = setup();
    const before = new SigningKeyStore(
      rows,
      new AuthSecrets('signing-key-unit-test-secret-0123456789'),
      clock,
    );
    const old = await before.signingKey(audience.projectId);
    const after = new SigningKeyStore(rows, new AuthSecrets('another-secret-altogether-0123456789'), clock);
    const next = await after.signingKey(audience.projectId);
    expect(next.kid).not.toBe(old.kid);
    expect(next.generation).toBe(2);
  });
});
