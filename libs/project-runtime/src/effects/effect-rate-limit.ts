import { queuePrefix } from '@suite/queue';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { EffectError } from './effect-error.js';

export interface EffectRateLimitOptions {
  /** Key of the limit in Redis (`<REDIS_PREFIX>:fx:rl:<key>:<project>`). */
  key: string;
  /** The context call, as project code writes it: `ctx.jobs.enqueue`. */
  call: string;
  /** What is counted, plural: `jobs`. */
  unit: string;
  perMinute: number;
}

/**
 * A per-project rate limit of one context call, counted in Redis (rate-limiter-flexible) so every
 * host counts together; while Redis is unreachable an in-memory limiter of the same size stands
 * in. A refusal names the limit: `ctx.jobs.enqueue: rate limit of 600 jobs per minute for this
 * project reached; try again in 12 s`.
 */
export class EffectRateLimit {
  private readonly limiter: RateLimiterRedis;

  constructor(
    redis: Redis,
    private readonly options: EffectRateLimitOptions,
  ) {
    const keyPrefix = `${queuePrefix()}:fx:rl:${options.key}`;
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points: options.perMinute,
      duration: 60,
      insuranceLimiter: new RateLimiterMemory({ points: options.perMinute, duration: 60, keyPrefix }),
    });
  }

  /** Counts one call of the project, or refuses it. */
  async take(projectId: string): Promise<void> {
    try {
      await this.limiter.consume(projectId);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const { call, perMinute, unit } = this.options;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new EffectError(
        `${call}: rate limit of ${perMinute} ${unit} per minute for this project reached; try again in ${seconds} s`,
      );
    }
  }
}

/** Makes the per-project limits of context calls, on the process's producer connection. */
export class EffectRateLimits {
  constructor(private readonly redis: Redis) {}

  of(options: EffectRateLimitOptions): EffectRateLimit {
    return new EffectRateLimit(this.redis, options);
  }
}
