import bcrypt from 'bcrypt';
import { randomBytes } from 'node:crypto';
import { normalizePassword, PASSWORD_MAX_BYTES } from './password-policy.js';

/**
 * bcrypt (the `bcrypt` package: native, off the event loop on libuv's threadpool) at a
 * configurable cost. A missing account or an account without a password is compared against a
 * dummy hash of the same cost, so a login for an unknown email costs as much as a wrong password
 * and timing tells nothing.
 */
export class PasswordHasher {
  private readonly dummyHash: string;

  constructor(private readonly cost: number) {
    this.dummyHash = bcrypt.hashSync(randomBytes(18).toString('base64'), cost);
  }

  /** Hash of a password that already passed passwordProblem(). */
  hash(password: string): Promise<string> {
    const normalized = normalizePassword(password);
    // bcrypt reads only the first 72 bytes: a longer password would share its hash with others.
    if (Buffer.byteLength(normalized, 'utf8') > PASSWORD_MAX_BYTES) {
      return Promise.reject(new Error(`passwords longer than ${PASSWORD_MAX_BYTES} bytes are refused`));
    }
    return bcrypt.hash(normalized, this.cost);
  }

  /** Whether `password` matches `stored`; spends the same time when there is nothing to match. */
  async verify(password: string, stored: string | null | undefined): Promise<boolean> {
    const normalized = normalizePassword(password);
    // Longer passwords were never accepted; bcrypt would compare only their first 72 bytes.
    const tooLong = Buffer.byteLength(normalized, 'utf8') > PASSWORD_MAX_BYTES;
    const usable = stored && !tooLong ? stored : this.dummyHash;
    const matches = await bcrypt
      .compare(tooLong ? normalized.slice(0, 72) : normalized, usable)
      .catch(() => false);
    return matches && usable === stored;
  }

  /** Whether a stored hash is weaker than today's cost (upgraded at the next successful login). */
  needsRehash(stored: string): boolean {
    try {
      return bcrypt.getRounds(stored) < this.cost;
    } catch {
      return true;
    }
  }
}
