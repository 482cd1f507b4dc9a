import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { ServerUpgradeProgress, TenantSweepResult } from '@suite/db';
import { createRedisConnection, createWorker, QueueName, type TypedWorker } from '@suite/queue';
import type { Redis } from 'ioredis';
import { PlatformResources } from '../platform/platform-resources.js';
import { testConfig } from '../user-auth/testing/fakes.js';
import { BullTenantUpgradesQueue } from './tenant-upgrades.queue.js';

// What the control plane shows of the tenant upgrade sweeps the project worker runs, read from the
// `tenant-upgrades` queue on real Redis; a stand-in worker plays the project worker's part.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(25);
  }
}

describe('the tenant upgrade sweeps, as the control plane sees them', () => {
  let resources: PlatformResources;
  let sweeps: BullTenantUpgradesQueue;
  let workerConnection: Redis;
  let worker: TypedWorker<typeof QueueName.TenantUpgrades> | undefined;
  const progress: ServerUpgradeProgress = {
    server: 'default',
    total: 2,
    migrated: 1,
    failed: 0,
    state: 'running',
  };

  /** The project worker's part: each sweep reports progress, waits for `gate`, then ends as `end` says. */
  const standInWorker = (gate: Promise<void>, end: () => TenantSweepResult) => {
    worker = createWorker(
      QueueName.TenantUpgrades,
      {
        sweep: async (job) => {
          await job.updateProgress([progress]);
          await gate;
          return end();
        },
      },
      workerConnection,
    );
  };

  beforeAll(() => {
    process.env.REDIS_PREFIX = `${process.env.REDIS_PREFIX ?? 'test'}-upgrades-view-${randomBytes(3).toString('hex')}`;
    const config = testConfig({ REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
    resources = new PlatformResources(config);
    sweeps = new BullTenantUpgradesQueue(resources.tenantUpgradeQueue, config.REDIS_URL);
    workerConnection = createRedisConnection(config.REDIS_URL);
  });

  afterAll(async () => {
    await worker?.close();
    await resources.tenantUpgradeQueue.obliterate({ force: true });
    await sweeps.onApplicationShutdown();
    await resources.onApplicationShutdown();
    workerConnection.disconnect();
  });

  it('shows idle, then queued, running with its progress, and done with its times', async () => {
    expect(await sweeps.latest()).toEqual({
      state: 'idle',
      startedAt: null,
      finishedAt: null,
      error: null,
      servers: [],
    });

    // Asked for with no project worker running: it waits queued (the answer does not wait).
    await sweeps.request(0);
    expect(await sweeps.latest()).toMatchObject({ state: 'queued', servers: [] });
    // A second ask while one waits joins it.
    await sweeps.request(0);
    expect(await resources.tenantUpgradeQueue.getJobCounts('waiting')).toEqual({ waiting: 1 });

    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const done: ServerUpgradeProgress = { ...progress, migrated: 2, state: 'done' };
    standInWorker(gate, () => ({ state: 'done', servers: [done] }));
    await until(async () => (await sweeps.latest()).state === 'running');
    await until(async () => (await sweeps.latest()).servers.length === 1);
    expect(await sweeps.latest()).toEqual({
      state: 'running',
      startedAt: expect.any(String),
      finishedAt: null,
      error: null,
      servers: [progress],
    });

    open();
    await until(async () => (await sweeps.latest()).state === 'done');
    const shown = await sweeps.latest();
    expect(shown).toEqual({
      state: 'done',
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      error: null,
      servers: [done],
    });
    expect(Date.parse(shown.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(shown.startedAt!));
  });

  it('waits for a worker to end the sweep it asked for, and shows a sweep that failed with its error', async () => {
    await worker?.close();
    standInWorker(Promise.resolve(), () => {
      throw new Error('main database went away');
    });
    const started = Date.now();
    await sweeps.request(10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await sweeps.latest()).toEqual({
      state: 'failed',
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      error: 'main database went away',
      servers: [progress],
    });
  });
});
