import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createMainClient, mainMigrationsDir, migrateDatabase, newId, type MainClient } from '@suite/db';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../db/src/testing/throwaway-database.js';
import { insertJob, type NewJob } from './job-insert.repository.js';

// Real Postgres: the one-statement insert must store and answer exactly what the Prisma client
// would have (the rest of the suite reads these rows through the client).
describe('insertJob', () => {
  let database: ThrowawayDatabase;
  let db: MainClient;

  const newJob = (fields: Partial<NewJob> = {}): NewJob => ({
    owner: 'insert-test',
    query: 'Open http://127.0.0.1:9/\nVerify the page contains "x"',
    initialUrl: 'http://127.0.0.1:9/',
    model: 'instruction-interpreter',
    env: 'local_browser',
    highlightMouse: true,
    metadata: undefined,
    traceContext: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    contextId: null,
    ...fields,
  });

  beforeAll(async () => {
    database = await createThrowawayDatabase('job_insert_test');
    await migrateDatabase({ url: database.url, migrationsDir: mainMigrationsDir() });
    db = createMainClient(database.url);
  });

  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  it('answers with the row exactly as the client reads it back', async () => {
    const { job, message } = await insertJob(
      db,
      newJob({ metadata: { team: 'qa', nested: { n: 1 } }, highlightMouse: false, env: 'hosted_browser' }),
    );
    expect(message).toBeUndefined();
    expect(job).toEqual(await db.job.findUniqueOrThrow({ where: { id: job.id } }));
    expect(job).toMatchObject({
      status: 'queued',
      steps: [],
      attempts: 0,
      metadata: { team: 'qa', nested: { n: 1 } },
    });
    expect(job.createdAt).toBeInstanceOf(Date);
  });

  it('stores no metadata as SQL NULL, like the client does for an absent field', async () => {
    const { job } = await insertJob(db, newJob());
    expect(job.metadata).toBeNull();
    expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).metadata).toBeNull();
  });

  it('makes time-ordered ids, as the schema default uuid(7) does', async () => {
    const first = (await insertJob(db, newJob())).job.id;
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = (await insertJob(db, newJob())).job.id;
    expect(first[14]).toBe('7');
    expect(second > first).toBe(true);
  });

  it('stores a new context and the first message with the job, in one statement', async () => {
    const contextId = newId();
    const parts = [{ text: 'Open the page' }, { data: { initialUrl: 'http://127.0.0.1:9/' } }];
    const { job, message } = await insertJob(db, newJob({ contextId }), {
      createContext: true,
      message: { messageId: 'm-1', role: 'ROLE_USER', parts, metadata: { a: 1 } },
    });
    expect(job.contextId).toBe(contextId);
    expect(await db.a2aContext.findUnique({ where: { id: contextId } })).toMatchObject({
      owner: 'insert-test',
    });
    const stored = await db.a2aMessage.findMany({ where: { taskId: job.id } });
    expect(stored).toEqual([message]);
    expect(message).toMatchObject({
      contextId,
      messageId: 'm-1',
      role: 'ROLE_USER',
      parts,
      metadata: { a: 1 },
    });
  });

  it('adds a task to an existing context without making another', async () => {
    const contextId = newId();
    await db.a2aContext.create({ data: { id: contextId, owner: 'insert-test' } });
    const { job } = await insertJob(db, newJob({ contextId }), {
      createContext: false,
      message: { messageId: null, role: 'ROLE_USER', parts: [{ text: 'x' }], metadata: undefined },
    });
    expect(await db.a2aContext.count({ where: { id: contextId } })).toBe(1);
    expect(await db.a2aMessage.count({ where: { taskId: job.id } })).toBe(1);
  });

  it('stores nothing when a row breaks a constraint (no job without its context)', async () => {
    const before = await db.job.count();
    await expect(
      insertJob(db, newJob({ contextId: newId() }), {
        createContext: false,
        message: { messageId: null, role: 'ROLE_USER', parts: [], metadata: undefined },
      }),
    ).rejects.toThrow();
    expect(await db.job.count()).toBe(before);
  });
});
