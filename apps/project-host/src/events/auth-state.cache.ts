import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { TenantDb } from '@suite/db';
import { performance } from 'node:perf_hooks';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { AuthStateChannel } from './auth-state.channel.js';

interface Entry<T> {
  value: T;
  /** performance.now() when the read that produced `value` started. */
  readAt: number;
}

const MAX_ENTRIES = 50_000;

/** Told when users' auth state changed in any process (e.g. to end their push streams). */
export interface AuthStateWatcher {
  changed(projectId: string, userIds: readonly string[]): void;
  /** Changes may have been missed (the subscription was down): look at everything again. */
  resync(): void;
}

/**
 * What a Bearer request needs besides the token's signature: is the session still signed in, and
 * (GET /api/user/me) the user's row. Both are cached for AUTH_STATE_CACHE_MS per process, so a
 * signed-in client's requests need no database round trip.
 *
 * Every change to a user (sign-out, a detected token theft, a password reset, a profile or email
 * change, a deletion) calls `invalidate`, which drops the user's entries here and, through Redis
 * pub/sub, in every other process of the deployment. A read that started before an invalidation
 * is never cached, so a slow read cannot put stale state back. While the subscription is down
 * (Redis restarting) nothing is served from the cache, and everything read before the outage is
 * dropped once it is back; only positive answers are cached (a revoked session is read each time).
 */
@Injectable()
export class AuthStateCache implements OnModuleInit {
  private readonly logger = new Logger('auth-state-cache');
  private readonly ttlMs: number;
  private readonly sessions = new Map<string, Entry<true>>();
  private readonly users = new Map<string, Entry<TenantDb.User>>();
  /** project + user → performance.now() of the user's latest invalidation (kept one TTL). */
  private readonly invalidated = new Map<string, number>();
  /** Entries read before this are void (the subscription was down meanwhile). */
  private voidBefore = Number.POSITIVE_INFINITY;
  private readonly watchers = new Set<AuthStateWatcher>();
  private wasDown = false;

  constructor(
    private readonly channel: AuthStateChannel,
    @Inject(PROJECT_HOST_CONFIG) config: Pick<ProjectHostConfig, 'AUTH_STATE_CACHE_MS'>,
  ) {
    this.ttlMs = config.AUTH_STATE_CACHE_MS;
  }

  onModuleInit(): void {
    // Subscribed even with the cache off: watchers (push streams) hear of changes either way.
    // Until subscribed, and again from a disconnect until re-subscribed, the cache is bypassed;
    // nothing read before a (re)subscription is trusted.
    this.channel.subscribe({
      message: (text) => this.received(text),
      live: () => {
        this.voidBefore = performance.now();
        if (this.wasDown) this.notify((watcher) => watcher.resync());
        this.wasDown = false;
      },
      down: () => {
        this.voidBefore = Number.POSITIVE_INFINITY;
        this.wasDown = true;
      },
    });
  }

  /** Hears of every change to users' auth state, in this process or another; returns the stop. */
  watch(watcher: AuthStateWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Whether the session family is signed in: from the cache, else `read` (only `true` is cached). */
  async sessionLive(
    projectId: string,
    userId: string,
    familyId: string,
    read: () => Promise<boolean>,
  ): Promise<boolean> {
    const live = await this.through(this.sessions, `${projectId}:${familyId}`, projectId, userId, async () =>
      (await read()) ? (true as const) : undefined,
    );
    return live === true;
  }

  /** The user's row: from the cache, else `read` (a missing user is not cached). */
  user(
    projectId: string,
    userId: string,
    read: () => Promise<TenantDb.User | null>,
  ): Promise<TenantDb.User | undefined> {
    return this.through(this.users, `${projectId}:${userId}`, projectId, userId, async () => {
      return (await read()) ?? undefined;
    });
  }

  /**
   * The user changed or lost sessions: forget what every process cached about them. Call after
   * the change committed. Never throws: should Redis be unreachable, other processes hold at most
   * AUTH_STATE_CACHE_MS-old state (and none once their own subscription notices the outage).
   */
  async invalidate(projectId: string, userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    for (const userId of userIds) this.forget(projectId, userId);
    this.notify((watcher) => watcher.changed(projectId, userIds));
    try {
      await this.channel.publish(JSON.stringify({ p: projectId, u: userIds }));
    } catch (error) {
      this.logger.warn({ err: error, projectId }, 'could not tell other processes of an auth-state change');
    }
  }

  private received(text: string): void {
    try {
      const { p, u } = JSON.parse(text) as { p: unknown; u: unknown };
      if (typeof p !== 'string' || !Array.isArray(u)) return;
      const userIds = u.filter((userId): userId is string => typeof userId === 'string');
      for (const userId of userIds) this.forget(p, userId);
      this.notify((watcher) => watcher.changed(p, userIds));
    } catch {
      // Not ours: ignored.
    }
  }

  private notify(call: (watcher: AuthStateWatcher) => void): void {
    for (const watcher of this.watchers) {
      try {
        call(watcher);
      } catch (error) {
        this.logger.warn({ err: error }, 'an auth-state watcher failed');
      }
    }
  }

  private forget(projectId: string, userId: string): void {
    if (this.ttlMs === 0) return;
    const now = performance.now();
    this.invalidated.set(`${projectId}:${userId}`, now);
    this.users.delete(`${projectId}:${userId}`);
    if (this.invalidated.size > MAX_ENTRIES) {
      for (const [key, at] of this.invalidated) if (now - at > this.ttlMs) this.invalidated.delete(key);
    }
  }

  private fresh(readAt: number, projectId: string, userId: string, now: number): boolean {
    if (now - readAt >= this.ttlMs || readAt < this.voidBefore) return false;
    const invalidatedAt = this.invalidated.get(`${projectId}:${userId}`);
    return invalidatedAt === undefined || readAt > invalidatedAt;
  }

  private async through<T>(
    map: Map<string, Entry<T>>,
    key: string,
    projectId: string,
    userId: string,
    read: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    if (this.ttlMs === 0) return read();
    const hit = map.get(key);
    if (hit && this.fresh(hit.readAt, projectId, userId, performance.now())) return hit.value;
    const readAt = performance.now();
    const value = await read();
    if (value === undefined) {
      map.delete(key);
    } else if (this.fresh(readAt, projectId, userId, performance.now())) {
      map.delete(key); // re-inserted last: the map's order is its eviction order
      map.set(key, { value, readAt });
      if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
    }
    return value;
  }
}
