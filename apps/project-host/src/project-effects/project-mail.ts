import { Injectable } from '@nestjs/common';
import { MailOutbox } from '../mail/mail-outbox.js';
import { AuthRateLimits } from '../user-auth/limits/auth-rate-limits.js';
import { EffectError, isRecord } from './effect-error.js';

const MAX_SUBJECT = 300;
const MAX_BODY = 256 * 1024;
/** One plain address (the display name belongs in the SMTP settings' From, not here). */
const ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

/**
 * ctx.email.send: a mail of project code through the project's SMTP settings and mail queue, kind
 * `custom` in the mail log, counted against the project's hourly mail budget like auth mails.
 * Resolves once the mail is queued (delivery and its retries are the mail worker's).
 */
@Injectable()
export class ProjectMail {
  constructor(
    private readonly outbox: MailOutbox,
    private readonly limits: AuthRateLimits,
  ) {}

  async send(projectId: string, input: unknown): Promise<{ id: string }> {
    const mail = parse(input);
    if (!(await this.limits.takeProjectMail(projectId))) {
      throw new EffectError('ctx.email.send: the project has sent its hourly mail budget; try later');
    }
    const id = await this.outbox.enqueue(projectId, { kind: 'custom', ...mail });
    if (!id) throw new EffectError('ctx.email.send: the mail could not be queued; try again');
    return { id };
  }
}

function parse(input: unknown): { to: string; subject: string; text: string; html?: string } {
  if (!isRecord(input)) throw new EffectError('ctx.email.send: pass { to, subject, text?, html? }');
  const { to, subject, text, html } = input;
  if (typeof to !== 'string' || !ADDRESS.test(to.trim()) || to.length > 320) {
    throw new EffectError('ctx.email.send: to must be one email address');
  }
  if (typeof subject !== 'string' || subject.trim() === '' || /[\r\n]/.test(subject)) {
    throw new EffectError('ctx.email.send: subject must be a non-empty single line');
  }
  if (subject.length > MAX_SUBJECT) {
    throw new EffectError(`ctx.email.send: subject is limited to ${MAX_SUBJECT} characters`);
  }
  if (text !== undefined && typeof text !== 'string')
    throw new EffectError('ctx.email.send: text must be a string');
  if (html !== undefined && typeof html !== 'string')
    throw new EffectError('ctx.email.send: html must be a string');
  if (!text && !html) throw new EffectError('ctx.email.send: give text or html');
  if ((text?.length ?? 0) + (html?.length ?? 0) > MAX_BODY) {
    throw new EffectError(`ctx.email.send: text and html together are limited to ${MAX_BODY} characters`);
  }
  return { to: to.trim(), subject, text: text ?? '', ...(html ? { html } : {}) };
}
