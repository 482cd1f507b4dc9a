import { Injectable } from '@nestjs/common';
import { NonceCodes } from '../codes/nonce-codes.js';
import type { AuthStore, UserRecord } from '../store/auth-store.js';
import { RefreshSessions } from '../tokens/refresh-sessions.js';

export interface ClaimOutcome {
  user: UserRecord;
  /** True when the account's address had never been proven and it now belongs to the prover. */
  claimed: boolean;
}

/**
 * Account pre-hijacking: anyone can register (or sign in with a provider that does not verify)
 * someone else's address first. When the address is later proven (a mailed code, or a provider
 * that verified it) and the account's address never was, whoever set the account up is not
 * trusted with it: the account is claimed by the prover. Its password is cleared, every session
 * and every linked identity is dropped, a pending email change is voided, and the address is
 * marked proven. The account keeps its id (the project should treat a claim as a new owner of it).
 */
@Injectable()
export class AccountClaims {
  constructor(
    private readonly sessions: RefreshSessions,
    private readonly codes: NonceCodes,
  ) {}

  /** Inside the caller's transaction; on `claimed`, call `sessions.signedOutEverywhere` once it committed. */
  async proveAddress(tx: AuthStore, user: UserRecord): Promise<ClaimOutcome> {
    if (user.emailVerified) return { user, claimed: false };
    await this.sessions.revokeAllOf(tx, user.id);
    await tx.identities.unlinkAllOf(user.id);
    await this.codes.voidAll(tx, user.id, 'email_change');
    const row = await tx.users.update(user.id, {
      passwordHash: null,
      pendingEmail: null,
      emailVerified: true,
    });
    return { user: row, claimed: true };
  }
}
