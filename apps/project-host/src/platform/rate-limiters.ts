import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';

/** Where rate-limit counters are kept: `points` per `durationSeconds` under `keyPrefix`. */
export abstract class RateLimiters {
  abstract counter(keyPrefix: string, points: number, durationSeconds: number): RateLimiterAbstract;
}

/**
 * In Redis, so every replica of the host counts together; while Redis is unreachable an in-memory
 * counter of the same size stands in.
 */
export class RedisRateLimiters extends RateLimiters {
  constructor(private readonly redis: Redis) {
    super();
  }

  counter(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix,
      points,
      duration,
      insuranceLimiter: new RateLimiterMemory({ points, duration, keyPrefix }),
    });
  }
}

/** Counters of this process only (tests, and tools that run one process). */
export class MemoryRateLimiters extends RateLimiters {
  counter(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
    return new RateLimiterMemory({ points, duration, keyPrefix });
  }
}
