import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { mainMigrationsDir, migrateDatabase } from '@suite/db';
import { LlmModelRegistry } from '@suite/llm-agent';
import {
  createThrowawayDatabase,
  type ThrowawayDatabase,
} from '../../../../libs/db/src/testing/throwaway-database.js';
import { browserWorkerEnv, type BrowserWorkerConfig } from '../browser-worker.config.js';
import { FairJobQueue, fairShareLimitsOf, JobEventsPublisher, PrismaJobRepository } from '@suite/jobs';
import { JobReaper } from './job-reaper.js';
import { RedisLock } from './redis-lock.js';
import { WorkerConnections } from './worker-connections.js';

// Real Postgres and Redis. The reaper sweeps a whole database, so it gets a database of its own:
// other specs' running jobs must never be touched.
describe('JobReaper', () => {
  let database: ThrowawayDatabase;
  const artifacts = mkdtempSync(join(tmpdir(), 'reaper-'));
  let config: BrowserWorkerConfig;
  let resources: WorkerConnections;
  let reaper: JobReaper;
  const owner = `reaper-${randomUUID().slice(0, 8)}`;

  const newReaper = () =>
    new JobReaper(
      config,
      new PrismaJobRepository(resources.db, new JobEventsPublisher(resources.redis)),
      new FairJobQueue(resources.queue, resources.redis, fairShareLimitsOf(config)),
      resources.artifacts,
      new RedisLock(resources.redis),
    );

  const insertJob = async (fields: Record<string, unknown>) =>
    resources.db.job.create({
      data: {
        owner,
        query: 'open x',
        initialUrl: 'http://127.0.0.1/',
        model: 'instruction-interpreter',
        ...fields,
      },
    });

  beforeAll(async () => {
    database = await createThrowawayDatabase('reaper_test');
    await migrateDatabase({ url: database.url, migrationsDir: mainMigrationsDir() });
    process.env.REDIS_PREFIX = `${process.env.REDIS_PREFIX ?? 'test'}-reaper-${randomUUID().slice(0, 6)}`;
    config = {
      // No LLM provider: the reaper does not care which engines run.
      llm: LlmModelRegistry.fromEnv({}),
      ...browserWorkerEnv.parse({
        DATABASE_URL: database.url,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        ARTIFACTS_DIR: artifacts,
        JOB_TIMEOUT_MS: '1000',
        STALLED_INTERVAL_MS: '1000',
        REAPER_INTERVAL_MS: '0',
        ARTIFACT_RETENTION_DAYS: '30',
      }),
    };
    resources = new WorkerConnections(config);
    reaper = newReaper();
  });

  afterAll(async () => {
    await resources.db.job.deleteMany({ where: { owner } });
    await resources.onApplicationShutdown();
    await database.drop();
    rmSync(artifacts, { recursive: true, force: true });
  });

  it('fails a job left running by a lost worker, re-enqueues a queued job Redis lost, expires old artifacts', async () => {
    const longAgo = new Date(Date.now() - 60 * 60_000);
    const lostRunning = await insertJob({ status: 'running', startedAt: longAgo, createdAt: longAgo });
    const freshRunning = await insertJob({ status: 'running', startedAt: new Date() });
    const lostQueued = await insertJob({ status: 'queued', createdAt: longAgo });
    const old = await insertJob({
      status: 'succeeded',
      finishedAt: new Date(Date.now() - 31 * 86_400_000),
      logPath: 'x',
      videoPath: 'y',
      screenshotPath: 'z',
    });
    const dir = join(artifacts, 'jobs', old.id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'video.mp4'), 'fake');
    writeFileSync(join(dir, 'failure-screenshot.png'), 'fake');

    const result = await reaper.sweep();
    expect(result.failed).toBeGreaterThanOrEqual(1);
    expect(result.requeued).toBeGreaterThanOrEqual(1);
    expect(result.expired).toBeGreaterThanOrEqual(1);

    const after = async (id: string) => resources.db.job.findUniqueOrThrow({ where: { id } });
    expect(await after(lostRunning.id)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/worker/),
    });
    expect((await after(freshRunning.id)).status).toBe('running');
    expect(await resources.queue.getJobState(lostQueued.id)).toBe('waiting');
    expect(await after(old.id)).toMatchObject({ logPath: null, videoPath: null, screenshotPath: null });
    expect(existsSync(dir)).toBe(false);
  });

  it('lets only one worker sweep at a time', async () => {
    await resources.redis.del(`${process.env.REDIS_PREFIX}:locks:job-reaper`);
    const lost = await insertJob({ status: 'queued', createdAt: new Date(Date.now() - 60 * 60_000) });
    const second = newReaper();
    const results = await Promise.all([reaper.sweep(), second.sweep()]);
    const idle = { failed: 0, requeued: 0, expired: 0 };
    expect(results.filter((r) => r.requeued >= 1)).toHaveLength(1);
    expect(results).toContainEqual(idle);
    expect(await resources.queue.getJobState(lost.id)).toBe('waiting');
  });
});
