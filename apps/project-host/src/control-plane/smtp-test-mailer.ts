import { Injectable } from '@nestjs/common';
import type { MainDb } from '@suite/db';
import { createTransport } from 'nodemailer';

export type SmtpServer = Pick<MainDb.SmtpSettings, 'host' | 'port' | 'secure' | 'user' | 'pass' | 'from'>;

/** How long the test waits for each step of the SMTP exchange. */
const TIMEOUT_MS = 10_000;

/** The nodemailer adapter of the test mail: one connection, short timeouts, nothing logged. */
@Injectable()
export class SmtpTestMailer {
  async send(
    server: SmtpServer,
    mail: { to: string; subject: string; text: string },
  ): Promise<{ messageId: string }> {
    const transport = createTransport({
      host: server.host,
      port: server.port,
      secure: server.secure,
      ...(server.user ? { auth: { user: server.user, pass: server.pass ?? '' } } : {}),
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      dnsTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS * 2,
      logger: false,
      debug: false,
    });
    try {
      const info = await transport.sendMail({
        from: server.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      return { messageId: info.messageId };
    } finally {
      transport.close();
    }
  }
}
