import { Injectable, Logger } from '@nestjs/common';
import type { SendTestMailDto } from '@suite/contracts';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { ProjectsService } from './projects.service.js';
import { type SmtpServer, SmtpTestMailer } from './smtp-test-mailer.js';

/** What the SMTP server did with the test mail: accepted it, or the error in plain words. */
export type SmtpTestView =
  | { sent: true; to: string; messageId: string }
  | { sent: false; to: string; error: string; code: string | null };

const MAX_ERROR_LENGTH = 500;

/**
 * "Send test mail": one mail through the project's saved SMTP server, at once (not through the mail
 * queue), so the admin sees what the server said. A refusal is an answer, not a failed request.
 */
@Injectable()
export class SmtpTestService {
  private readonly logger = new Logger('control-plane');

  constructor(
    private readonly projects: ProjectsService,
    private readonly mailer: SmtpTestMailer,
  ) {}

  async send(projectId: string, body: SendTestMailDto): Promise<SmtpTestView> {
    const project = await this.projects.require(projectId);
    const smtp = project.smtpSettings;
    if (!smtp) {
      throw new AuthError(
        AuthErrorCode.InvalidRequest,
        'SMTP is not configured for this project: save the SMTP settings first.',
        { status: 409 },
      );
    }
    try {
      const { messageId } = await this.mailer.send(smtp, {
        to: body.to,
        subject: `Test mail from ${project.name.replace(/[\r\n]+/g, ' ')}`,
        text: `This is a test mail of the project ${project.name}, sent from the platform dashboard through ${smtp.host}:${smtp.port}.\n\nIf you can read it, the project's SMTP settings work.\n`,
      });
      return { sent: true, to: body.to, messageId };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const explained = explainSmtpError(error, smtp);
      this.logger.warn({ projectId: project.id, code }, 'test mail refused by the project SMTP server');
      return { sent: false, to: body.to, error: explained, code: typeof code === 'string' ? code : null };
    }
  }
}

/** nodemailer's error in words an admin can act on, with the server's own reply kept. */
export function explainSmtpError(
  error: unknown,
  server: Pick<SmtpServer, 'host' | 'port' | 'secure'>,
): string {
  const { code, message, response } = error as { code?: string; message?: string; response?: string };
  const where = `${server.host}:${server.port}`;
  const said = (response ?? message ?? String(error)).trim();
  let text: string;
  if (/ECONNREFUSED/.test(`${code} ${message}`)) {
    text = `Could not connect to ${where}: the connection was refused. Check the host and port.`;
  } else if (/ENOTFOUND|EAI_AGAIN/.test(`${code} ${message}`) || code === 'EDNS') {
    text = `The host name ${server.host} was not found in DNS. Check the host.`;
  } else if (/ETIMEDOUT|ETIMEOUT|timeout/i.test(`${code} ${message}`)) {
    text = `${where} did not answer in time. Check the host, the port and any firewall in between.`;
  } else if (code === 'EAUTH') {
    text = `The server refused the user name or password: ${said}`;
  } else if (code === 'ENOAUTH') {
    text = `The server asks for a user name and password; none are saved.`;
  } else if (code === 'EENVELOPE') {
    text = `The server refused the sender or recipient address: ${said}`;
  } else if (code === 'ETLS' || /ssl|tls|wrong version number/i.test(message ?? '')) {
    text = `The TLS handshake with ${where} failed (${said}). Port 465 needs "TLS from the start"; ports 587 and 25 use STARTTLS and need it off.`;
  } else if (code === 'EMESSAGE') {
    text = `The server refused the message: ${said}`;
  } else {
    text = `The SMTP exchange with ${where} failed: ${said}`;
  }
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}
