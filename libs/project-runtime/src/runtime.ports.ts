import type { ConnectionBudget, MainClient, TenantClientCache, TenantServers } from '@suite/db';
import type { QueueName, TypedQueue } from '@suite/queue';
import type { Redis } from 'ioredis';
import type { OutgoingMail } from './mail/mail-outbox.js';

/**
 * The connections the runtime works through, opened and closed by the app that runs it (the
 * project host's PlatformResources, the project worker's WorkerResources). Only provider factories
 * read it (runtime.providers.ts, mail-outbox.providers.ts, project-directory.providers.ts).
 */
export abstract class RuntimeResources {
  abstract readonly db: MainClient;
  /** Producer connection: fails fast while Redis is away. */
  abstract readonly redis: Redis;
  abstract readonly mailQueue: TypedQueue<typeof QueueName.Mail>;
  /** The process's connection budget: ctx.db's pools share it with the app's own. */
  readonly connectionBudget?: ConnectionBudget;
  /**
   * The tenant database servers (TENANT_DATABASE_SERVERS): a project's database is on the one its
   * Project row names (tenantServer).
   */
  abstract readonly tenantServers: TenantServers;
  /** The process's tenant clients (schema platform_auth), one per tenant database. */
  abstract readonly tenantClients: TenantClientCache;
}

/**
 * A project's hourly mail budgets by class (see MailBudgets): counts one mail and answers
 * undefined when it fits, else why it is not sent.
 */
export abstract class ProjectMailBudget {
  abstract take(projectId: string, mail: Pick<OutgoingMail, 'kind' | 'to'>): Promise<string | undefined>;
}
