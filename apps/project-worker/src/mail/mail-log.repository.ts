import { Injectable } from '@nestjs/common';
import { MailStatus } from '@suite/db';
import { RuntimeResources } from '@suite/project-runtime';

/** The mail log rows and SMTP settings the delivery worker reads and writes. */
@Injectable()
export class MailLogRepository {
  constructor(private readonly resources: RuntimeResources) {}

  find(id: string) {
    return this.resources.db.mailLog.findUnique({ where: { id } });
  }

  smtpSettings(projectId: string) {
    return this.resources.db.smtpSettings.findUnique({ where: { projectId } });
  }

  async markSent(id: string, messageId: string): Promise<void> {
    await this.resources.db.mailLog.updateMany({
      where: { id },
      data: { status: MailStatus.sent, messageId, sentAt: new Date(), error: null },
    });
  }

  /** An attempt failed and another one will follow: the row stays queued and shows why. */
  async recordError(id: string, error: string): Promise<void> {
    await this.resources.db.mailLog.updateMany({ where: { id }, data: { error } });
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.resources.db.mailLog.updateMany({ where: { id }, data: { status: MailStatus.failed, error } });
  }
}
