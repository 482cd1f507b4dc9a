import { Injectable } from '@nestjs/common';
import type { CodeDto, UpdateMeDto } from '@suite/contracts';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { AuthEventsPublisher } from '../../events/auth-events.publisher.js';
import { AuthStateCache } from '../../events/auth-state.cache.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { NonceCodes } from '../codes/nonce-codes.js';
import { NonceFailures } from '../codes/nonce-failures.js';
import { AuthRateLimits } from '../limits/auth-rate-limits.js';
import { AuthMailer } from '../mail/auth-mailer.js';
import { emailChangedMail, emailChangeMail } from '../mail/auth-mails.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import type { AccessClaims } from '../tokens/access-tokens.js';
import { AuthStores, DuplicateRecord, type UserRecord } from '../store/auth-store.js';
import { EMAIL_CHANGE_CODE_TTL_MS } from '../user-auth.constants.js';
import type { ConfirmedEmail, PendingEmailChange, Profile } from '../user-auth.types.js';
import { snapshotOf } from '../user-snapshot.js';
import { RefreshSessions } from '../tokens/refresh-sessions.js';
import { AccountClaims } from './account-claim.js';

export type ProfileUpdate = { status: 200; body: Profile } | { status: 202; body: PendingEmailChange };

class EmailTaken extends Error {}

const ACCOUNT_GONE = 'The account of this access token no longer exists';

/** The signed-in user's profile, and email changes (at once with the password, or by a mailed code). */
@Injectable()
export class ProfileService {
  constructor(
    private readonly stores: AuthStores,
    private readonly hasher: PasswordHasher,
    private readonly codes: NonceCodes,
    private readonly failures: NonceFailures,
    private readonly limits: AuthRateLimits,
    private readonly events: AuthEventsPublisher,
    private readonly mailer: AuthMailer,
    private readonly state: AuthStateCache,
    private readonly claims: AccountClaims,
    private readonly sessions: RefreshSessions,
  ) {}

  async me(ctx: ProjectContext, claims: AccessClaims): Promise<Profile> {
    const user = await this.state.user(ctx.project.id, claims.sub, () =>
      this.stores.of(ctx).users.findById(claims.sub),
    );
    if (!user) throw new AuthError(AuthErrorCode.Unauthorized, ACCOUNT_GONE);
    return snapshotOf(user);
  }

  async update(ctx: ProjectContext, claims: AccessClaims, input: UpdateMeDto): Promise<ProfileUpdate> {
    const user = await this.user(ctx, claims);
    const name = input.name === undefined ? user.name : input.name || null;
    const email = input.email !== undefined && input.email !== user.email ? input.email : undefined;

    if (email === undefined) {
      if (name === user.name) return { status: 200, body: snapshotOf(user) };
      const updated = await this.stores.of(ctx).users.update(user.id, { name });
      await this.publishUpdated(ctx, updated);
      return { status: 200, body: snapshotOf(updated) };
    }
    return user.passwordHash
      ? { status: 200, body: await this.changeEmailNow(ctx, user, email, name, input.currentPassword) }
      : { status: 202, body: await this.requestEmailChange(ctx, user, email, name) };
  }

  /** The email-change callback: no Bearer needed, the code is the proof. */
  async confirmEmailChange(ctx: ProjectContext, { code }: CodeDto): Promise<ConfirmedEmail> {
    let previous: UserRecord | undefined;
    let updated: UserRecord | undefined;
    let claimed = false;
    try {
      updated = await this.stores.of(ctx).transaction(async (tx) => {
        const nonce = await this.codes.consume(tx, ctx.project.id, 'email_change', code);
        const user = nonce?.userId ? await tx.users.findById(nonce.userId) : null;
        // Only the latest request counts: an older code names an address no longer pending.
        if (!nonce || !user || user.pendingEmail !== nonce.email) return undefined;
        previous = user;
        // Rolled back: the change stays pending and the code unspent, as the spec's table says.
        if (await tx.users.emailTaken(nonce.email)) throw new EmailTaken();
        // The code proves the new address, not who set the account up: an account whose address
        // was never proven goes to the prover (sessions, links and password dropped) first.
        const proven = await this.claims.proveAddress(tx, user);
        claimed = proven.claimed;
        return tx.users.update(user.id, { email: nonce.email, pendingEmail: null, emailVerified: true });
      });
    } catch (error) {
      if (!(error instanceof EmailTaken) && !(error instanceof DuplicateRecord)) throw error;
      await this.events.publish(ctx.project.id, [
        {
          kind: 'auth.failed',
          reason: 'identity_already_exists',
          user: previous ? snapshotOf(previous) : null,
          provider: 'email',
        },
      ]);
      throw new AuthError(AuthErrorCode.IdentityAlreadyExists);
    }
    if (!updated || !previous) return this.failures.refuse(ctx, 'email_change', code, 'email');
    if (claimed) await this.sessions.signedOutEverywhere(ctx, updated.id);
    await this.mailer.send(ctx, emailChangedMail(ctx.project, previous.email, updated.email));
    await this.publishUpdated(ctx, updated, claimed);
    return { id: updated.id, name: updated.name, email: updated.email };
  }

