import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mainMigrationsDir, migrateDatabase } from '@suite/db';
import { CustomDomainRecordRepository } from '@suite/project-runtime';
import { createQueue, QueueName, type TypedQueue } from '@suite/queue';
import {
  createThrowawayDatabase,
  type ThrowawayDatabase,
} from '../../../../libs/db/src/testing/throwaway-database.js';
import { TxtDns } from '../../../../test/support/txt-dns.js';
import { projectWorkerEnv, type ProjectWorkerConfig } from '../project-worker.config.js';
import { WorkerResources } from '../worker-resources.js';
import { PrismaCustomDomainsRepository, RedisDomainMisses } from './custom-domains.repository.js';
import { DomainChecksConsumer } from './domain-checks.consumer.js';
import { DOMAIN_RECHECK_SCHEDULER, DomainRecheckSchedule } from './domain-recheck.schedule.js';
import { DomainTxtLookup } from './domain-txt-lookup.js';
import { DomainVerificationService } from './domain-verification.service.js';

// The project worker's custom-domain checks on real Postgres (a database of its own: the re-check
// reads every domain), real Redis (a key prefix per test) and a real DNS server answering TXT
// questions. Each "replica" is what one project-worker process builds: its own consumers and
// connections, over the same Redis and database.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const silent = { warn: () => undefined };

async function until(what: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(50);
  }
}

