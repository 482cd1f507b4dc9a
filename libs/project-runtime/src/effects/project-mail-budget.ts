import { Inject, Injectable } from '@nestjs/common';
import { queuePrefix } from '@suite/queue';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { PROJECT_RUNTIME_CONFIG, type ProjectRuntimeConfig } from '../runtime.config.js';
import { ProjectMailBudget, RuntimeResources } from '../runtime.ports.js';

const HOUR = 3600;

/**
 * The project's hourly mail budget in Redis, the very counter the host's auth rate limits keep
 * (`<REDIS_PREFIX>:ua:rl:mail-project`), so a worker's ctx.email.send and the host's auth mails
 * count together. While Redis is unreachable an in-memory counter of the same size stands in.
 */
@Injectable()
export class RedisProjectMailBudget extends ProjectMailBudget {
  private readonly counter: RateLimiterRedis;

  constructor(resources: RuntimeResources, @Inject(PROJECT_RUNTIME_CONFIG) config: ProjectRuntimeConfig) {
    super();
    const keyPrefix = `${queuePrefix()}:ua:rl:mail-project`;
    const points = config.AUTH_MAIL_PER_PROJECT_PER_HOUR;
    this.counter = new RateLimiterRedis({
      storeClient: resources.redis,
      keyPrefix,
      points,
      duration: HOUR,
      insuranceLimiter: new RateLimiterMemory({ points, duration: HOUR, keyPrefix }),
    });
  }

  async take(projectId: string): Promise<boolean> {
    try {
      await this.counter.consume(projectId);
      return true;
    } catch (error) {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    }
  }
}
