import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ConnectionBudget,
  createMainClient,
  isConnectionBudgetError,
  mainMigrationsDir,
  migrateDatabase,
  sqlPool,
  type MainClient,
} from '@suite/db';
import {
  createThrowawayDatabase,
  type ThrowawayDatabase,
} from '../../../../libs/db/src/testing/throwaway-database.js';
import { MailLogRepository, MailSealer, type ProjectRuntimeConfig } from '@suite/project-runtime';
import type { QueueName, TypedJob } from '@suite/queue';
import { UnrecoverableError } from 'bullmq';
import { MailDeliveryProcessor } from './mail-delivery.processor.js';
import type { SmtpMailer } from './smtp-mailer.js';
import { SmtpSettingsReader } from './smtp-settings.reader.js';

// The worker's main database inside a full connection budget (real Postgres): delivering a mail
// fails that attempt with an error BullMQ retries (with the mail queue's backoff), never the
// UnrecoverableError that would lose the mail, and the mail log row is left queued.

let database: ThrowawayDatabase;
let db: MainClient;
const budget = new ConnectionBudget({ size: 2, reservedForMain: 1, waitMs: 300 });

beforeAll(async () => {
  database = await createThrowawayDatabase('budget_mail');
  await migrateDatabase({ url: database.url, migrationsDir: mainMigrationsDir() });
  db = createMainClient(database.url, { budget });
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

function processor(): MailDeliveryProcessor {
  const sealer = new MailSealer({
    AUTH_SECRET: 'mail-delivery-budget-spec-secret-0123456789',
  } as unknown as ProjectRuntimeConfig);
  const mailer = {
    send: () => Promise.reject(new Error('no mail is sent in this spec')),
  } as unknown as SmtpMailer;
  return new MailDeliveryProcessor(new MailLogRepository(db), new SmtpSettingsReader(db), mailer, sealer);
}

const job = {
  data: {
    projectId: 'p',
    mailLogId: '00000000-0000-4000-8000-000000000001',
    trace: {},
    content: { kind: 'welcome', to: 'x@y.test', subject: 'Hi', text: 'code' },
  },
  attemptsMade: 0,
  opts: { attempts: 5 },
} as unknown as TypedJob<typeof QueueName.Mail>;

describe('mail delivery under a full connection budget', () => {
  it('fails the attempt with a retryable error while every connection is taken, and works once one frees up', async () => {
    const held = [await sqlPool(db).connect(), await sqlPool(db).connect()];
    let failure: unknown;
    try {
      failure = await processor()
        .deliver(job)
        .then(
          () => undefined,
          (error: unknown) => error,
        );
    } finally {
      for (const client of held) client.release();
    }
    expect(isConnectionBudgetError(failure)).toBe(true);
    expect(failure).not.toBeInstanceOf(UnrecoverableError);

    // The next attempt reaches the database (no such mail here, so nothing to send).
    await expect(processor().deliver(job)).resolves.toBe('skipped');
  });
});
