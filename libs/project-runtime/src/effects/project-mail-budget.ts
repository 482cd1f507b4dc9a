import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { MailBudgets } from '../mail/mail-budgets.js';
import type { OutgoingMail } from '../mail/mail-outbox.js';
import { PROJECT_RUNTIME_CONFIG, type ProjectRuntimeConfig } from '../runtime.config.js';
import { ProjectMailBudget, RuntimeResources } from '../runtime.ports.js';

/**
 * The project's hourly mail budgets in Redis, the very counters the host's auth mails use (see
 * MailBudgets), so a worker's ctx.email.send and the host's mails count together. While Redis is
 * unreachable an in-memory counter of the same size stands in.
 */
@Injectable()
export class RedisProjectMailBudget extends ProjectMailBudget {
  private readonly budgets: MailBudgets;

  constructor(resources: RuntimeResources, @Inject(PROJECT_RUNTIME_CONFIG) config: ProjectRuntimeConfig) {
    super();
    this.budgets = new MailBudgets(
      (keyPrefix, points, duration) =>
        new RateLimiterRedis({
          storeClient: resources.redis,
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
