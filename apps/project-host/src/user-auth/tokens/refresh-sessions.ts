import { Inject, Injectable, Logger } from '@nestjs/common';
import { newId } from '@suite/db';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import type { UserSnapshot } from '../../events/auth-events.publisher.js';
import { AuthStateCache } from '../../events/auth-state.cache.js';
import { Clock } from '../../platform/clock.js';
import type { ProjectContext } from '../../projects/project-context.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import { looksLikeToken, randomToken, sha256Hex } from '@suite/project-runtime';
import { AuthStores, type AuthStore, type NewSession } from '../store/auth-store.js';
import { REFRESH_TOKEN_TTL_MS } from '../user-auth.constants.js';
import { snapshotOf, tokenUserOf, type TokenUser } from '../user-snapshot.js';
import { AccessTokens, type AccessClaims } from './access-tokens.js';
import { RefreshGraceCache } from './refresh-grace.cache.js';
import type { ClientMeta, TokenPair } from './token-pair.js';

/** How long after a rotation its pair may still be on its way to the grace cache. */
const GRACE_PAIR_WAIT_MS = 2_000;
const GRACE_PAIR_POLL_MS = 25;

/**
 * Whose session family a refresh token belongs to: an /api/user sign-in (the default: project
 * access tokens) or an MCP client's grant (its own access tokens, see ../../mcp). A token is
 * rotated only by the kind it was issued to; presented to the other, it is unknown.
 */
export interface SessionKind {
  /** null: /api/user; an MCP client's id: that client's grant. */
  clientId: string | null;
  accessToken(user: TokenUser, familyId: string): Promise<string>;
}

export type RotateOutcome =
  | { ok: true; pair: TokenPair }
  /** `user` is set when the token belonged to a known user (for auth.failed). */
  | { ok: false; user: UserSnapshot | null; reused: boolean };

/**
 * Refresh tokens: 256 random bits, stored only as their sha256, one row per token; a sign-in starts
 * a family and each rotation adds the successor to it. Rotation locks the row (SELECT ... FOR
 * UPDATE), so concurrent presentations of one token queue behind the first. As the contract says,
 * a rotated token presented again is a reuse (theft or a bug): 401, and the whole family is
 * revoked. Racing tabs are the platform client's job (one refresh across tabs). Only when the
 * opt-in REFRESH_REUSE_GRACE_MS is set do presentations while it rotates or within the window get
 * the same successor pair instead.
 */
@Injectable()
export class RefreshSessions {
  private readonly logger = new Logger('refresh-sessions');
  private readonly graceMs: number;

  constructor(
    private readonly stores: AuthStores,
    private readonly tokens: AccessTokens,
    private readonly grace: RefreshGraceCache,
    private readonly state: AuthStateCache,
    private readonly clock: Clock,
    @Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig,
  ) {
    this.graceMs = config.REFRESH_REUSE_GRACE_MS;
  }

  /** Signs a user in: a new session family and its first pair (inside the caller's transaction, if any). */
  async start(
    ctx: ProjectContext,
    tx: AuthStore,
    user: TokenUser,
    meta: ClientMeta,
    kind: SessionKind = this.userApi(ctx),
  ): Promise<TokenPair> {
    const refreshToken = randomToken();
    const familyId = randomUUID();
    await tx.sessions.create({
      userId: user.id,
      familyId,
      ...this.newRow(refreshToken, meta),
      ...(kind.clientId ? { clientId: kind.clientId } : {}),
    });
    return { accessToken: await kind.accessToken(user, familyId), refreshToken };
  }

  /** /api/user sign-ins: project access tokens (audience the project). */
  private userApi(ctx: ProjectContext): SessionKind {
    return {
      clientId: null,
      accessToken: (user, familyId) => this.tokens.issue(audienceOf(ctx), user, familyId),
    };
  }

