import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createMainClient, mainMigrationsDir, migrateDatabase, sqlPool, type MainClient } from '@suite/db';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../db/src/testing/throwaway-database.js';
import { fromSnapshot, type JobEvent, type JobEventsPublisher } from './job-events.js';
import type { NewJob } from './job-insert.repository.js';
import { INSTRUCTIONS_NOT_UNDERSTOOD } from './job-state.js';
import { PrismaJobRepository } from './prisma-job.repository.js';

// Real Postgres: the conditional updates are what keeps racing workers, cancels and resubmits apart.
describe('PrismaJobRepository', () => {
  let database: ThrowawayDatabase;
  let db: MainClient;
  let jobs: PrismaJobRepository;
  const published: JobEvent[] = [];
  const publisher = {
    publish: (event: JobEvent) => {
      published.push(event);
      return Promise.resolve();
    },
  } as unknown as JobEventsPublisher;

  const newJob = (fields: Partial<NewJob> = {}): NewJob => ({
    owner: 'ada',
    query: 'Open /',
    initialUrl: 'http://127.0.0.1:9/',
    model: 'instruction-interpreter',
    env: 'local_browser',
    highlightMouse: true,
    metadata: undefined,
    traceContext: {},
    contextId: null,
    ...fields,
  });
  const artifacts = { logPath: 'log', videoPath: null };

  beforeAll(async () => {
    database = await createThrowawayDatabase('job_repository_test');
    await migrateDatabase({ url: database.url, migrationsDir: mainMigrationsDir() });
    db = createMainClient(database.url);
    jobs = new PrismaJobRepository(db, publisher);
  });

  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  it('claims a queued job once and publishes it running, with the row as written', async () => {
    const { job } = await jobs.create(newJob());
    published.length = 0;
    const claimed = await jobs.claim(job.id, 'worker-1');
    expect(claimed).toMatchObject({ status: 'running', workerId: 'worker-1', attempts: 1 });
    expect(published).toHaveLength(1);
    const event = published[0]!;
    expect(event).toMatchObject({ type: 'status', jobId: job.id, status: 'running' });
    expect(event.type === 'status' && fromSnapshot(event.job)).toEqual(claimed);
    await jobs.finish(job.id, { status: 'succeeded', summary: 'ok', steps: [] }, artifacts);
    expect(await jobs.claim(job.id, 'worker-2')).toBeNull();
  });

  it('finishes a run whose instructions were not understood as needs_input, and takes new ones once', async () => {
    const { job } = await jobs.create(newJob());
    await jobs.claim(job.id, 'w');
    const waiting = await jobs.finish(
      job.id,
      { status: 'needs_input', summary: 'not understood', steps: [], error: INSTRUCTIONS_NOT_UNDERSTOOD },
      artifacts,
    );
    expect(waiting).toMatchObject({ status: 'needs_input', error: INSTRUCTIONS_NOT_UNDERSTOOD });
    expect(await jobs.resubmit('bob', job.id, 'Open /x')).toBeNull();
    expect(await jobs.resubmit('ada', job.id, 'Open /x')).toMatchObject({
      status: 'queued',
      query: 'Open /x',
      error: null,
      finishedAt: null,
    });
    expect(await jobs.resubmit('ada', job.id, 'Open /y')).toBeNull();
  });

  it('cancels only a queued job of its owner', async () => {
    const { job } = await jobs.create(newJob());
    expect(await jobs.cancel('bob', job.id)).toBeNull();
    expect(await jobs.cancel('ada', job.id)).toMatchObject({ status: 'cancelled' });
    expect(await jobs.cancel('ada', job.id)).toBeNull();
    expect(await jobs.failUnfinished(job.id, 'lost')).toBe(false);
  });

  it('cancels a job waiting for input, not a running one', async () => {
    const { job } = await jobs.create(newJob());
    await jobs.claim(job.id, 'worker-1');
    expect(await jobs.cancel('ada', job.id)).toBeNull();
    await jobs.finish(
      job.id,
      { status: 'needs_input', summary: 'not understood', steps: [], error: INSTRUCTIONS_NOT_UNDERSTOOD },
      artifacts,
    );
    expect(await jobs.cancel('bob', job.id)).toBeNull();
    expect(await jobs.cancel('ada', job.id)).toMatchObject({ status: 'cancelled', error: null });
    expect(await jobs.resubmit('ada', job.id, 'Open /x')).toBeNull();
  });

  it('stores step progress in order in the job’s event log and publishes it', async () => {
    const { job } = await jobs.create(newJob());
    published.length = 0;
    const step = {
      index: 1,
      count: 2,
      text: 'Open /',
      action: 'navigate',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: null,
      durationMs: null,
      error: null,
    };
    await jobs.recordStep(job.id, { ...step, status: 'started' });
    await jobs.recordStep(job.id, {
      ...step,
      status: 'passed',
      finishedAt: '2026-01-01T00:00:01.000Z',
      durationMs: 1000,
    });
    const { rows } = await sqlPool(db).query<{ seq: number; kind: string; data: { status: string } }>(
      'SELECT seq, kind, data FROM job_events WHERE job_id = $1 ORDER BY seq',
      [job.id],
    );
    expect(rows.map((row) => [row.seq, row.kind, row.data.status])).toEqual([
      [1, 'step', 'started'],
      [2, 'step', 'passed'],
    ]);
    expect(
      published.map((event) => event.type === 'step' && [event.index, event.count, event.status]),
    ).toEqual([
      [1, 2, 'started'],
      [1, 2, 'passed'],
    ]);
  });

  it('lists an owner’s jobs newest first, by status, a page after a cursor', async () => {
    const owner = 'lister';
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await jobs.create(newJob({ owner }))).job);
    await jobs.cancel(owner, made[0]!.id);
    const all = await jobs.list({ owner, limit: 10 });
    expect(all.map((job) => job.id)).toEqual([made[2]!.id, made[1]!.id, made[0]!.id]);
    expect((await jobs.list({ owner, statuses: ['cancelled'], limit: 10 })).map((job) => job.id)).toEqual([
      made[0]!.id,
    ]);
    const after = all[0]!;
    expect(
      (await jobs.list({ owner, after: { createdAt: after.createdAt, id: after.id }, limit: 1 })).map(
        (j) => j.id,
      ),
    ).toEqual([made[1]!.id]);
    expect(await jobs.count({ owner, statuses: ['queued'] })).toBe(2);
  });
});
