import { Injectable, Logger } from '@nestjs/common';
import { isUuid, type MainDb } from '@suite/db';
import { AuthError, AuthErrorCode } from '@suite/errors';
import type { ProjectContext } from '../projects/project-context.js';
import { AuthMailer } from '../user-auth/mail/auth-mailer.js';
import { welcomeMail } from '../user-auth/mail/auth-mails.js';
import { assertRedirectUri } from '../user-auth/redirect-uri.js';
import { MailCodeAuthService } from '../user-auth/services/mail-code-auth.service.js';
import { ProfileService } from '../user-auth/services/profile.service.js';
import { AuthStores, type UserRecord } from '../user-auth/store/auth-store.js';
import { MailDetailRepository } from './mail-detail.repository.js';
import { mailLogEntryView, type MailLogEntryView } from './mail-log.service.js';
import { ProjectContexts } from './project-contexts.js';
import { UserDetailRepository } from './user-detail.repository.js';

/** One mail with what the dashboard may show of it. */
export interface MailDetailView extends MailLogEntryView {
  /** The headers the mail was sent with; From is the project's SMTP From address as saved now. */
  headers: { name: string; value: string | null }[];
  /** The plain-text body with codes and links hidden; null for mails queued before previews were kept. */
  preview: string | null;
  resend: { possible: boolean; description: string };
}

/**
 * A mail's detail and its resend. Resending a sign-in mail runs the end-user flow again for the
 * same person: a fresh code and link are mailed and the old ones stop working (a user has one live
 * code per purpose), and the flow's hook fires as it would for the user. The old mail's body is
 * never re-sent: it is not kept, and its code must not come back to life.
 */
@Injectable()
export class MailResendService {
  private readonly logger = new Logger('control-plane');

  constructor(
    private readonly contexts: ProjectContexts,
    private readonly mails: MailDetailRepository,
    private readonly users: UserDetailRepository,
    private readonly stores: AuthStores,
    private readonly mailCodes: MailCodeAuthService,
    private readonly profiles: ProfileService,
    private readonly mailer: AuthMailer,
  ) {}

  async detail(projectId: string, mailId: string): Promise<MailDetailView> {
    const ctx = await this.contexts.of(projectId);
    const mail = await this.require(ctx, mailId);
    const smtp = ctx.project.smtpSettings;
    return {
      ...mailLogEntryView(mail),
      headers: [
        { name: 'From', value: smtp?.from ?? null },
        { name: 'To', value: mail.to },
        { name: 'Subject', value: mail.subject },
        { name: 'Date', value: (mail.sentAt ?? mail.createdAt).toUTCString() },
        { name: 'Message-ID', value: mail.messageId },
        { name: 'Auto-Submitted', value: 'auto-generated' },
      ],
      preview: mail.preview,
      resend: resendPlan(ctx, mail),
    };
  }

  async resend(projectId: string, mailId: string): Promise<{ message: string }> {
    const ctx = await this.contexts.of(projectId);
    const mail = await this.require(ctx, mailId);
    const plan = resendPlan(ctx, mail);
    if (!plan.possible) throw conflict(`This mail cannot be re-sent: ${plan.description}`);
    const store = this.stores.of(ctx);
    const to = mail.to.toLowerCase();
    let message: string;
    switch (mail.kind) {
      case 'magic-link': {
        const user = await this.userAt(store.users.findByEmail(to), to);
        const app = await this.magicLinkTarget(ctx, user);
        await this.mailCodes.sendMagicLink(ctx, user, app);
        message = `A new sign-in link was sent to ${to}. The link of the earlier mail no longer works.`;
        break;
      }
      case 'forgot-password': {
        const user = await this.userAt(store.users.findByEmail(to), to);
        await this.mailCodes.sendResetCode(ctx, user);
        message = `A new password reset code was sent to ${to}. The code of the earlier mail no longer works.`;
        break;
      }
      case 'email-change': {
        const pending = await this.users.withPendingEmail(ctx.tenant, to);
        const user = await this.userAt(pending ? store.users.findById(pending) : Promise.resolve(null), to);
        await this.profiles.requestEmailChange(ctx, user, to, user.name);
        message = `A new confirmation code was sent to ${to}. The code of the earlier mail no longer works.`;
        break;
      }
      default: {
        const user = await this.userAt(store.users.findByEmail(to), to);
        const refused = await this.mailer.send(ctx, welcomeMail(ctx.project, user.email, user.name));
        if (refused) throw conflict(`The welcome mail was not sent again: ${refused}.`);
        message = `The welcome mail was sent to ${to} again.`;
      }
    }
    this.logger.log(
      { projectId: ctx.project.id, mailId: mail.id, kind: mail.kind },
      'mail re-sent from the dashboard',
    );
    return { message };
  }

  private async require(ctx: ProjectContext, mailId: string): Promise<MainDb.MailLog> {
    const mail = isUuid(mailId) ? await this.mails.find(ctx.project.id, mailId) : null;
    if (!mail) throw new AuthError(AuthErrorCode.NotFound, `No mail has the id "${mailId}" in this project.`);
    return mail;
  }

  private async userAt(found: Promise<UserRecord | null>, to: string): Promise<UserRecord> {
    const user = await found;
    if (!user) throw conflict(`No user of this project has the address ${to} any more; nothing was sent.`);
    return user;
  }

  /** Where the user's last magic link led, if the project still allows it; else the project's address. */
  private async magicLinkTarget(ctx: ProjectContext, user: UserRecord): Promise<string> {
    const last = await this.users.lastMagicLinkTarget(ctx.tenant, user.id);
    if (!last) return ctx.publicUrl;
    try {
      return assertRedirectUri(last, ctx.hosts, ctx.auth.redirectSchemes);
    } catch {
      return ctx.publicUrl;
    }
  }
}

/** Whether (and how) a mail of this kind can be sent again under the project's current settings. */
function resendPlan(ctx: ProjectContext, mail: MainDb.MailLog): MailDetailView['resend'] {
  const to = mail.to;
  const no = (description: string) => ({ possible: false, description });
  if (!ctx.auth.enabled && mail.kind !== 'custom') return no('authentication is off for this project.');
  switch (mail.kind) {
    case 'magic-link':
      return ctx.auth.emailPassword
        ? {
            possible: true,
            description: `Sends a new sign-in link to ${to}; the link of this mail stops working.`,
          }
        : no('email sign-in is off for this project.');
    case 'forgot-password':
      return ctx.auth.emailPassword
        ? {
            possible: true,
            description: `Sends a new password reset code to ${to}; the code of this mail stops working.`,
          }
        : no('email sign-in is off for this project.');
    case 'email-change':
      return {
        possible: true,
        description: `Sends a new confirmation code to ${to} for the pending email change; the code of this mail stops working.`,
      };
    case 'welcome':
      return { possible: true, description: `Sends the welcome mail to ${to} again.` };
    case 'auth.email-changed':
      return no('it told of a change that is done; there is nothing to confirm again.');
    default:
      return no('project code sent it and its body is not kept; only the project code can send it again.');
  }
}

function conflict(message: string): AuthError {
  return new AuthError(AuthErrorCode.InvalidRequest, message, { status: 409 });
}
