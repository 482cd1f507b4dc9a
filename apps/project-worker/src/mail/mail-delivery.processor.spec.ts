import { describe, expect, it } from '@jest/globals';
import type { QueueName, TypedJob } from '@suite/queue';
import {
  MailSealer,
  mailRetryDelay,
  type MailLogRepository,
  type ProjectRuntimeConfig,
} from '@suite/project-runtime';
import { UnrecoverableError } from 'bullmq';
import { MailDeliveryProcessor, SMTP_NOT_CONFIGURED } from './mail-delivery.processor.js';
import type { SmtpMailer, SmtpServer } from './smtp-mailer.js';
import type { SmtpSettingsReader } from './smtp-settings.reader.js';

const sealer = new MailSealer({
  AUTH_SECRET: 'mail-delivery-processor-spec-secret-0123456789',
} as unknown as ProjectRuntimeConfig);

const SMTP: SmtpServer = {
  host: 'smtp.test',
  port: 25,
  secure: false,
  user: null,
  pass: null,
  from: 'a@b.test',
};

function setup(options: {
  status?: string | null;
  smtp?: SmtpServer | null;
  send?: () => Promise<{ messageId: string }>;
}) {
  const calls: string[] = [];
  const repository = {
    find: async () => (options.status === null ? null : { status: options.status ?? 'queued' }),
    markSent: async (_id: string, messageId: string) => void calls.push(`sent ${messageId}`),
    recordError: async (_id: string, error: string) => void calls.push(`error ${error}`),
    markFailed: async (_id: string, error: string) => void calls.push(`failed ${error}`),
  } as unknown as MailLogRepository;
  const smtpSettings = {
    find: async () => (options.smtp === undefined ? SMTP : options.smtp),
  } as unknown as SmtpSettingsReader;
  const mailer = {
    send: async () => {
      calls.push('send');
      return (options.send ?? (async () => ({ messageId: '<m@test>' })))();
    },
  } as unknown as SmtpMailer;
  const processor = new MailDeliveryProcessor(repository, smtpSettings, mailer, sealer);
  const job = (attemptsMade: number) =>
    ({
      data: {
        projectId: 'p',
        mailLogId: 'm',
        trace: {},
        content: { kind: 'welcome', to: 'x@y.test', subject: 'Hi', text: 'secret-code' },
      },
      attemptsMade,
      opts: { attempts: 5 },
    }) as unknown as TypedJob<typeof QueueName.Mail>;
  return { calls, processor, job };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:2525'), { code: 'ESOCKET' });
const rejected = Object.assign(new Error('Invalid login: 535 Authentication failed'), { responseCode: 535 });

describe('MailDeliveryProcessor', () => {
  it('sends and marks the row sent with the message id', async () => {
    const { calls, processor, job } = setup({});
    await expect(processor.deliver(job(0))).resolves.toBe('sent');
    expect(calls).toEqual(['send', 'sent <m@test>']);
  });

  it('skips a row that is gone or no longer queued, without sending', async () => {
    for (const status of [null, 'sent', 'failed']) {
      const { calls, processor, job } = setup({ status });
      await expect(processor.deliver(job(0))).resolves.toBe('skipped');
      expect(calls).toEqual([]);
    }
  });

  it('fails at once, without retries, when the project has no SMTP settings', async () => {
    const { calls, processor, job } = setup({ smtp: null });
    await expect(processor.deliver(job(0))).rejects.toBeInstanceOf(UnrecoverableError);
    expect(calls).toEqual([`failed ${SMTP_NOT_CONFIGURED}`]);
  });

  it('records the error and lets BullMQ retry while attempts remain', async () => {
    const { calls, processor, job } = setup({ send: () => Promise.reject(refused) });
    await expect(processor.deliver(job(3))).rejects.toBe(refused);
    expect(calls).toEqual(['send', 'error connect ECONNREFUSED 127.0.0.1:2525 (attempt 4 of 5; retrying)']);
  });

  it('marks the row failed after the last attempt', async () => {
    const { calls, processor, job } = setup({ send: () => Promise.reject(refused) });
    await expect(processor.deliver(job(4))).rejects.toBe(refused);
    expect(calls).toEqual(['send', 'failed connect ECONNREFUSED 127.0.0.1:2525']);
  });

  it('does not retry a permanent SMTP refusal (5xx)', async () => {
    const { calls, processor, job } = setup({ send: () => Promise.reject(rejected) });
    await expect(processor.deliver(job(0))).rejects.toBeInstanceOf(UnrecoverableError);
    expect(calls).toEqual(['send', 'failed Invalid login: 535 Authentication failed']);
  });
});

describe('sealed mail bodies', () => {
  it('opens the sealed body for the SMTP server; the job data holds no link or code in clear', async () => {
    const sent: unknown[] = [];
    const repository = {
      find: async () => ({ status: 'queued' }),
      markSent: async () => undefined,
      markFailed: async () => undefined,
    } as unknown as MailLogRepository;
    const mailer = {
      send: async (_smtp: unknown, content: unknown) => {
        sent.push(content);
        return { messageId: '<m@test>' };
      },
    } as unknown as SmtpMailer;
    const smtpSettings = { find: async () => SMTP } as unknown as SmtpSettingsReader;
    const processor = new MailDeliveryProcessor(repository, smtpSettings, mailer, sealer);
    const data = {
      projectId: 'p',
      mailLogId: 'row-1',
      trace: {},
      content: { kind: 'magic-link', to: 'x@y.test', subject: '', text: '' },
      sealed: sealer.seal('row-1', { subject: 'Your sign-in link', text: 'https://app/?code=SECRET-CODE' }),
    };
    expect(JSON.stringify(data)).not.toContain('SECRET-CODE');
    const job = { data, attemptsMade: 0, opts: { attempts: 5 } } as unknown as TypedJob<
      typeof QueueName.Mail
    >;
    await expect(processor.deliver(job)).resolves.toBe('sent');
    expect(sent).toEqual([
      {
        kind: 'magic-link',
        to: 'x@y.test',
        subject: 'Your sign-in link',
        text: 'https://app/?code=SECRET-CODE',
      },
    ]);
    // A sealed body moved to another row does not open: failed for good, nothing sent.
    const moved = { ...job, data: { ...data, mailLogId: 'row-2' } } as unknown as TypedJob<
      typeof QueueName.Mail
    >;
    await expect(processor.deliver(moved)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(sent).toHaveLength(1);
  });
});

describe('mailRetryDelay', () => {
  it('doubles from the base delay and stops at one hour', () => {
    expect([1, 2, 3, 4].map((n) => mailRetryDelay(n, 2_000))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(mailRetryDelay(40, 2_000)).toBe(3_600_000);
  });
});
