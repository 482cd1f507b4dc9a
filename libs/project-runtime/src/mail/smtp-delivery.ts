import type { MainDb } from '@suite/db';
import { createTransport } from 'nodemailer';

/** What a project's SMTP settings say about reaching its server. */
export type SmtpServer = Pick<MainDb.SmtpSettings, 'host' | 'port' | 'secure' | 'user' | 'pass' | 'from'>;

export interface SmtpMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SmtpTimeouts {
  /** Connecting, the greeting and the DNS lookup, each. */
  stepMs: number;
  /** A socket silent for this long is closed (the DATA phase of a large mail takes longest). */
  socketMs: number;
}

/**
 * Sends one mail through a project's SMTP server over a connection of its own (closed after), with
 * short timeouts and nodemailer's logging off (it would print credentials and addresses). Used by
 * the project worker's delivery and the control plane's test mail alike.
 */
export async function deliverSmtpMail(
  server: SmtpServer,
  mail: SmtpMail,
  timeouts: SmtpTimeouts,
): Promise<{ messageId: string }> {
  const transport = createTransport({
    host: server.host,
    port: server.port,
    secure: server.secure,
    ...(server.user ? { auth: { user: server.user, pass: server.pass ?? '' } } : {}),
    connectionTimeout: timeouts.stepMs,
    greetingTimeout: timeouts.stepMs,
    dnsTimeout: timeouts.stepMs,
    socketTimeout: timeouts.socketMs,
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
