import { describe, expect, it } from '@jest/globals';
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

  it('answers false, after the same bcrypt work, when there is no hash to compare', async () => {
    const hash = await hasher.hash('correct horse battery');
    const median = async (run: () => Promise<boolean>) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        expect(await run()).toBe(false);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    const wrong = await median(() => hasher.verify('nope nope nope', hash));
    const missing = await median(() => hasher.verify('nope nope nope', null));
    // bcrypt at cost 10 takes tens of milliseconds; a skipped comparison would take microseconds
    // (the 5 ms floor keeps a busy machine, which slows some runs more than others, from failing it).
    expect(missing).toBeGreaterThan(Math.min(wrong * 0.3, 5));
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
