import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  createMainClient,
  TenantClientCache,
  TenantServers,
  type ConnectionBudget,
  type MainClient,
} from '@suite/db';
import { connectionBudgetOf } from '@suite/project-runtime';
import { createProducerConnection, createQueue, QueueName, type TypedQueue } from '@suite/queue';
import type { Redis } from 'ioredis';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import type { ProjectHostConfig } from '../project-host.config.js';

/**
 * The project host's connections: the main database, tenant databases, Redis, queues. Only provider
 * factories read it (platform.providers.ts, control-plane/control-plane.providers.ts, the modules'
 * factories): the repositories and adapters they build take the client, connection or queue they
 * use, and services get those instead.
 */
@Injectable()
export class PlatformResources implements OnApplicationShutdown {
  readonly db: MainClient;
  /** DB_CONNECTION_BUDGET: the main database and every tenant pool of this process share it. */
  readonly connectionBudget: ConnectionBudget;
  /** Tenant clients, one per tenant database; reached through the ProjectDirectory. */
  readonly tenantClients: TenantClientCache;
  readonly redis: Redis;
  readonly mailQueue: TypedQueue<typeof QueueName.Mail>;
  readonly hookQueue: TypedQueue<typeof QueueName.AuthHooks>;
  /** Custom-domain checks and tenant upgrade sweeps: the project worker runs them, the host asks. */
  readonly domainCheckQueue: TypedQueue<typeof QueueName.DomainChecks>;
  readonly tenantUpgradeQueue: TypedQueue<typeof QueueName.TenantUpgrades>;
  /** Where tenant databases live (TENANT_DATABASE_SERVERS); a project's row names its server. */
  readonly tenantServers: TenantServers;

  constructor(@Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig) {
    this.connectionBudget = connectionBudgetOf('project-host', config);
    this.db = createMainClient(config.DATABASE_URL, { budget: this.connectionBudget });
    this.tenantClients = new TenantClientCache({ budget: this.connectionBudget });
    this.redis = createProducerConnection(config.REDIS_URL, { connectionName: 'project-host' });
    this.redis.on('error', () => undefined);
    this.mailQueue = createQueue(QueueName.Mail, this.redis);
    this.hookQueue = createQueue(QueueName.AuthHooks, this.redis);
    this.domainCheckQueue = createQueue(QueueName.DomainChecks, this.redis);
    this.tenantUpgradeQueue = createQueue(QueueName.TenantUpgrades, this.redis);
    for (const queue of this.queues()) queue.on('error', () => undefined);
    this.tenantServers = TenantServers.fromSettings(config);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled(this.queues().map((queue) => queue.close()));
    this.redis.disconnect();
    await this.tenantClients.disconnectAll();
    await this.db.$disconnect();
  }

  private queues(): { on(event: 'error', listener: () => void): unknown; close(): Promise<void> }[] {
    return [this.mailQueue, this.hookQueue, this.domainCheckQueue, this.tenantUpgradeQueue];
  }
}
