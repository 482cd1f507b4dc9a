import { describe, expect, it, jest } from '@jest/globals';
import bcrypt from 'bcrypt';
import { PasswordHasher } from './password-hasher.js';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher(10);

  it('hashes with bcrypt at the configured cost and verifies', async () => {
    const hash = await hasher.hash('correct horse battery');
    expect(hash).toMatch(/^\$2b\$10\$.{53}$/);
    await expect(hasher.verify('correct horse battery', hash)).resolves.toBe(true);
    await expect(hasher.verify('correct horse batterY', hash)).resolves.toBe(false);
  });

  it('verifies the same password typed in another Unicode form', async () => {
    const hash = await hasher.hash('caf\u00e9-au-lait-42');
    await expect(hasher.verify('cafe\u0301-au-lait-42', hash)).resolves.toBe(true);
  });

  it('answers false after the same bcrypt work when there is no hash to compare (no timing oracle)', async () => {
    const hash = await hasher.hash('correct horse battery');
    // Counted, not timed: one comparison against a hash of the configured cost in every case.
    const compare = jest.spyOn(bcrypt, 'compare');
    try {
      for (const stored of [hash, null, undefined, '']) {
        compare.mockClear();
        await expect(hasher.verify('nope nope nope', stored)).resolves.toBe(false);
        expect(compare).toHaveBeenCalledTimes(1);
        const [, against] = compare.mock.calls[0] as unknown as [string, string];
        expect({ stored, rounds: bcrypt.getRounds(against) }).toEqual({ stored, rounds: 10 });
      }
      compare.mockClear();
      await expect(hasher.verify('y'.repeat(80), hash)).resolves.toBe(false);
      expect(compare).toHaveBeenCalledTimes(1);
    } finally {
      compare.mockRestore();
    }
  });

  it('never matches a password longer than 72 bytes, even when its first 72 bytes match', async () => {
    const base = 'x'.repeat(72);
    const hash = await new PasswordHasher(10).hash('x'.repeat(70) + 'ab');
    await expect(hasher.verify(`${base}-and-more`, hash)).resolves.toBe(false);
  });

  it("asks for a rehash when a stored hash is cheaper than today's cost", async () => {
    const old = await new PasswordHasher(4).hash('correct horse battery');
    expect(hasher.needsRehash(old)).toBe(true);
    expect(hasher.needsRehash(await hasher.hash('correct horse battery'))).toBe(false);
    expect(hasher.needsRehash('not-a-hash')).toBe(true);
  });
});