describe('custom-domain checks in the project worker', () => {
  let database: ThrowawayDatabase;
  const dns = new TxtDns();
  let dnsServer = '';
  const replicas: { resources: WorkerResources; consumer: DomainChecksConsumer }[] = [];
  let projectId = '';

  const configOf = (env: Record<string, string>): ProjectWorkerConfig =>
    projectWorkerEnv.parse({
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      PLATFORM_ADMIN_TOKEN: 'domain-checks-spec-admin-token-0123456789',
      DOMAIN_DNS_SERVERS: dnsServer,
      ...env,
    });

  /** One project-worker replica's domain checks, started as the app starts them. */
  const startReplica = (
    config: ProjectWorkerConfig,
    service?: (resources: WorkerResources) => DomainVerificationService,
  ) => {
    const resources = new WorkerResources(config);
    const domains =
      service?.(resources) ??
      new DomainVerificationService(
        new PrismaCustomDomainsRepository(resources.db, new CustomDomainRecordRepository(resources.db)),
        new RedisDomainMisses(resources.redis),
        new DomainTxtLookup(config.DOMAIN_DNS_SERVERS),
        { verifiedByAdmin: false, log: silent },
      );
    const schedule = new DomainRecheckSchedule(
      createQueue(QueueName.DomainRechecks, resources.redis),
      config.DOMAIN_RECHECK_INTERVAL_MS,
    );
    const consumer = new DomainChecksConsumer(config, domains, schedule);
    consumer.onApplicationBootstrap();
    const replica = { resources, consumer };
    replicas.push(replica);
    return replica;
  };

  const stopReplicas = async () => {
    for (const { resources, consumer } of replicas.splice(0)) {
      await consumer.beforeApplicationShutdown();
      await resources.onApplicationShutdown();
    }
  };

  /** Each test's queues and keys under a prefix of their own. */
  const freshPrefix = (name: string) => {
    process.env.REDIS_PREFIX = `${basePrefix}-${name}-${randomBytes(3).toString('hex')}`;
  };
  const basePrefix = `${process.env.REDIS_PREFIX ?? 'test'}-domains`;

  const addDomain = async (resources: WorkerResources, name: string) =>
    resources.db.customDomain.create({
      data: { projectId, domain: name, verificationToken: randomBytes(16).toString('hex') },
    });
  const txt = (domain: string) => `_platform-verification.${domain}`;

  beforeAll(async () => {
    database = await createThrowawayDatabase('domain_checks');
    await migrateDatabase({ url: database.url, migrationsDir: mainMigrationsDir() });
    dnsServer = `127.0.0.1:${await dns.start()}`;
    const resources = new WorkerResources(configOf({}));
    projectId = (
      await resources.db.project.create({
        data: { slug: `domains-${randomUUID().slice(0, 8)}`, name: 'Domains', tenantDatabase: 'unused' },
      })
    ).id;
    await resources.onApplicationShutdown();
  }, 60_000);

  afterAll(async () => {
    await stopReplicas();
    await dns.close();
    await database.drop();
  });

  it('re-checks every domain on its job scheduler: a record that appears verifies, one gone twice un-verifies', async () => {
    freshPrefix('schedule');
    const { resources } = startReplica(configOf({ DOMAIN_RECHECK_INTERVAL_MS: '200' }));
    try {
      const queue = createQueue(QueueName.DomainRechecks, resources.redis);
      await until(async () => (await queue.getJobSchedulers()).length === 1);
      expect(await queue.getJobSchedulers()).toEqual([
        expect.objectContaining({ key: DOMAIN_RECHECK_SCHEDULER, every: 200, name: 'recheck' }),
      ]);

      const domain = await addDomain(resources, `scheduled-${randomBytes(3).toString('hex')}.example.test`);
      // Nobody asks: the scheduler's ticks find the record once it is published.
      dns.records.set(txt(domain.domain), [`platform-verification=${domain.verificationToken}`]);
      const row = () => resources.db.customDomain.findUniqueOrThrow({ where: { id: domain.id } });
      await until(async () => (await row()).verified);
      expect(await row()).toMatchObject({ verified: true, verifiedAt: expect.any(Date) });

      // The record is gone: a miss is counted (in Redis: the next tick may run on another
      // replica), and the second miss in a row takes the domain back.
      dns.records.set(txt(domain.domain), []);
      await until(async () => !(await row()).verified);
      expect(await row()).toMatchObject({ verified: false, verifiedAt: null });
      const asked = dns.asked.filter((name) => name === txt(domain.domain)).length;
      expect(asked).toBeGreaterThanOrEqual(3);
    } finally {
      await stopReplicas();
    }
  });

  it('checks a domain the control plane queued, at once, without waiting for the schedule', async () => {
    freshPrefix('verify');
    // The re-check is off: only the queued check can verify it.
    const { resources } = startReplica(configOf({ DOMAIN_RECHECK_INTERVAL_MS: '0' }));
    try {
      const domain = await addDomain(resources, `added-${randomBytes(3).toString('hex')}.example.test`);
      dns.records.set(txt(domain.domain), [`platform-verification=${domain.verificationToken}`]);
      const checks: TypedQueue<typeof QueueName.DomainChecks> = createQueue(
        QueueName.DomainChecks,
        resources.redis,
      );
      const job = await checks.add('verify', { domainId: domain.id });
      await until(async () => (await job.getState()) === 'completed');
      expect((await checks.getJob(job.id!))?.returnvalue).toEqual({ verified: true });
      expect(await resources.db.customDomain.findUniqueOrThrow({ where: { id: domain.id } })).toMatchObject({
        verified: true,
      });
      // With the interval at 0 there is no scheduler at all.
      expect(await createQueue(QueueName.DomainRechecks, resources.redis).getJobSchedulers()).toEqual([]);
    } finally {
      await stopReplicas();
    }
  });

  it('runs the re-check on one replica at a time, even when a run outlasts the interval', async () => {
    freshPrefix('replicas');
    const runs: { replica: number; start: number; end: number }[] = [];
    // A slow re-check (600 ms) ticking every 100 ms, on two replicas.
    const slow = (replica: number) => () =>
      ({
        verify: async () => null,
        recheckAll: async () => {
          const start = Date.now();
          await sleep(600);
          runs.push({ replica, start, end: Date.now() });
          return { checked: 0, verified: 0, unverified: 0 };
        },
      }) as unknown as DomainVerificationService;
    const config = configOf({ DOMAIN_RECHECK_INTERVAL_MS: '100' });
    const first = startReplica(config, slow(1));
    startReplica(config, slow(2));
    try {
      await until(async () => runs.length >= 5, 30_000);
      // Both replicas synced the scheduler: still one.
      const schedulers = await createQueue(
        QueueName.DomainRechecks,
        first.resources.redis,
      ).getJobSchedulers();
      expect(schedulers.map((s) => s.key)).toEqual([DOMAIN_RECHECK_SCHEDULER]);
      const sorted = [...runs].sort((a, b) => a.start - b.start);
      for (let i = 1; i < sorted.length; i++) {
        // Each run starts only once the one before it ended.
        expect(sorted[i]!.start).toBeGreaterThanOrEqual(sorted[i - 1]!.end);
      }
    } finally {
      await stopReplicas();
    }
  });
});
