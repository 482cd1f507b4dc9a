import { Inject, Injectable } from '@nestjs/common';
import type { MainDb } from '@suite/db';
import type { MailPayload } from '@suite/queue';
import { createTransport } from 'nodemailer';
import { MAIL_DELIVERY_CONFIG, type MailDeliveryConfig } from './mail-delivery.config.js';

export type SmtpServer = Pick<MainDb.SmtpSettings, 'host' | 'port' | 'secure' | 'user' | 'pass' | 'from'>;

/** The nodemailer adapter: one short-lived SMTP connection per mail, with short timeouts. */
@Injectable()
export class SmtpMailer {
  constructor(@Inject(MAIL_DELIVERY_CONFIG) private readonly config: MailDeliveryConfig) {}

  async send(server: SmtpServer, mail: MailPayload['content']): Promise<{ messageId: string }> {
    const timeout = this.config.MAIL_SMTP_TIMEOUT_MS;
    const transport = createTransport({
      host: server.host,
      port: server.port,
      secure: server.secure,
      ...(server.user ? { auth: { user: server.user, pass: server.pass ?? '' } } : {}),
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      dnsTimeout: timeout,
      socketTimeout: timeout * 3,
      logger: false,
      debug: false,
    });
    try {
      const info = await transport.sendMail({
        from: server.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      return { messageId: info.messageId };
    } finally {
      transport.close();
    }
  }
}
