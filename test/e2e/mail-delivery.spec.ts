import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mailJobOptions } from '../../libs/project-runtime/src/index.js';
import { adminUrl } from '../../libs/db/src/testing/throwaway-database.js';
import { dropTenantDatabase } from '../../libs/db/src/tenant-provisioning.js';
import {
  createQueue,
  createRedisConnection,
  QueueName,
  type MailPayload,
  type TypedQueue,
} from '../../libs/queue/src/index.js';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { startProjectWorker, withWorker } from './user-auth-harness.js';
import { HostClient } from '../support/host-client.js';
import { sql } from '../support/runner-client.js';
import { startSmtpCapture, type SmtpCapture } from '../support/smtp-capture.js';

// Mail delivery by the BUILT project host: jobs are queued the way MailOutbox queues them (a
// mail_log row, then a job on the mail queue with the outbox's own job options) and delivered to
// a real SMTP server.

const TOKEN = `mail-admin-${randomBytes(12).toString('hex')}`;
const PREFIX = `${process.env.REDIS_PREFIX}-mail-delivery`;
const SMTP_PASS = `smtp-secret-${randomBytes(6).toString('hex')}`;
const run = randomBytes(3).toString('hex');
// A loaded machine (browsers of other suites) can take a while to start a Node process.
const BOOT_TIMEOUT_MS = 300_000;

interface MailRow {
  status: string;
  error: string | null;
  message_id: string | null;
  sent_at: Date | null;
}

