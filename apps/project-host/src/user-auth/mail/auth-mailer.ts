import { Injectable } from '@nestjs/common';
import { MailOutbox, type OutgoingMail } from '@suite/project-runtime';
import type { ProjectContext } from '../../projects/project-context.js';
import { AuthRateLimits } from '../limits/auth-rate-limits.js';

/**
 * Queues auth mail through the project's outbox (never waits for SMTP), within the project's
 * hourly mail budget. Mail is best effort: a refusal or a queue failure never fails the request.
 */
@Injectable()
export class AuthMailer {
  constructor(
    private readonly outbox: MailOutbox,
    private readonly limits: AuthRateLimits,
  ) {}

  async send(ctx: ProjectContext, mail: OutgoingMail): Promise<void> {
    if (!(await this.limits.takeProjectMail(ctx.project.id).catch(() => true))) return;
    await this.outbox.enqueue(ctx.project.id, mail);
  }
}
