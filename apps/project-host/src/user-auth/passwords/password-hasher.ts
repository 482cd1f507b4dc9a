import { hash, hashSync, parseOptions, verify } from '@node-rs/bcrypt';
import { randomBytes } from 'node:crypto';
import { normalizePassword, PASSWORD_MAX_BYTES } from './password-policy.js';

/**
 * bcrypt (via @node-rs/bcrypt, off the event loop) at a configurable cost. A missing account or an
 * account without a password is compared against a dummy hash of the same cost, so a login for an
 * unknown email costs as much as a wrong password and timing tells nothing.
 */
export class PasswordHasher {
  private readonly dummyHash: string;

  constructor(private readonly cost: number) {
    this.dummyHash = hashSync(randomBytes(18).toString('base64'), { cost });
  }

  /** Hash of a password that already passed passwordProblem(). */
  hash(password: string): Promise<string> {
    return hash(normalizePassword(password), { cost: this.cost, rejectLongPasswords: true });
  }

  /** Whether `password` matches `stored`; spends the same time when there is nothing to match. */
  async verify(password: string, stored: string | null | undefined): Promise<boolean> {
    const normalized = normalizePassword(password);
    // Longer passwords were never accepted; bcrypt would compare only their first 72 bytes.
    const tooLong = Buffer.byteLength(normalized, 'utf8') > PASSWORD_MAX_BYTES;
    const usable = stored && !tooLong ? stored : this.dummyHash;
    const matches = await verify(tooLong ? normalized.slice(0, 72) : normalized, usable);
    return matches && usable === stored;
  }

  /** Whether a stored hash is weaker than today's cost (upgraded at the next successful login). */
  needsRehash(stored: string): boolean {
    try {
      return parseOptions(stored).cost < this.cost;
    } catch {
      return true;
    }
  }
}
