import { Injectable } from '@nestjs/common';
import type { CodeDto, ForgotPasswordDto, MagicLinkQueryDto, ResetPasswordDto } from '@suite/contracts';
import { AuthError } from '@suite/errors';
import { AuthEventsPublisher } from '../../events/auth-events.publisher.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { BackgroundTasks } from '../background-tasks.js';
import { NonceCodes } from '../codes/nonce-codes.js';
import { NonceFailures } from '../codes/nonce-failures.js';
import { AuthRateLimits } from '../limits/auth-rate-limits.js';
import { AuthMailer } from '../mail/auth-mailer.js';
import { forgotPasswordMail, magicLinkMail } from '../mail/auth-mails.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { passwordProblem } from '../passwords/password-policy.js';
import { assertRedirectUri, withQuery } from '../redirect-uri.js';
import { AuthStores, type UserRecord } from '../store/auth-store.js';
import { RefreshSessions } from '../tokens/refresh-sessions.js';
import type { SignedIn } from './password-auth.service.js';
import type { ClientMeta, TokenPair } from '../tokens/token-pair.js';
import { FORGOT_PASSWORD_CODE_TTL_MS, MAGIC_LINK_CODE_TTL_MS } from '../user-auth.constants.js';
import type { StatusResponse } from '../user-auth.types.js';
import { snapshotOf, tokenUserOf } from '../user-snapshot.js';
import { AccountClaims } from './account-claim.js';

const MAGIC_LINK_SENT: StatusResponse = {
  status: 'ok',
  message: 'If an account exists for this address, a sign-in link has been sent to it.',
};
const RESET_SENT: StatusResponse = {
  status: 'ok',
  message: 'If an account exists for this address, a password reset code has been sent to it.',
};

/**
 * Magic-link sign-in and password reset: a code by mail, then its callback. Requests answer the
 * same, in the same time, whether or not the address has an account (the code, the mail and the
 * hook happen after the answer); unknown addresses get no mail and fire no hook.
 */
@Injectable()
export class MailCodeAuthService {
  constructor(
    private readonly stores: AuthStores,
    private readonly codes: NonceCodes,
    private readonly sessions: RefreshSessions,
    private readonly hasher: PasswordHasher,
    private readonly limits: AuthRateLimits,
    private readonly events: AuthEventsPublisher,
    private readonly mailer: AuthMailer,
    private readonly background: BackgroundTasks,
    private readonly failures: NonceFailures,
    private readonly claims: AccountClaims,
  ) {}

  async requestMagicLink(
    ctx: ProjectContext,
    input: MagicLinkQueryDto,
    client: ClientMeta,
  ): Promise<StatusResponse> {
    const app =
      input.redirect_uri === undefined
        ? ctx.publicUrl
        : assertRedirectUri(input.redirect_uri, ctx.hosts, ctx.auth.redirectSchemes);
    return this.mailMagicLinkTo(ctx, input.email, app, client);
  }

  /**
   * The request of a sign-in link whose page `app` the caller built itself (a checked
   * redirect_uri, the project's address, or the MCP consent page of the host): the same answer,
   * limits, mail and events as `GET /api/user/auth/magic-link`.
   */
  async mailMagicLinkTo(
    ctx: ProjectContext,
    email: string,
    app: string,
    client: ClientMeta,
  ): Promise<StatusResponse> {
    const user = await this.stores.of(ctx).users.findByEmail(email);
    await this.limits.consumeMailRequest(
      'magic-link',
      ctx.project.id,
      email,
      await this.ownIp(ctx, user, client),
    );
    if (user) this.background.run('magic-link mail', () => this.sendMagicLink(ctx, user, app));
    return MAGIC_LINK_SENT;
  }

  /**
   * Signs in with a mailed link's code. `signedIn` is what the sign-in gives (an /api/user session
   * by default; the MCP consent page takes just the user), as in PasswordAuthService.login.
   */
  async magicLinkCallback<R = TokenPair>(
    ctx: ProjectContext,
    { code }: CodeDto,
    client: ClientMeta,
    signedIn?: SignedIn<R>,
  ): Promise<R> {
    const begin =
      signedIn ??
      ((tx, user) => this.sessions.start(ctx, tx, user, client) as Promise<unknown> as Promise<R>);
    const outcome = await this.stores.of(ctx).transaction(async (tx) => {
      const nonce = await this.codes.consume(tx, ctx.project.id, 'magic_link', code);
      const user = nonce?.userId ? await tx.users.findById(nonce.userId) : null;
      // The code was sent to the address the account had then; it is void once that changed.
      if (!nonce || !user || user.email !== nonce.email) return undefined;
      // The link proves the address: an account whose address was never proven is claimed.
      const proven = await this.claims.proveAddress(tx, user);
      return {
        ...proven,
        pair: await begin(tx, tokenUserOf(proven.user)),
      };
    });
    if (!outcome) return this.failures.refuse(ctx, 'magic_link', code, 'magic_link');
    const user = snapshotOf(outcome.user);
    if (outcome.claimed) await this.sessions.signedOutEverywhere(ctx, user.id);
    await this.events.publish(ctx.project.id, [
      ...(outcome.claimed
        ? [{ kind: 'user.updated' as const, user, provider: 'magic_link' as const, claimed: true }]
        : []),
      { kind: 'user.signed_in', user, provider: 'magic_link' },
    ]);
    return outcome.pair;
  }

