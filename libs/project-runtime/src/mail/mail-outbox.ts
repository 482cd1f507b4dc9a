import { Logger } from '@nestjs/common';
import type { QueueName, TypedQueue } from '@suite/queue';
import { injectTraceContext } from '@suite/telemetry';
import { mailJobOptions } from './mail-job.js';
import type { MailLogRepository } from './mail-log.repository.js';
import type { MailSealer } from './mail-sealer.js';

/** The five mail kinds of the spec, and `custom`: a mail of project code (ctx.email.send). */
export type MailKind =
  'welcome' | 'magic-link' | 'forgot-password' | 'email-change' | 'auth.email-changed' | 'custom';

export interface OutgoingMail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Values the mail log's preview must hide (the mail's sign-in code and link); see mailPreview. */
  secrets?: readonly string[];
}

/**
 * Mail leaves from a queue, never inside the request: this records the mail in the mail log as
 * `queued` and enqueues its delivery. Failures here are logged and never fail the caller's request
 * (mail is best effort in the spec). The body is in the queue payload sealed (MailSealer), and the
 * job is removed once delivered. Built by MAIL_OUTBOX_PROVIDERS.
 */
export class MailOutbox {
  private readonly logger = new Logger('mail');

  constructor(
    private readonly mailLog: MailLogRepository,
    private readonly mailQueue: TypedQueue<typeof QueueName.Mail>,
    private readonly sealer: MailSealer,
  ) {}

  /**
   * Records a mail that is not sent (its class's hourly budget is spent) as failed with the
   * reason, so the Email page shows what was dropped and why. Never throws.
   */
  async recordDropped(projectId: string, mail: OutgoingMail, reason: string): Promise<void> {
    this.logger.warn({ projectId, kind: mail.kind, reason }, 'mail dropped');
    await this.mailLog
      .recordDropped(projectId, mail, reason)
      .catch((error: unknown) =>
        this.logger.error({ err: error, projectId, kind: mail.kind }, 'could not record a dropped mail'),
      );
  }

  async enqueue(projectId: string, mail: OutgoingMail): Promise<string | undefined> {
    let rowId: string | undefined;
    try {
      const row = await this.mailLog.recordQueued(projectId, mail);
      rowId = row.id;
      await this.mailQueue.add(
        'send',
        {
          projectId,
          mailLogId: row.id,
          trace: injectTraceContext(),
          // Only the kind and the address in clear: the body is sealed (links and codes).
          content: { kind: mail.kind, to: mail.to, subject: '', text: '' },
          sealed: this.sealer.seal(row.id, {
            subject: mail.subject,
            text: mail.text,
            ...(mail.html === undefined ? {} : { html: mail.html }),
          }),
        },
        mailJobOptions(row.id),
      );
      return row.id;
    } catch (error) {
      this.logger.error({ err: error, projectId, kind: mail.kind }, 'could not queue a mail');
      // A row that no job will ever pick up would stay "queued" on the Email page forever.
      if (rowId) {
        await this.mailLog
          .markFailed(rowId, `The mail could not be queued: ${(error as Error).message}`)
          .catch(() => undefined);
      }
      return undefined;
    }
  }
}
