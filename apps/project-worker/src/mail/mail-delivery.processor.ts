import { Injectable, Logger } from '@nestjs/common';
import { MailStatus } from '@suite/db';
import type { QueueName, TypedJob } from '@suite/queue';
import { extractTraceContext, mailOutcomes, withSpan } from '@suite/telemetry';
import { UnrecoverableError } from 'bullmq';
import { MailLogRepository, MailSealer } from '@suite/project-runtime';
import { SmtpMailer } from './smtp-mailer.js';
import { SmtpSettingsReader } from './smtp-settings.reader.js';

export const SMTP_NOT_CONFIGURED = 'SMTP is not configured for this project';

const MAX_ERROR_LENGTH = 1_000;

export type DeliveryOutcome = 'sent' | 'skipped';

/**
 * Delivers one queued mail through its project's SMTP server and keeps its mail-log row current:
 * `sent` with the message id, or the error of the failed attempt. A failure is thrown back to
 * BullMQ, which retries it with backoff; the last attempt, a missing SMTP configuration and a
 * permanent SMTP refusal (5xx) leave the row `failed`. Mail bodies (which carry sign-in codes)
 * and SMTP credentials never reach the log.
 */
@Injectable()
export class MailDeliveryProcessor {
  private readonly logger = new Logger('mail-delivery');

  constructor(
    private readonly mailLog: MailLogRepository,
    private readonly smtpSettings: SmtpSettingsReader,
    private readonly mailer: SmtpMailer,
    private readonly sealer: MailSealer,
  ) {}

  deliver(job: TypedJob<typeof QueueName.Mail>): Promise<DeliveryOutcome> {
    const { projectId, mailLogId, sealed, trace } = job.data;
    let { content } = job.data;
    const attempt = job.attemptsMade + 1;
    const attempts = job.opts.attempts ?? 1;
    const facts = { projectId, mailLogId, kind: content.kind, attempt, attempts };
    return withSpan(
      'mail.deliver',
      async () => {
        const row = await this.mailLog.find(mailLogId);
        // Gone with its project, or delivered already by an earlier run of a stalled job.
        if (!row || row.status !== MailStatus.queued) return 'skipped';

        if (sealed !== undefined) {
          const body = this.sealer.open(mailLogId, sealed);
          if (!body) {
            // Sealed with another AUTH_SECRET (it changed meanwhile): no retry can open it.
            const reason = 'The mail could not be opened (AUTH_SECRET changed since it was queued)';
            await this.mailLog.markFailed(mailLogId, reason);
            this.logger.warn(facts, reason);
            throw new UnrecoverableError(reason);
          }
          content = { ...content, ...body };
        }

        const smtp = await this.smtpSettings.find(projectId);
        if (!smtp) {
          await this.mailLog.markFailed(mailLogId, SMTP_NOT_CONFIGURED);
          this.logger.warn(facts, SMTP_NOT_CONFIGURED);
          throw new UnrecoverableError(SMTP_NOT_CONFIGURED);
        }

        try {
          const { messageId } = await this.mailer.send(smtp, content);
          await this.mailLog.markSent(mailLogId, messageId);
          this.logger.log(facts, 'mail sent');
          return 'sent';
        } catch (error) {
          const reason = describe(error);
          const permanent = isPermanent(error);
          if (permanent || attempt >= attempts) {
            await this.mailLog.markFailed(mailLogId, reason);
            this.logger.warn({ ...facts, error: reason }, 'mail not delivered');
            // BullMQ retries nothing after an UnrecoverableError; after the last attempt it has no retry left.
            if (permanent) throw new UnrecoverableError(reason);
            throw error;
          }
          await this.mailLog.recordError(
            mailLogId,
            `${reason} (attempt ${attempt} of ${attempts}; retrying)`,
          );
          this.logger.warn({ ...facts, error: reason }, 'mail delivery failed; will retry');
          throw error;
        }
      },
      {
        parent: extractTraceContext(trace),
        attributes: { 'project.id': projectId, 'mail.kind': content.kind },
      },
    ).then(
      (outcome) => {
        mailOutcomes.inc({ kind: content.kind, outcome });
        return outcome;
      },
      (error: unknown) => {
        const final = error instanceof UnrecoverableError || attempt >= attempts;
        mailOutcomes.inc({ kind: content.kind, outcome: final ? 'failed' : 'retry' });
        throw error;
      },
    );
  }
}

/** The error's own words (nodemailer's include the server's reply), never its other fields. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH)}…` : message;
}

/** The server refused for good (5xx, e.g. bad credentials or a rejected recipient): retrying will not help. */
function isPermanent(error: unknown): boolean {
  const responseCode = (error as { responseCode?: unknown }).responseCode;
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
}
