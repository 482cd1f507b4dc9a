import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createRedisConnection, queuePrefix } from '@suite/queue';
import type { Redis } from 'ioredis';

/** Streams another process (or this one) must end: they are over the user's cap. */
export type EvictionListener = (projectId: string, userId: string, streamIds: readonly string[]) => void;

/** Where the open push streams of each user are counted, across every host process. */
export abstract class PushStreamRegistry {
  /** Lists a new stream; the oldest of the user's streams beyond `cap` are evicted (and returned). */
  abstract register(projectId: string, userId: string, streamId: string, cap: number): Promise<string[]>;
  abstract unregister(projectId: string, userId: string, streamId: string): Promise<void>;
  abstract onEviction(listener: EvictionListener): void;
}

/** A day: a user's list outlives no stream (access tokens last minutes); refreshed at every open. */
const LIST_TTL_MS = 24 * 3600 * 1000;

/**
 * Lists ARGV[1] in KEYS[1] at Redis's own time (replicas' clocks may differ), then removes and
 * returns the oldest entries beyond the newest ARGV[2].
 */
const REGISTER = `
local now = redis.call('TIME')
redis.call('ZADD', KEYS[1], tonumber(now[1]) * 1000000 + tonumber(now[2]), ARGV[1])
local over = -(tonumber(ARGV[2]) + 1)
local evicted = redis.call('ZRANGE', KEYS[1], 0, over)
if #evicted > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return evicted
`;

/**
 * A sorted set per user (`<REDIS_PREFIX>:push-streams:<project>:<user>`, scored by opening time),
 * and evictions over pub/sub (`<REDIS_PREFIX>:push-streams`), so the cap holds for the user across
 * replicas. A stream of a process that died stays listed until newer ones push it out (it is the
 * oldest) or the list expires.
 */
export class RedisPushStreamRegistry extends PushStreamRegistry implements OnApplicationShutdown {
  private readonly logger = new Logger('project-push');
  private readonly prefix = `${queuePrefix()}:push-streams`;
  private readonly listeners: EvictionListener[] = [];
  private subscriber?: Redis;

  constructor(
    /** The producer connection (the registry's lists, publishing evictions). */
    private readonly redis: Redis,
    /** The eviction subscriber's own connection. */
    private readonly redisUrl: string,
  ) {
    super();
  }

  async register(projectId: string, userId: string, streamId: string, cap: number): Promise<string[]> {
    const evicted = (await this.redis.eval(
      REGISTER,
      1,
      this.key(projectId, userId),
      streamId,
      cap,
      LIST_TTL_MS,
    )) as string[];
    if (evicted.length > 0) {
      await this.redis.publish(this.prefix, JSON.stringify({ p: projectId, u: userId, s: evicted }));
    }
    return evicted;
  }

  async unregister(projectId: string, userId: string, streamId: string): Promise<void> {
    await this.redis.zrem(this.key(projectId, userId), streamId);
  }

  onEviction(listener: EvictionListener): void {
    this.listeners.push(listener);
    if (this.subscriber) return;
    const subscriber = createRedisConnection(this.redisUrl, {
      connectionName: 'project-host-push-streams',
    });
    subscriber.on('error', () => undefined);
    subscriber.on('ready', () => {
      subscriber
        .subscribe(this.prefix)
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, 'could not subscribe to push-stream evictions'),
        );
    });
    subscriber.on('message', (_channel: string, text: string) => {
      try {
        const { p, u, s } = JSON.parse(text) as { p: unknown; u: unknown; s: unknown };
        if (typeof p !== 'string' || typeof u !== 'string' || !Array.isArray(s)) return;
        const ids = s.filter((id): id is string => typeof id === 'string');
        for (const listener of this.listeners) listener(p, u, ids);
      } catch {
        // Not ours: ignored.
      }
    });
    this.subscriber = subscriber;
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  private key(projectId: string, userId: string): string {
    return `${this.prefix}:${projectId}:${userId}`;
  }
}
