import { Injectable } from '@nestjs/common';
import type { LoginDto, RefreshDto, RegisterDto } from '@suite/contracts';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { withSpan } from '@suite/telemetry';
import { AuthEventsPublisher } from '../../events/auth-events.publisher.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { sha256Hex } from '@suite/project-runtime';
import { AuthRateLimits } from '../limits/auth-rate-limits.js';
import { AuthMailer } from '../mail/auth-mailer.js';
import { welcomeMail } from '../mail/auth-mails.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { passwordProblem } from '../passwords/password-policy.js';
import { AuthStores, DuplicateRecord, type AuthStore } from '../store/auth-store.js';
import { RefreshSessions } from '../tokens/refresh-sessions.js';
import type { ClientMeta, TokenPair } from '../tokens/token-pair.js';
import type { StatusResponse } from '../user-auth.types.js';
import { snapshotOf, tokenUserOf, type TokenUser } from '../user-snapshot.js';

/**
 * What a sign-in or sign-up hands back, made inside its transaction: by default an /api/user
 * session and its token pair; the MCP consent page takes the user alone (its grant comes later).
 */
export type SignedIn<R> = (tx: AuthStore, user: TokenUser) => Promise<R>;

/** Sign-up, sign-in with email and password, refresh and sign-out. */
@Injectable()
export class PasswordAuthService {
  constructor(
    private readonly stores: AuthStores,
    private readonly sessions: RefreshSessions,
    private readonly hasher: PasswordHasher,
    private readonly limits: AuthRateLimits,
    private readonly events: AuthEventsPublisher,
    private readonly mailer: AuthMailer,
  ) {}

  async register<R = TokenPair>(
    ctx: ProjectContext,
    input: RegisterDto,
    client: ClientMeta,
    signedIn?: SignedIn<R>,
  ): Promise<R> {
    const projectId = ctx.project.id;
    const begin = signedIn ?? this.userApiSession<R>(ctx, client);
    if (!ctx.auth.allowSignups) throw new AuthError(AuthErrorCode.SignupDisabled, undefined, { status: 403 });
    await this.limits.consumeSignIn('register', projectId, input.email, client.ip, false);
    const problem = passwordProblem(input.password, input.email);
    if (problem) throw AuthError.invalidFields([{ field: 'password', problem }]);

    const store = this.stores.of(ctx);
    const taken = async (): Promise<never> => {
      const existing = await store.users.findByEmail(input.email);
      await this.events.publish(projectId, [
        {
          kind: 'auth.failed',
          reason: 'identity_already_exists',
          user: existing ? snapshotOf(existing) : null,
          provider: 'email',
        },
      ]);
      throw new AuthError(AuthErrorCode.IdentityAlreadyExists);
    };
    if (await store.users.emailTaken(input.email)) await taken();

    const passwordHash = await this.hasher.hash(input.password);
    let signedUp;
    try {
      // No Prisma instrumentation is installed: this span stands for the sign-up transaction.
      signedUp = await withSpan(
        'db.register',
        () =>
          store.transaction(async (tx) => {
            const user = await tx.users.create({
              email: input.email,
              name: input.name || null,
              passwordHash,
            });
            return { user, pair: await begin(tx, tokenUserOf(user)) };
          }),
        { attributes: { 'db.system.name': 'postgresql' } },
      );
    } catch (error) {
      if (!(error instanceof DuplicateRecord)) throw error;
      return taken();
    }
    const user = snapshotOf(signedUp.user);
    await this.events.publish(projectId, [
      { kind: 'user.created', user, provider: 'email' },
      { kind: 'user.signed_in', user, provider: 'email' },
    ]);
    await this.mailer.send(ctx, welcomeMail({ name: ctx.project.name }, user.email, user.name));
    return signedUp.pair;
  }

  async login<R = TokenPair>(
    ctx: ProjectContext,
    input: LoginDto,
    client: ClientMeta,
    signedIn?: SignedIn<R>,
  ): Promise<R> {
    const projectId = ctx.project.id;
    const begin = signedIn ?? this.userApiSession<R>(ctx, client);
    const store = this.stores.of(ctx);
    const user = await store.users.findByEmail(input.email);
    // The user's own address (signed in from before) is never locked out by attempts from others.
    const own = user ? await this.sessions.signedInFrom(ctx, user.id, client.ip) : false;
    await this.limits.consumeSignIn('login', projectId, input.email, client.ip, own);
    // Same bcrypt work whether or not the account (or its password) exists.
    const matches = await this.hasher.verify(input.password, user?.passwordHash);
    if (!user || !matches) {
      if (!own) await this.limits.loginFailedFromOther(projectId, input.email);
      await this.events.publish(projectId, [
        {
          kind: 'auth.failed',
          reason: 'invalid_credentials',
          user: user ? snapshotOf(user) : null,
          provider: 'email',
        },
      ]);
      throw new AuthError(AuthErrorCode.InvalidCredentials, undefined, { status: 401 });
    }
    await this.limits.loginSucceeded(projectId, input.email, client.ip);
    if (user.passwordHash && this.hasher.needsRehash(user.passwordHash)) {
      const passwordHash = await this.hasher.hash(input.password);
      await store.users.update(user.id, { passwordHash });
    }
    const pair = await begin(store, tokenUserOf(user));
    await this.events.publish(projectId, [
      { kind: 'user.signed_in', user: snapshotOf(user), provider: 'email' },
    ]);
    return pair;
  }

  /** The default of sign-in and sign-up: an /api/user session (R is TokenPair when no `signedIn` is given). */
  private userApiSession<R>(ctx: ProjectContext, client: ClientMeta): SignedIn<R> {
    return (tx, user) => this.sessions.start(ctx, tx, user, client) as Promise<unknown> as Promise<R>;
  }

  /** Rotation (no hook), or with `revoke: true` sign-out (user.signed_out when a live session matched). */
  async refresh(
    ctx: ProjectContext,
    input: RefreshDto,
    client: ClientMeta,
  ): Promise<TokenPair | StatusResponse> {
    const projectId = ctx.project.id;
    await this.limits.consumeAccount('refresh', projectId, sha256Hex(input.refreshToken));
    if (input.revoke) {
      const user = await this.sessions.revoke(ctx, input.refreshToken);
      if (user) await this.events.publish(projectId, [{ kind: 'user.signed_out', user, provider: 'email' }]);
      return { status: 'ok', message: 'Signed out.' };
    }
    const outcome = await this.sessions.rotate(ctx, input.refreshToken, client);
    if (outcome.ok) return outcome.pair;
    await this.events.publish(projectId, [
      { kind: 'auth.failed', reason: 'refresh_rejected', user: outcome.user, provider: 'email' },
    ]);
    throw new AuthError(AuthErrorCode.IdentityNotFound, undefined, { status: 401 });
  }
}
