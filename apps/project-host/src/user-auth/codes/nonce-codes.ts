import { Injectable } from '@nestjs/common';
import type { NonceKind } from '@suite/db';
import { Clock } from '../../platform/clock.js';
import { AuthSecrets, looksLikeToken, randomToken } from '@suite/project-runtime';
import type { AuthStore, CodeRecord } from '../store/auth-store.js';

export interface IssueCode {
  kind: NonceKind;
  userId: string;
  /** Where the code is mailed; for an email change, the new address. */
  email: string;
  ttlMs: number;
  redirectUri?: string;
}

/**
 * Single-use codes sent by mail (magic link, forgot password, email change): 256 bits from the
 * CSPRNG, stored only as an HMAC keyed with AUTH_SECRET over the project, the purpose and the code,
 * so a code is worthless for another project or purpose and a database leak reveals none. A user
 * has at most one live code per purpose: a newer one replaces the older. Consumption is a single
 * conditional write, so of two concurrent uses exactly one wins.
 */
@Injectable()
export class NonceCodes {
  constructor(
    private readonly secrets: AuthSecrets,
    private readonly clock: Clock,
  ) {}

  async issue(store: AuthStore, projectId: string, input: IssueCode): Promise<string> {
    const code = randomToken();
    const now = this.clock.now();
    await store.codes.replace(
      {
        userId: input.userId,
        kind: input.kind,
        codeHash: this.hash(projectId, input.kind, code),
        email: input.email,
        expiresAt: new Date(now.getTime() + input.ttlMs),
        redirectUri: input.redirectUri ?? null,
      },
      now,
    );
    return code;
  }

  /** Marks the code used and returns its row, or null when it is unknown, used, expired or of another purpose. */
  async consume(
    store: AuthStore,
    projectId: string,
    kind: NonceKind,
    code: string,
  ): Promise<CodeRecord | null> {
    if (!looksLikeToken(code)) return null;
    return store.codes.consume(this.hash(projectId, kind, code), kind, this.clock.now());
  }

  /** The row of a code whatever its state (to name the user of a failed attempt), or null. */
  async find(store: AuthStore, projectId: string, kind: NonceKind, code: string): Promise<CodeRecord | null> {
    if (!looksLikeToken(code)) return null;
    return store.codes.findByHash(this.hash(projectId, kind, code));
  }

  /** Voids a user's live codes of one purpose (e.g. a pending email change that was superseded). */
  async voidAll(store: AuthStore, userId: string, kind: NonceKind): Promise<void> {
    await store.codes.voidLive(userId, kind);
  }

  private hash(projectId: string, kind: NonceKind, code: string): string {
    return this.secrets.hmacHex('nonce-hmac', projectId, kind, code);
  }
}
