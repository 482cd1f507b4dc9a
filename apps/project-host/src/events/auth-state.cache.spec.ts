import { describe, expect, it } from '@jest/globals';
import type { TenantDb } from '@suite/db';
import { AuthStateCache } from './auth-state.cache.js';
import { AuthStateChannel, type AuthStateListener } from './auth-state.channel.js';

// The per-process cache of Bearer requests, two processes sharing one in-memory channel (Redis
// pub/sub in production): what one process changes, the other forgets at once.

class MemoryChannel extends AuthStateChannel {
  private readonly listeners: AuthStateListener[] = [];

  async publish(text: string): Promise<void> {
    for (const listener of this.listeners) listener.message(text);
  }

  subscribe(listener: AuthStateListener): void {
    this.listeners.push(listener);
    listener.live();
  }

  drop(): void {
    for (const listener of this.listeners) listener.down();
  }

  restore(): void {
    for (const listener of this.listeners) listener.live();
  }
}

const PROJECT = 'project-1';
const user = (name: string) => ({ id: 'user-1', name }) as TenantDb.User;

function processes(ttlMs = 60_000) {
  const channel = new MemoryChannel();
  const start = () => {
    const cache = new AuthStateCache(channel, { AUTH_STATE_CACHE_MS: ttlMs });
    cache.onModuleInit();
    return cache;
  };
  return { channel, a: start(), b: start() };
}

/** A read that counts how often the database was asked. */
function reads<T>(value: () => T) {
  const counter = { count: 0, read: async () => (counter.count++, value()) };
  return counter;
}

describe('AuthStateCache', () => {
  it('answers a live session and a profile from memory after the first read', async () => {
    const { a } = processes();
    const live = reads(() => true);
    const profile = reads(() => user('Ada'));
    for (let i = 0; i < 3; i++) {
      await expect(a.sessionLive(PROJECT, 'user-1', 'family-1', live.read)).resolves.toBe(true);
      await expect(a.user(PROJECT, 'user-1', profile.read)).resolves.toMatchObject({ name: 'Ada' });
    }
    expect([live.count, profile.count]).toEqual([1, 1]);
  });

  it('never caches a signed-out session or a missing user', async () => {
    const { a } = processes();
    const dead = reads(() => false);
    const gone = reads(() => null);
    for (let i = 0; i < 2; i++) {
      await expect(a.sessionLive(PROJECT, 'user-1', 'family-1', dead.read)).resolves.toBe(false);
      await expect(a.user(PROJECT, 'user-1', gone.read)).resolves.toBeUndefined();
    }
    expect([dead.count, gone.count]).toEqual([2, 2]);
  });

  it('drops what every process cached about a user once one of them invalidates it', async () => {
    const { a, b } = processes();
    let name = 'Before';
    const profile = reads(() => user(name));
    await b.user(PROJECT, 'user-1', profile.read);
    name = 'After';
    await a.invalidate(PROJECT, ['user-1']);
    await expect(b.user(PROJECT, 'user-1', profile.read)).resolves.toMatchObject({ name: 'After' });
    expect(profile.count).toBe(2);
  });

  it('does not cache a read that an invalidation overtook', async () => {
    const { a, b } = processes();
    const slow = { count: 0 };
    const read = async () => {
      slow.count++;
      if (slow.count === 1) await a.invalidate(PROJECT, ['user-1']);
      return user('Ada');
    };
    await b.user(PROJECT, 'user-1', read);
    await b.user(PROJECT, 'user-1', read);
    expect(slow.count).toBe(2);
  });

  it('bypasses the cache while the channel is down', async () => {
    const { channel, a } = processes();
    const live = reads(() => true);
    await a.sessionLive(PROJECT, 'user-1', 'family-1', live.read);
    channel.drop();
    await a.sessionLive(PROJECT, 'user-1', 'family-1', live.read);
    expect(live.count).toBe(2);
  });

  it.each([60_000, 0])(
    'tells watchers in every process of a change, and to look again after an outage (cache %i ms)',
    async (ttlMs) => {
      const { channel, a, b } = processes(ttlMs);
      const heard: string[] = [];
      b.watch({
        changed: (projectId, userIds) => heard.push(`${projectId}:${userIds.join(',')}`),
        resync: () => heard.push('resync'),
      });
      await a.invalidate(PROJECT, ['user-1', 'user-2']);
      channel.drop();
      channel.restore();
      expect(heard).toEqual([`${PROJECT}:user-1,user-2`, 'resync']);
    },
  );
});