describe('mail delivery', () => {
  const projects: string[] = [];
  let app: AppProcess;
  let api: HostClient;
  let smtp: SmtpCapture;
  let connection: ReturnType<typeof createRedisConnection>;
  let queue: TypedQueue<typeof QueueName.Mail>;

  const createProject = async (name: string): Promise<string> => {
    const res = await api.post('/v1/projects', { slug: `${name}-${run}` });
    expect(res.status).toBe(201);
    const { id } = res.json as { id: string };
    projects.push(id);
    return id;
  };

  /** What MailOutbox.enqueue does: the `queued` row first, then the job that delivers it. */
  const queueMail = async (projectId: string, content: MailPayload['content']): Promise<string> => {
    const id = randomUUID();
    await sql(`INSERT INTO mail_log (id, project_id, kind, "to", subject) VALUES ($1, $2, $3, $4, $5)`, [
      id,
      projectId,
      content.kind,
      content.to,
      content.subject,
    ]);
    await queue.add('send', { projectId, mailLogId: id, content, trace: {} }, mailJobOptions(id));
    return id;
  };

  const waitForRow = async (id: string, status: string, timeoutMs = 30_000): Promise<MailRow> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await sql<MailRow>(
        'SELECT status, error, message_id, sent_at FROM mail_log WHERE id = $1',
        [id],
      );
      if (row?.status === status) return row;
      if (Date.now() > deadline) throw new Error(`mail ${id} is ${JSON.stringify(row)}, not ${status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    connection = createRedisConnection(process.env.REDIS_URL!);
    queue = createQueue(QueueName.Mail, connection, { prefix: PREFIX });
    const port = await freePort();
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: PREFIX,
      TENANT_ADMIN_DATABASE_URL: adminUrl(),
      PLATFORM_ADMIN_TOKEN: TOKEN,
      HOST: '127.0.0.1',
      // Retries after 100, 200, 400 and 800 ms instead of seconds.
      MAIL_RETRY_DELAY_MS: '100',
      MAIL_SMTP_TIMEOUT_MS: '3000',
      LOG_LEVEL: 'debug',
    };
    // The host queues and shows mail; its project worker delivers it.
    const host = startApp('project-host', {
      ...env,
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
    });
    await waitForHttp(`http://127.0.0.1:${port}/health`, host);
    app = withWorker(host, await startProjectWorker(env));
    api = new HostClient(port, `localhost:${port}`, TOKEN);
  }, BOOT_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    await app?.stop('SIGKILL');
    for (const projectId of projects) await dropTenantDatabase({ adminUrl: adminUrl(), projectId });
    if (projects.length) await sql('DELETE FROM projects WHERE id = ANY($1::uuid[])', [projects]);
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    const hooks = createQueue(QueueName.AuthHooks, connection, { prefix: PREFIX });
    await hooks.obliterate({ force: true }).catch(() => undefined);
    await hooks.close();
    connection.disconnect();
    await smtp.close();
  });

  it('delivers a queued mail through the project\u2019s SMTP server and marks it sent', async () => {
    const projectId = await createProject('mail-ok');
    const saved = await api.put(`/v1/projects/${projectId}/smtp`, {
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      user: 'mailer',
      pass: SMTP_PASS,
      from: 'Acme Shop <no-reply@acme.test>',
    });
    expect(saved.status).toBe(200);

    const code = randomBytes(8).toString('hex');
    const id = await queueMail(projectId, {
      kind: 'magic-link',
      to: 'ada@example.test',
      subject: 'Your sign-in link',
      text: `Sign in with code ${code}`,
      html: `<p>Sign in with code <b>${code}</b></p>`,
    });

    const mail = await smtp.waitFor((m) => m.to === 'ada@example.test' && m.text.includes(code), 30_000);
    expect(mail).toMatchObject({
      from: 'no-reply@acme.test',
      fromName: 'Acme Shop',
      envelope: { from: 'no-reply@acme.test', to: ['ada@example.test'] },
      subject: 'Your sign-in link',
      user: 'mailer',
      pass: SMTP_PASS,
    });
    expect(mail.text.trim()).toBe(`Sign in with code ${code}`);
    expect(mail.html).toContain(`<b>${code}</b>`);

    const row = await waitForRow(id, 'sent');
    expect(row).toMatchObject({ error: null, message_id: mail.messageId, sent_at: expect.any(Date) });

    const log = await api.get(`/v1/projects/${projectId}/emails`);
    expect((log.json as { items: unknown[] }).items).toEqual([
      {
        id,
        kind: 'magic-link',
        to: 'ada@example.test',
        subject: 'Your sign-in link',
        status: 'sent',
        error: null,
        messageId: mail.messageId,
        createdAt: expect.any(String),
        sentAt: expect.any(String),
      },
    ]);

    // Neither the SMTP password nor the mail's sign-in code reaches the log.
    expect(app.output()).toContain(id);
    expect(app.output()).not.toContain(SMTP_PASS);
    expect(app.output()).not.toContain(code);
  });

  it('retries an unreachable SMTP server with backoff, then marks the mail failed with the error', async () => {
    const projectId = await createProject('mail-down');
    const deadPort = await freePort();
    await api.put(`/v1/projects/${projectId}/smtp`, {
      host: '127.0.0.1',
      port: deadPort,
      secure: false,
      from: 'no-reply@acme.test',
    });
    const id = await queueMail(projectId, {
      kind: 'welcome',
      to: 'bob@example.test',
      subject: 'Welcome',
      text: 'Hello',
    });

    const row = await waitForRow(id, 'failed');
    expect(row.error).toMatch(/ECONNREFUSED/);
    expect(row.sent_at).toBeNull();
    const job = await queue.getJob(id);
    expect(await job!.getState()).toBe('failed');
    expect(job!.attemptsMade).toBe(5);
    expect(smtp.messages.some((m) => m.to === 'bob@example.test')).toBe(false);
  });

  it('fails a mail at once when the project has no SMTP settings', async () => {
    const projectId = await createProject('mail-unset');
    const id = await queueMail(projectId, {
      kind: 'forgot-password',
      to: 'cy@example.test',
      subject: 'Reset your password',
      text: 'code',
    });

    const row = await waitForRow(id, 'failed');
    expect(row.error).toBe('SMTP is not configured for this project');
    const job = await queue.getJob(id);
    expect(await job!.getState()).toBe('failed');
    expect(job!.attemptsMade).toBe(1);

    const log = await api.get(`/v1/projects/${projectId}/emails?status=failed`);
    expect((log.json as { items: unknown[] }).items).toMatchObject([
      { id, status: 'failed', error: 'SMTP is not configured for this project', sentAt: null },
    ]);
  });

  it('skips a mail whose row is gone with its project', async () => {
    const projectId = await createProject('mail-gone');
    const id = randomUUID();
    await queue.add(
      'send',
      {
        projectId,
        mailLogId: id,
        content: { kind: 'welcome', to: 'gone@example.test', subject: 'Hi', text: 'x' },
        trace: {},
      },
      mailJobOptions(id),
    );
    const deadline = Date.now() + 60_000;
    // Done: completed, and removed at once (a delivered mail leaves nothing in Redis); the worker
    // may finish it before the first look, so a job already gone counts as done.
    const stateOf = async () => (await queue.getJob(id))?.getState() ?? 'unknown';
    while (!['completed', 'unknown'].includes(await stateOf())) {
      if (Date.now() > deadline) throw new Error(`job is ${await stateOf()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(smtp.messages.some((m) => m.to === 'gone@example.test')).toBe(false);
  });

  it('stops cleanly on SIGTERM with the worker running', async () => {
    expect([0, 'SIGTERM']).toContain(await app.stop('SIGTERM'));
    expect(app.output()).not.toMatch(/"level":(50|60)/);
  });
});
