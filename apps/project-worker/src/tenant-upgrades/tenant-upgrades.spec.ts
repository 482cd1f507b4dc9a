import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  latestTenantMigration,
  mainMigrationsDir,
  migrateDatabase,
  TENANT_SCHEMA,
  TENANT_SWEEP_LOCK,
  tenantMigrationsDir,
  withSessionLock,
} from '@suite/db';
import { ProjectRecordRepository } from '@suite/project-runtime';
import { createQueue, QueueName } from '@suite/queue';
import {
  createThrowawayDatabase,
  type ThrowawayDatabase,
} from '../../../../libs/db/src/testing/throwaway-database.js';
import { projectWorkerEnv, type ProjectWorkerConfig } from '../project-worker.config.js';
import { WorkerResources } from '../worker-resources.js';
import { TenantUpgradeRequests } from './tenant-upgrade.requests.js';
import { TenantUpgradeSweep } from './tenant-upgrade-sweep.service.js';
import { PrismaTenantUpgradeStore } from './tenant-upgrade.store.js';
import { TenantUpgradesConsumer } from './tenant-upgrades.consumer.js';

// The tenant upgrade sweep as the project worker runs it, on real Postgres (a main database of its
// own, since the sweep reads every project, and a real tenant database) and real Redis. Each
// "replica" is what one project-worker process builds.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { log: () => undefined, warn: () => undefined };

async function until(what: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(50);
  }
}

describe('tenant upgrades in the project worker', () => {
  let main: ThrowawayDatabase;
  let tenant: ThrowawayDatabase;
  let config: ProjectWorkerConfig;
  const replicas: { resources: WorkerResources; consumer: TenantUpgradesConsumer }[] = [];

  const startReplica = (onBoot = true) => {
    const replicaConfig = { ...config, TENANT_UPGRADES_ON_BOOT: onBoot };
    const resources = new WorkerResources(replicaConfig);
    const sweep = new TenantUpgradeSweep({
      databaseUrl: config.DATABASE_URL,
      servers: resources.tenantServers,
      store: new PrismaTenantUpgradeStore(resources.db, new ProjectRecordRepository(resources.db)),
      budget: resources.connectionBudget,
      log: quiet,
    });
    const requests = new TenantUpgradeRequests(createQueue(QueueName.TenantUpgrades, resources.redis));
    const consumer = new TenantUpgradesConsumer(replicaConfig, sweep, requests);
    consumer.onApplicationBootstrap();
    replicas.push({ resources, consumer });
    return resources;
  };

  const stopReplicas = async () => {
    for (const { resources, consumer } of replicas.splice(0)) {
      await consumer.beforeApplicationShutdown();
      await resources.onApplicationShutdown();
    }
  };

  beforeAll(async () => {
    process.env.REDIS_PREFIX = `${process.env.REDIS_PREFIX ?? 'test'}-tenant-upgrades-${randomBytes(3).toString('hex')}`;
    main = await createThrowawayDatabase('tenant_upgrades_main');
    await migrateDatabase({ url: main.url, migrationsDir: mainMigrationsDir() });
    tenant = await createThrowawayDatabase('tenant_upgrades_tenant');
    await migrateDatabase({ url: tenant.url, migrationsDir: tenantMigrationsDir(), schema: TENANT_SCHEMA });
    config = projectWorkerEnv.parse({
      DATABASE_URL: main.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      PLATFORM_ADMIN_TOKEN: 'tenant-upgrades-spec-admin-token-0123456789',
      TENANT_UPGRADES_ON_BOOT: 'true',
      DOMAIN_RECHECK_INTERVAL_MS: '0',
    });
  }, 60_000);

  afterAll(async () => {
    await stopReplicas();
    await tenant.drop();
    await main.drop();
  });

  it('sweeps once at boot however many replicas boot, recording every tenant behind, with its progress on the job', async () => {
    const resources = new WorkerResources(config);
    const project = await resources.db.project.create({
      data: {
        slug: `behind-${randomUUID().slice(0, 8)}`,
        name: 'Behind',
        tenantDatabase: tenant.name,
        tenantSchemaVersion: null,
      },
    });
    await resources.onApplicationShutdown();

    // Two replicas of one release boot together.
    const first = startReplica();
    startReplica();
    const version = async () =>
      (await first.db.project.findUniqueOrThrow({ where: { id: project.id } })).tenantSchemaVersion;
    await until(async () => (await version()) === latestTenantMigration());

    const queue = createQueue(QueueName.TenantUpgrades, first.redis);
    await until(async () => (await queue.getJobCounts('completed')).completed === 1);
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
    expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: 1, failed: 0 });
    const [job] = await queue.getJobs(['completed']);
    expect(job!.data).toEqual({ requestedBy: 'boot' });
    const done = { server: 'default', total: 1, migrated: 1, failed: 0, state: 'done' };
    expect(job!.returnvalue).toEqual({ state: 'done', servers: [done] });
    expect(job!.progress).toEqual([done]);
    await stopReplicas();
  });

  it('ends `elsewhere` without touching a tenant while another process holds the sweep', async () => {
    // No sweep at boot here: the admin asks for this one.
    const resources = startReplica(false);
    const queue = createQueue(QueueName.TenantUpgrades, resources.redis);
    await resources.db.project.updateMany({ data: { tenantSchemaVersion: null } });
    const outcome = await withSessionLock(main.url, TENANT_SWEEP_LOCK, async () => {
      const job = await queue.add('sweep', { requestedBy: 'admin' });
      await until(async () => (await job.getState()) === 'completed');
      return (await queue.getJob(job.id!))!.returnvalue;
    });
    expect(outcome).toEqual({ acquired: true, result: { state: 'elsewhere', servers: [] } });
    expect(await resources.db.project.count({ where: { tenantSchemaVersion: null } })).toBe(1);
    await stopReplicas();
  });

  it('stops after the tenant in hand when the worker shuts down, leaving the rest for the next sweep', async () => {
    const resources = new WorkerResources(config);
    try {
      await resources.db.project.updateMany({ data: { tenantSchemaVersion: null } });
      await resources.db.project.create({
        data: { slug: `behind-${randomUUID().slice(0, 8)}`, name: 'Behind too', tenantDatabase: tenant.name },
      });
      const sweep = new TenantUpgradeSweep({
        databaseUrl: config.DATABASE_URL,
        servers: resources.tenantServers,
        store: new PrismaTenantUpgradeStore(resources.db, new ProjectRecordRepository(resources.db)),
        budget: resources.connectionBudget,
        log: quiet,
      });
      let shuttingDown = false;
      const result = await sweep.run(
        () => shuttingDown,
        (servers) => {
          // SIGTERM arrives while the first tenant is migrated.
          if (servers[0]!.migrated === 1) shuttingDown = true;
        },
      );
      expect(result).toEqual({
        state: 'stopped',
        servers: [{ server: 'default', total: 2, migrated: 1, failed: 0, state: 'stopped' }],
      });
      expect(await resources.db.project.count({ where: { tenantSchemaVersion: null } })).toBe(1);
    } finally {
      await resources.onApplicationShutdown();
    }
  });
});