  /** A user with a password proves it and the email changes at once; the old address is told. */
  private async changeEmailNow(
    ctx: ProjectContext,
    user: UserRecord,
    email: string,
    name: string | null,
    currentPassword: string | undefined,
  ): Promise<Profile> {
    if (currentPassword === undefined) throw new AuthError(AuthErrorCode.CurrentPasswordRequired);
    await this.limits.consumeAccount('password-check', ctx.project.id, user.id);
    if (!(await this.hasher.verify(currentPassword, user.passwordHash))) {
      await this.events.publish(ctx.project.id, [
        { kind: 'auth.failed', reason: 'invalid_credentials', user: snapshotOf(user), provider: 'email' },
      ]);
      throw new AuthError(AuthErrorCode.InvalidCredentials, 'The current password is incorrect', {
        status: 403,
      });
    }
    let updated: UserRecord;
    try {
      updated = await this.stores.of(ctx).transaction(async (tx) => {
        await this.codes.voidAll(tx, user.id, 'email_change');
        // Nothing proved the new address: it counts as unproven until a mailed code or a provider does.
        return tx.users.update(user.id, { email, name, pendingEmail: null, emailVerified: false });
      });
    } catch (error) {
      if (error instanceof DuplicateRecord) throw new AuthError(AuthErrorCode.IdentityAlreadyExists);
      throw error;
    }
    await this.mailer.send(ctx, emailChangedMail(ctx.project, user.email, updated.email));
    await this.publishUpdated(ctx, updated);
    return snapshotOf(updated);
  }

  /**
   * A user without a password (magic link, identity provider) confirms the new address by a code
   * mailed to it (15 minutes); a newer request replaces the older; a name changes at once. The
   * dashboard's resend of an email-change mail asks again for the pending address.
   */
  async requestEmailChange(
    ctx: ProjectContext,
    user: UserRecord,
    email: string,
    name: string | null,
  ): Promise<PendingEmailChange> {
    const store = this.stores.of(ctx);
    if (await store.users.emailTaken(email)) throw new AuthError(AuthErrorCode.IdentityAlreadyExists);
    await this.limits.consumeMailRequest('email-change', ctx.project.id, email);
    const updated = await store.users.update(user.id, { pendingEmail: email, name });
    const code = await this.codes.issue(store, ctx.project.id, {
      kind: 'email_change',
      userId: user.id,
      email,
      ttlMs: EMAIL_CHANGE_CODE_TTL_MS,
    });
    const link = `${ctx.publicUrl}?${new URLSearchParams({ type: 'email-change', code }).toString()}`;
    await this.mailer.send(
      ctx,
      emailChangeMail(ctx.project, email, code, link, EMAIL_CHANGE_CODE_TTL_MS / 60_000),
    );
    if (updated.name !== user.name) await this.publishUpdated(ctx, updated);
    return { id: updated.id, name: updated.name, email: updated.email, pendingEmail: email };
  }

  private async user(ctx: ProjectContext, claims: AccessClaims): Promise<UserRecord> {
    const user = await this.stores.of(ctx).users.findById(claims.sub);
    if (!user) throw new AuthError(AuthErrorCode.Unauthorized, ACCOUNT_GONE);
    return user;
  }

  private async publishUpdated(ctx: ProjectContext, user: UserRecord, claimed = false): Promise<void> {
    await this.events.publish(ctx.project.id, [
      { kind: 'user.updated', user: snapshotOf(user), provider: 'email', ...(claimed ? { claimed } : {}) },
    ]);
  }
}
