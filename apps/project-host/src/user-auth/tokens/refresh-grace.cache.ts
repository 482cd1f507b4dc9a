import { Injectable } from '@nestjs/common';
import { queuePrefix } from '@suite/queue';
import { EphemeralStore } from '../../platform/ephemeral-store.js';
import { AuthSecrets } from '@suite/project-runtime';
import type { TokenPair } from './token-pair.js';

/**
 * The successor pair of a just-rotated refresh token, kept for the reuse grace window so racing
 * tabs that present the same token get the same pair (EphemeralStore: Redis). Keyed by the old token's hash and sealed
 * (AES-256-GCM, bound to the key), so Redis never holds a usable token in clear.
 */
@Injectable()
export class RefreshGraceCache {
  constructor(
    private readonly store: EphemeralStore,
    private readonly secrets: AuthSecrets,
  ) {}

  async put(projectId: string, oldTokenHash: string, pair: TokenPair, windowMs: number): Promise<void> {
    const key = this.key(projectId, oldTokenHash);
    const sealed = this.secrets.seal('refresh-grace-seal', JSON.stringify(pair), key);
    await this.store.set(key, sealed, windowMs + 1_000);
  }

  async get(projectId: string, oldTokenHash: string): Promise<TokenPair | undefined> {
    const key = this.key(projectId, oldTokenHash);
    const sealed = await this.store.get(key).catch(() => null);
    if (!sealed) return undefined;
    const opened = this.secrets.open('refresh-grace-seal', sealed, key);
    if (!opened) return undefined;
    const pair = JSON.parse(opened.toString('utf8')) as Partial<TokenPair>;
    return typeof pair.accessToken === 'string' && typeof pair.refreshToken === 'string'
      ? { accessToken: pair.accessToken, refreshToken: pair.refreshToken }
      : undefined;
  }

  private key(projectId: string, oldTokenHash: string): string {
    return `${queuePrefix()}:ua:refresh-grace:${projectId}:${oldTokenHash}`;
  }
}