  async requestPasswordReset(
    ctx: ProjectContext,
    input: ForgotPasswordDto,
    client: ClientMeta,
  ): Promise<StatusResponse> {
    const user = await this.stores.of(ctx).users.findByEmail(input.email);
    await this.limits.consumeMailRequest(
      'forgot-password',
      ctx.project.id,
      input.email,
      await this.ownIp(ctx, user, client),
    );
    if (user) this.background.run('forgot-password mail', () => this.sendResetCode(ctx, user));
    return RESET_SENT;
  }

  /** Replaces the password and signs the user out everywhere; no tokens (the user signs in anew). */
  async resetPassword(ctx: ProjectContext, input: ResetPasswordDto): Promise<StatusResponse> {
    const problem = passwordProblem(input.password);
    if (problem) throw AuthError.invalidFields([{ field: 'password', problem }]);
    const passwordHash = await this.hasher.hash(input.password);
    const updated = await this.stores.of(ctx).transaction(async (tx) => {
      const nonce = await this.codes.consume(tx, ctx.project.id, 'forgot_password', input.code);
      const user = nonce?.userId ? await tx.users.findById(nonce.userId) : null;
      if (!nonce || !user || user.email !== nonce.email) return undefined;
      // Thrown inside the transaction: the code is not spent by a password the policy refuses.
      const personal = passwordProblem(input.password, user.email);
      if (personal) throw AuthError.invalidFields([{ field: 'password', problem: personal }]);
      await this.sessions.revokeAllOf(tx, user.id);
      if (!user.emailVerified) {
        // The code proves the address: whoever set up the account before it was proven (an
        // identity-provider link, a pending email change) loses it with the password.
        await tx.identities.unlinkAllOf(user.id);
        await this.codes.voidAll(tx, user.id, 'email_change');
      }
      return tx.users.update(user.id, {
        passwordHash,
        emailVerified: true,
        ...(user.emailVerified ? {} : { pendingEmail: null }),
      });
    });
    if (!updated) return this.failures.refuse(ctx, 'forgot_password', input.code, 'email');
    await this.sessions.signedOutEverywhere(ctx, updated.id);
    await this.events.publish(ctx.project.id, [
      { kind: 'user.password_updated', user: snapshotOf(updated), provider: 'email' },
    ]);
    return { status: 'ok', message: 'Your password has been updated. Sign in with the new password.' };
  }

  /** The requester's address when the account signed in from it before (its own mail allowance). */
  private async ownIp(
    ctx: ProjectContext,
    user: UserRecord | null,
    client: ClientMeta,
  ): Promise<string | undefined> {
    return user && (await this.sessions.signedInFrom(ctx, user.id, client.ip)) ? client.ip : undefined;
  }

  /** Mails a fresh sign-in link (the older code stops working); the dashboard's resend uses it too. */
  async sendMagicLink(ctx: ProjectContext, user: UserRecord, app: string): Promise<void> {
    const code = await this.codes.issue(this.stores.of(ctx), ctx.project.id, {
      kind: 'magic_link',
      userId: user.id,
      email: user.email,
      ttlMs: MAGIC_LINK_CODE_TTL_MS,
      redirectUri: app,
    });
    const link = withQuery(app, { type: 'magic', code });
    await this.mailer.send(
      ctx,
      magicLinkMail(ctx.project, user.email, link, MAGIC_LINK_CODE_TTL_MS / 60_000),
    );
    await this.events.publish(ctx.project.id, [
      { kind: 'magic_link_requested', user: snapshotOf(user), provider: 'magic_link' },
    ]);
  }

  /** Mails a fresh reset code (the older code stops working); the dashboard's resend uses it too. */
  async sendResetCode(ctx: ProjectContext, user: UserRecord): Promise<void> {
    const code = await this.codes.issue(this.stores.of(ctx), ctx.project.id, {
      kind: 'forgot_password',
      userId: user.id,
      email: user.email,
      ttlMs: FORGOT_PASSWORD_CODE_TTL_MS,
    });
    const link = `${ctx.publicUrl}?${new URLSearchParams({ type: 'forgot-password', code }).toString()}`;
    await this.mailer.send(
      ctx,
      forgotPasswordMail(ctx.project, user.email, code, link, FORGOT_PASSWORD_CODE_TTL_MS / 60_000),
    );
    await this.events.publish(ctx.project.id, [
      { kind: 'password_reset_requested', user: snapshotOf(user), provider: 'email' },
    ]);
  }
}
