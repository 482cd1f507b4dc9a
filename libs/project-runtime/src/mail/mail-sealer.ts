import { Inject, Injectable } from '@nestjs/common';
import { PROJECT_RUNTIME_CONFIG } from '../runtime.config.js';
import type { ProjectRuntimeConfig } from '../runtime.config.js';
import { AuthSecrets } from '../crypto/auth-secrets.js';

/** What of a mail is secret: its body carries sign-in links and codes. */
export interface MailBody {
  subject: string;
  text: string;
  html?: string;
}

/**
 * Mail bodies wait in Redis (the mail queue) until delivered, and a failed mail's job stays there
 * for days: they are sealed with a key derived from AUTH_SECRET (AES-256-GCM, bound to the mail-log
 * row), so Redis never holds a sign-in link or code in clear.
 */
@Injectable()
export class MailSealer {
  private readonly secrets: AuthSecrets;

  constructor(@Inject(PROJECT_RUNTIME_CONFIG) config: ProjectRuntimeConfig) {
    this.secrets = AuthSecrets.fromConfig(config);
  }

  seal(mailLogId: string, body: MailBody): string {
    return this.secrets.seal('mail-seal', JSON.stringify(body), aad(mailLogId));
  }

  /** The body, or undefined when it was sealed with another secret or for another row. */
  open(mailLogId: string, sealed: string): MailBody | undefined {
    const opened = this.secrets.open('mail-seal', sealed, aad(mailLogId));
    if (!opened) return undefined;
    const body = JSON.parse(opened.toString('utf8')) as Partial<MailBody>;
    if (typeof body.subject !== 'string' || typeof body.text !== 'string') return undefined;
    return {
      subject: body.subject,
      text: body.text,
      ...(typeof body.html === 'string' ? { html: body.html } : {}),
    };
  }
}

const aad = (mailLogId: string): string => `mail:${mailLogId}`;
