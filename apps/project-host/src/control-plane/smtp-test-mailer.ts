import { Injectable } from '@nestjs/common';
import { deliverSmtpMail, type SmtpServer } from '@suite/project-runtime';

export type { SmtpServer } from '@suite/project-runtime';

/** How long the test waits for each step of the SMTP exchange. */
const TIMEOUT_MS = 10_000;

/** The nodemailer adapter of the test mail: one connection, short timeouts, nothing logged. */
@Injectable()
export class SmtpTestMailer {
  send(
    server: SmtpServer,
    mail: { to: string; subject: string; text: string },
  ): Promise<{ messageId: string }> {
    return deliverSmtpMail(server, mail, { stepMs: TIMEOUT_MS, socketMs: TIMEOUT_MS * 2 });
  }
}
