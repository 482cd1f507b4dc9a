import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { MailBudgets } from '../mail/mail-budgets.js';
import type { OutgoingMail } from '../mail/mail-outbox.js';
import type { ProjectRuntimeConfig } from '../runtime.config.js';
import { ProjectMailBudget } from '../runtime.ports.js';

/**
 * The project's hourly mail budgets in Redis, the very counters the host's auth mails use (see
 * MailBudgets), so a worker's ctx.email.send and the host's mails count together. While Redis is
 * unreachable an in-memory counter of the same size stands in.
 */
export class RedisProjectMailBudget extends ProjectMailBudget {
  private readonly budgets: MailBudgets;

  constructor(redis: Redis, config: ProjectRuntimeConfig) {
    super();
    this.budgets = new MailBudgets(
      (keyPrefix, points, duration) =>
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix,
          points,
          duration,
          insuranceLimiter: new RateLimiterMemory({ points, duration, keyPrefix }),
        }),
      config,
    );
  }

  take(projectId: string, mail: Pick<OutgoingMail, 'kind' | 'to'>): Promise<string | undefined> {
    return this.budgets.take(projectId, mail);
  }
}
