import { queuePrefix } from '@suite/queue';
import type { Redis } from 'ioredis';

/** A lock that expires on its own: one process of many does a periodic chore. */
export class RedisLock {
  constructor(private readonly redis: Redis) {}

  /** Takes `name` for `ttlMs` unless another process holds it; whether this one got it. */
  async tryTake(name: string, ttlMs: number): Promise<boolean> {
    const got = await this.redis.set(
      `${queuePrefix()}:locks:${name}`,
      String(process.pid),
      'PX',
      ttlMs,
      'NX',
    );
    return got === 'OK';
  }
}
