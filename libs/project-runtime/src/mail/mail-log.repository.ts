import { MailStatus, type MainClient, type MainDb } from '@suite/db';
import type { OutgoingMail } from './mail-outbox.js';
import { mailPreview } from './mail-preview.js';

/**
 * The one writer of `mail_log`: a mail is recorded `queued` (or `failed` when it is dropped) by the
 * outbox of whichever process sends it, and moved to `sent` or `failed` by the delivery worker. The
 * control plane's Email page only reads the table.
 */
export class MailLogRepository {
  constructor(private readonly db: MainClient) {}

  find(id: string): Promise<MainDb.MailLog | null> {
    return this.db.mailLog.findUnique({ where: { id } });
  }

  /** A mail about to be queued for delivery: its row, `queued`, with a preview hiding its secrets. */
  recordQueued(projectId: string, mail: OutgoingMail): Promise<MainDb.MailLog> {
    return this.db.mailLog.create({
      data: {
        projectId,
        kind: mail.kind,
        to: mail.to,
        subject: mail.subject,
        preview: mailPreview(mail.text, mail.secrets),
      },
    });
  }

  /** A mail that is not sent at all (`reason`: why), so the Email page shows what was dropped. */
  async recordDropped(projectId: string, mail: OutgoingMail, reason: string): Promise<void> {
    await this.db.mailLog.create({
      data: {
        projectId,
        kind: mail.kind,
        to: mail.to,
        subject: mail.subject,
        preview: mailPreview(mail.text, mail.secrets),
        status: MailStatus.failed,
        error: `Not sent: ${reason}.`,
      },
    });
  }

  async markSent(id: string, messageId: string): Promise<void> {
    await this.db.mailLog.updateMany({
      where: { id },
      data: { status: MailStatus.sent, messageId, sentAt: new Date(), error: null },
    });
  }

  /** An attempt failed and another one will follow: the row stays queued and shows why. */
  async recordError(id: string, error: string): Promise<void> {
    await this.db.mailLog.updateMany({ where: { id }, data: { error } });
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.db.mailLog.updateMany({ where: { id }, data: { status: MailStatus.failed, error } });
  }
}