  /**
   * How a refresh rotates. The common case is one statement (`rotateCurrent`); a token that is not
   * current (unknown, revoked, expired, or rotated already: a racing tab or a reuse) takes the
   * careful path, which locks its row and decides.
   */
  async rotate(
    ctx: ProjectContext,
    refreshToken: string,
    meta: ClientMeta,
    kind: SessionKind = this.userApi(ctx),
  ): Promise<RotateOutcome> {
    if (!looksLikeToken(refreshToken)) return { ok: false, user: null, reused: false };
    const hash = sha256Hex(refreshToken);
    const projectId = ctx.project.id;
    const store = this.stores.of(ctx);
    const fast = await this.rotateCurrent(ctx, store, hash, meta, kind);
    if (fast) return { ok: true, pair: fast };
    const outcome = await store.transaction(async (tx): Promise<RotateOutcome> => {
      const row = await tx.sessions.lockByTokenHash(hash);
      // Another kind's token (an MCP grant's at /api/user, or another client's) is unknown here.
      if (!row || row.clientId !== kind.clientId) return { ok: false, user: null, reused: false };
      const user = await tx.users.findById(row.userId);
      if (!user) return { ok: false, user: null, reused: false };
      const now = this.clock.now();
      if (row.revokedAt || row.expiresAt <= now) {
        return { ok: false, user: snapshotOf(user), reused: false };
      }
      if (row.rotatedAt) {
        if (this.graceMs > 0 && now.getTime() - row.rotatedAt.getTime() <= this.graceMs) {
          const pair = await this.gracePair(projectId, hash, now.getTime() - row.rotatedAt.getTime());
          if (pair) return { ok: true, pair };
        }
        await tx.sessions.revokeFamily(row.familyId, now);
        return { ok: false, user: snapshotOf(user), reused: true };
      }
      const next = randomToken();
      const successor = await tx.sessions.create({
        userId: user.id,
        familyId: row.familyId,
        ...this.newRow(next, meta),
        ...(kind.clientId ? { clientId: kind.clientId } : {}),
      });
      await tx.sessions.markRotated(row.id, now, successor.id);
      const pair = {
        accessToken: await kind.accessToken(tokenUserOf(user), row.familyId),
        refreshToken: next,
      };
      // Cached before the commit releases the row lock, so the requests queued behind it find it.
      if (this.graceMs > 0) await this.grace.put(projectId, hash, pair, this.graceMs);
      return { ok: true, pair };
    });
    // A reuse revoked the family: its access tokens stop working everywhere now.
    if (!outcome.ok && outcome.reused && outcome.user)
      await this.state.invalidate(projectId, [outcome.user.id]);
    return outcome;
  }

  /**
   * The common case in one statement (one round trip, its own transaction: see the session
   * repository): the token is current, so its row is locked, the successor inserted and the row
   * marked rotated. A concurrent presentation of the same token waits for the lock and then no
   * longer matches, so it takes the careful path.
   */
  private async rotateCurrent(
    ctx: ProjectContext,
    store: AuthStore,
    hash: string,
    meta: ClientMeta,
    kind: SessionKind,
  ): Promise<TokenPair | undefined> {
    const next = randomToken();
    const rotated = await store.sessions.rotateCurrent(
      hash,
      { id: newId(), ...this.newRow(next, meta) },
      kind.clientId,
    );
    if (!rotated) return undefined;
    const pair = {
      accessToken: await kind.accessToken(rotated.user, rotated.familyId),
      refreshToken: next,
    };
    // Requests that presented the same token meanwhile wait for this in the careful path. The
    // rotation has committed: should Redis fail, the client still gets its new pair.
    if (this.graceMs > 0) {
      await this.grace.put(ctx.project.id, hash, pair, this.graceMs).catch((error: unknown) => {
        this.logger.warn(
          { err: error, projectId: ctx.project.id },
          'could not cache a rotated pair for racing requests',
        );
      });
    }
    return pair;
  }

