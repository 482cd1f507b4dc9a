import type { Redis } from 'ioredis';

/**
 * Short-lived values shared by every process of the deployment (Redis): kept for a while, read, or
 * taken (read and deleted atomically, so of two racing takers one gets the value).
 */
export abstract class EphemeralStore {
  abstract set(key: string, value: string, ttlMs: number): Promise<void>;
  abstract get(key: string): Promise<string | null>;
  abstract take(key: string): Promise<string | null>;
}

export class RedisEphemeralStore extends EphemeralStore {
  constructor(private readonly redis: Redis) {
    super();
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(key, value, 'PX', ttlMs);
  }

  get(key: string): Promise<string | null> {
    return this.redis.get(key);
  }

  take(key: string): Promise<string | null> {
    return this.redis.getdel(key);
  }
}
