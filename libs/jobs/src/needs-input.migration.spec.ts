import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mainMigrationsDir, migrateDatabase } from '@suite/db';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createThrowawayDatabase,
  withClient,
  type ThrowawayDatabase,
} from '../../db/src/testing/throwaway-database.js';

const NEEDS_INPUT_MIGRATION = '20261126020000_job_needs_input';

// Real Postgres: jobs stored before "needs input" was a state of its own move to it.
describe(`migration ${NEEDS_INPUT_MIGRATION}`, () => {
  let database: ThrowawayDatabase;
  const earlier = mkdtempSync(join(tmpdir(), 'migrations-'));

  beforeAll(async () => {
    database = await createThrowawayDatabase('needs_input_migration');
    for (const name of readdirSync(mainMigrationsDir())) {
      if (name < NEEDS_INPUT_MIGRATION)
        cpSync(join(mainMigrationsDir(), name), join(earlier, name), { recursive: true });
    }
    await migrateDatabase({ url: database.url, migrationsDir: earlier });
  });

  afterAll(async () => {
    await database?.drop();
    rmSync(earlier, { recursive: true, force: true });
  });

  it('moves failed jobs whose instructions were not understood to needs_input, and no other job', async () => {
    const insert = `INSERT INTO jobs (id, owner, query, initial_url, model, status, error)
      VALUES (gen_random_uuid(), 'ada', $1, 'http://127.0.0.1/', 'instruction-interpreter', $2::job_status, $3)`;
    await withClient(database.url, async (client) => {
      await client.query(insert, ['not understood', 'failed', 'instructions not understood']);
      await client.query(insert, ['step failed', 'failed', 'step 2 failed']);
      await client.query(insert, ['queued', 'queued', null]);
    });
    await migrateDatabase({ url: database.url, migrationsDir: mainMigrationsDir() });
    const rows = await withClient(
      database.url,
      async (client) =>
        (
          await client.query<{ query: string; status: string }>(
            'SELECT query, status::text FROM jobs ORDER BY query',
          )
        ).rows,
    );
    expect(rows).toEqual([
      { query: 'not understood', status: 'needs_input' },
      { query: 'queued', status: 'queued' },
      { query: 'step failed', status: 'failed' },
    ]);
  });
});
