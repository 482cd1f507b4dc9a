import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  createMainClient,
  TenantClientCache,
  TenantServers,
  type ConnectionBudget,
  type MainClient,
} from '@suite/db';
import { connectionBudgetOf, RuntimeResources } from '@suite/project-runtime';
import { createProducerConnection, createQueue, QueueName, type TypedQueue } from '@suite/queue';
import type { Redis } from 'ioredis';
import { PROJECT_WORKER_CONFIG, type ProjectWorkerConfig } from './project-worker.config.js';

/** The worker's connections: the main database, Redis for producing (mail, jobs, push) and limits. */
@Injectable()
export class WorkerResources extends RuntimeResources implements OnApplicationShutdown {
  readonly db: MainClient;
  /** DB_CONNECTION_BUDGET: the main database and ctx.db's tenant pools of this process share it. */
  override readonly connectionBudget: ConnectionBudget;
  readonly redis: Redis;
  readonly mailQueue: TypedQueue<typeof QueueName.Mail>;
  readonly tenantServers: TenantServers;
  readonly tenantClients: TenantClientCache;

  constructor(@Inject(PROJECT_WORKER_CONFIG) config: ProjectWorkerConfig) {
    super();
    this.connectionBudget = connectionBudgetOf('project-worker', config);
    this.db = createMainClient(config.DATABASE_URL, { budget: this.connectionBudget });
    this.redis = createProducerConnection(config.REDIS_URL, { connectionName: 'project-worker' });
    this.redis.on('error', () => undefined);
    this.mailQueue = createQueue(QueueName.Mail, this.redis);
    this.mailQueue.on('error', () => undefined);
    this.tenantServers = TenantServers.fromSettings(config);
    this.tenantClients = new TenantClientCache({ budget: this.connectionBudget });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.mailQueue.close().catch(() => undefined);
    this.redis.disconnect();
    await this.tenantClients.disconnectAll();
    await this.db.$disconnect();
  }
}