  /**
   * The pair a rotation within the grace answered with. The one-statement rotation stores it just
   * after its commit, so a request that queued behind it may look a moment too early: it looks
   * again for a short while (only when the rotation was just now) before calling it a reuse.
   */
  private async gracePair(
    projectId: string,
    hash: string,
    sinceRotationMs: number,
  ): Promise<TokenPair | undefined> {
    for (let waited = sinceRotationMs; ; waited += GRACE_PAIR_POLL_MS) {
      const pair = await this.grace.get(projectId, hash);
      if (pair || waited > GRACE_PAIR_WAIT_MS) return pair;
      await sleep(GRACE_PAIR_POLL_MS);
    }
  }

  /** Signs out the session the token belongs to (its whole family); the user, when a live row matched. */
  async revoke(ctx: ProjectContext, refreshToken: string): Promise<UserSnapshot | null> {
    if (!looksLikeToken(refreshToken)) return null;
    const hash = sha256Hex(refreshToken);
    const revoked = await this.stores.of(ctx).transaction(async (tx) => {
      const row = await tx.sessions.lockByTokenHash(hash);
      if (!row || row.revokedAt) return undefined;
      await tx.sessions.revokeFamily(row.familyId, this.clock.now());
      const user = await tx.users.findById(row.userId);
      return { userId: row.userId, user: user ? snapshotOf(user) : null };
    });
    if (!revoked) return null;
    await this.state.invalidate(ctx.project.id, [revoked.userId]);
    return revoked.user;
  }

  /** Revokes one session family (an MCP grant whose code was replayed) and ends its access tokens. */
  async revokeFamily(ctx: ProjectContext, userId: string, familyId: string): Promise<void> {
    await this.stores.of(ctx).sessions.revokeFamily(familyId, this.clock.now());
    await this.state.invalidate(ctx.project.id, [userId]);
  }

  /**
   * Signs a user out everywhere (after a password reset), inside the caller's transaction; call
   * `signedOutEverywhere` once it committed.
   */
  async revokeAllOf(tx: AuthStore, userId: string): Promise<void> {
    await tx.sessions.revokeAllOf(userId, this.clock.now());
  }

  /** After `revokeAllOf` committed: the user's access tokens stop working in every process. */
  signedOutEverywhere(ctx: ProjectContext, userId: string): Promise<void> {
    return this.state.invalidate(ctx.project.id, [userId]);
  }

  /**
   * Whether `userId` ever signed in from `ip` (a session row opened from there): the user's own
   * address, which attacks from elsewhere must not lock out (rate limits).
   */
  signedInFrom(ctx: ProjectContext, userId: string, ip: string): Promise<boolean> {
    return this.stores.of(ctx).sessions.openedFrom(userId, ip);
  }

  /** Whether the session family an access token names is still signed in (see AuthStateCache). */
  isLive(ctx: ProjectContext, claims: Pick<AccessClaims, 'sub' | 'sid'>): Promise<boolean> {
    return this.state.sessionLive(ctx.project.id, claims.sub, claims.sid, async () => {
      const started = performance.now();
      const live = await this.stores.of(ctx).sessions.familyLive(claims.sub, claims.sid, this.clock.now());
      // Bench figures (LOG_LEVEL=debug): the first tenant query of a request, its connection included.
      this.logger.debug(
        { coldStep: 'session', projectId: ctx.project.id, ms: performance.now() - started },
        'cold path step',
      );
      return live;
    });
  }

  /** A new row's token hash, expiry and origin. */
  private newRow(token: string, meta: ClientMeta): Omit<NewSession, 'userId' | 'familyId'> {
    return {
      tokenHash: sha256Hex(token),
      expiresAt: new Date(this.clock.now().getTime() + REFRESH_TOKEN_TTL_MS),
      ip: meta.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
    };
  }
}

export function audienceOf(ctx: ProjectContext): { projectId: string; issuer: string } {
  return { projectId: ctx.project.id, issuer: ctx.publicUrl };
}
