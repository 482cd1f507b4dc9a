import { Injectable } from '@nestjs/common';
import { MailOutbox, type OutgoingMail } from '@suite/project-runtime';
import type { ProjectContext } from '../../projects/project-context.js';
import { AuthRateLimits } from '../limits/auth-rate-limits.js';

/**
 * Queues auth mail through the project's outbox (never waits for SMTP), within the hourly budget
 * of its class (sign-in and recovery mail, or welcome mail with project mail). A mail over budget
 * is in the mail log as not sent, with the reason. Mail is best effort: a refusal or a queue
 * failure never fails the request.
 */
@Injectable()
export class AuthMailer {
  constructor(
    private readonly outbox: MailOutbox,
    private readonly limits: AuthRateLimits,
  ) {}

  /** Resolves with why the mail was not sent when its budget is spent; else undefined. */
  async send(ctx: ProjectContext, mail: OutgoingMail): Promise<string | undefined> {
    const refused = await this.limits.takeMail(ctx.project.id, mail).catch(() => undefined);
    if (refused) {
      await this.outbox.recordDropped(ctx.project.id, mail, refused);
      return refused;
    }
    await this.outbox.enqueue(ctx.project.id, mail);
    return undefined;
  }
}
