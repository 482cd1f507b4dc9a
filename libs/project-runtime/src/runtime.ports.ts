import type { ConnectionBudget, MainClient, TenantServers } from '@suite/db';
import type { QueueName, TypedQueue } from '@suite/queue';
import type { Redis } from 'ioredis';

/**
 * The connections the runtime works through, opened and closed by the app that runs it (the
 * project host's RuntimeResources, the project worker's WorkerResources).
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
}

/**
 * A project's hourly mail budget (AUTH_MAIL_PER_PROJECT_PER_HOUR), which auth mails and
 * ctx.email.send share: true when one more mail fits, and counts it.
 */
export abstract class ProjectMailBudget {
  abstract take(projectId: string): Promise<boolean>;
}
