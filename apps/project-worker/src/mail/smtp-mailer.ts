import { Inject, Injectable } from '@nestjs/common';
import { deliverSmtpMail, type SmtpServer } from '@suite/project-runtime';
import type { MailPayload } from '@suite/queue';
import { MAIL_DELIVERY_CONFIG, type MailDeliveryConfig } from './mail-delivery.config.js';

export type { SmtpServer } from '@suite/project-runtime';

/** The nodemailer adapter: one short-lived SMTP connection per mail, with short timeouts. */
@Injectable()
export class SmtpMailer {
  constructor(@Inject(MAIL_DELIVERY_CONFIG) private readonly config: MailDeliveryConfig) {}

  send(server: SmtpServer, mail: MailPayload['content']): Promise<{ messageId: string }> {
    const timeout = this.config.MAIL_SMTP_TIMEOUT_MS;
    return deliverSmtpMail(server, mail, { stepMs: timeout, socketMs: timeout * 3 });
  }
}
