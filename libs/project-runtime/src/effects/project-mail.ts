import { Inject, Injectable } from '@nestjs/common';
import { PROJECT_RUNTIME_CONFIG } from '../runtime.config.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import type { ProjectRuntimeConfig } from '../runtime.config.js';
import { ProjectMailBudget } from '../runtime.ports.js';
import { EffectError, isRecord } from './effect-error.js';
import { EffectRateLimit, EffectRateLimits } from './effect-rate-limit.js';

const MAX_SUBJECT = 300;
/** One plain address (the display name belongs in the SMTP settings' From, not here). */
const ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

/**
 * ctx.email.send: a mail of project code through the project's SMTP settings and mail queue, kind
 * `custom` in the mail log. Limited per project to PROJECT_EMAIL_PER_MINUTE, and counted with the
 * welcome mails in the project's hourly bulk budget (MAIL_BULK_PER_PROJECT_PER_HOUR, and
 * MAIL_BULK_PER_ADDRESS_PER_HOUR to one address); a refused mail is in the mail log as not sent.
 * Resolves once the mail is queued (delivery and its retries are the mail worker's).
 */
@Injectable()
export class ProjectMail {
  private readonly rate: EffectRateLimit;
  private readonly maxBodyBytes: number;

  constructor(
    private readonly outbox: MailOutbox,
    private readonly budget: ProjectMailBudget,
    limits: EffectRateLimits,
    @Inject(PROJECT_RUNTIME_CONFIG) config: ProjectRuntimeConfig,
  ) {
    this.rate = limits.of({
      key: 'email',
      call: 'ctx.email.send',
      unit: 'mails',
      perMinute: config.PROJECT_EMAIL_PER_MINUTE,
    });
    this.maxBodyBytes = config.PROJECT_EMAIL_BODY_KB * 1024;
  }

  async send(projectId: string, input: unknown): Promise<{ id: string }> {
    const mail = parse(input, this.maxBodyBytes);
    await this.rate.take(projectId);
    const refused = await this.budget.take(projectId, { kind: 'custom', to: mail.to });
    if (refused) {
      await this.outbox.recordDropped(projectId, { kind: 'custom', ...mail }, refused);
      throw new EffectError(`ctx.email.send: ${refused}; try later`);
    }
    const id = await this.outbox.enqueue(projectId, { kind: 'custom', ...mail });
    if (!id) throw new EffectError('ctx.email.send: the mail could not be queued; try again');
    return { id };
  }
}

function parse(
  input: unknown,
  maxBodyBytes: number,
): { to: string; subject: string; text: string; html?: string } {
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
  if (Buffer.byteLength(text ?? '') + Buffer.byteLength(html ?? '') > maxBodyBytes) {
    throw new EffectError(`ctx.email.send: text and html together are limited to ${maxBodyBytes / 1024} KB`);
  }
  return { to: to.trim(), subject, text: text ?? '', ...(html ? { html } : {}) };
}
