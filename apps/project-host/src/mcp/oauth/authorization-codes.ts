import { Injectable } from '@nestjs/common';
import { AuthSecrets, randomToken, sha256Hex } from '@suite/project-runtime';
import { EphemeralStore } from '../../platform/ephemeral-store.js';

/** An authorization code is exchanged at once by a real client: a minute is plenty (RFC 6749 says at most 10). */
export const CODE_TTL_MS = 60_000;
/** How long a used code is remembered, so a replay can revoke what the first exchange issued. */
const USED_TTL_MS = 10 * 60_000;

export interface CodeGrant {
  clientId: string;
  userId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scope: string | null;
}

/**
 * Authorization codes: 256 random bits, kept sealed in Redis under their hash for a minute and
 * taken atomically (GETDEL), so a code is exchanged at most once even when two requests race.
 * After the exchange the code's hash keeps pointing at the grant it started for a while: a replay
 * (RFC 6749 §4.1.2: the code was stolen) revokes that grant.
 */
@Injectable()
export class AuthorizationCodes {
  constructor(
    private readonly store: EphemeralStore,
    private readonly secrets: AuthSecrets,
  ) {}

  async issue(projectId: string, grant: CodeGrant): Promise<string> {
    const code = randomToken();
    const key = this.key(projectId, code);
    await this.store.set(key, this.secrets.seal('consent-seal', JSON.stringify(grant), key), CODE_TTL_MS);
    return code;
  }

  /** The code's grant, once; `replayOf` is the grant's session family when the code was used before. */
  async take(projectId: string, code: string): Promise<{ grant?: CodeGrant; replayOf?: string }> {
    if (code.length === 0 || code.length > 256) return {};
    const key = this.key(projectId, code);
    const sealed = await this.store.take(key);
    if (!sealed) return { replayOf: (await this.store.get(`${key}:used`)) ?? undefined };
    const opened = this.secrets.open('consent-seal', sealed, key);
    return opened ? { grant: JSON.parse(opened.toString('utf8')) as CodeGrant } : {};
  }

  /** Remembers which session family the code started (see `take`). */
  async used(projectId: string, code: string, familyId: string): Promise<void> {
    await this.store.set(`${this.key(projectId, code)}:used`, familyId, USED_TTL_MS);
  }

  private key(projectId: string, code: string): string {
    return `mcp-code:${projectId}:${sha256Hex(code)}`;
  }
}
