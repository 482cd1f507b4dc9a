import { Injectable, Logger } from '@nestjs/common';
import { isUuid } from '@suite/db';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { Clock } from '../platform/clock.js';
import type { ProjectContext } from '../projects/project-context.js';
import { AuthStores } from '../user-auth/store/auth-store.js';
import { RefreshSessions } from '../user-auth/tokens/refresh-sessions.js';
import { ProjectContexts } from './project-contexts.js';
import { type UserDetailRow, UserDetailRepository } from './user-detail.repository.js';

/** How a user can sign in: a password, a linked identity-provider account, or mailed links only. */
export type UserProviderView =
  | { kind: 'password' }
  | { kind: 'magic-link' }
  | { kind: 'idp'; issuer: string; email: string | null; linkedAt: string };

/** One sign-in: a refresh-token family from its first token to its latest rotation. */
export interface UserSessionView {
  id: string;
  startedAt: string;
  lastRefreshedAt: string;
  expiresAt: string;
  /** Its latest token can still be refreshed. */
  active: boolean;
  revokedAt: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface UserDetailView {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
  emailVerified: boolean;
  pendingEmail: string | null;
  providers: UserProviderView[];
  lastSignInAt: string | null;
  activeSessions: number;
  /** Newest sign-in first (at most SESSION_FAMILIES). */
  sessions: UserSessionView[];
  createdAt: string;
  updatedAt: string;
}

/**
 * A project's end user as the dashboard shows one (providers, last sign-in, sessions), and "sign
 * out everywhere": every refresh token of the user is revoked and their access tokens stop working
 * in every process, as after a password reset.
 */
@Injectable()
export class UserSessionsService {
  private readonly logger = new Logger('control-plane');

  constructor(
    private readonly contexts: ProjectContexts,
    private readonly users: UserDetailRepository,
    private readonly stores: AuthStores,
    private readonly sessions: RefreshSessions,
    private readonly clock: Clock,
  ) {}

  async detail(projectId: string, userId: string): Promise<UserDetailView> {
    const ctx = await this.contexts.of(projectId);
    return this.view(await this.require(ctx, userId));
  }

  async signOutEverywhere(projectId: string, userId: string): Promise<{ revokedSessions: number }> {
    const ctx = await this.contexts.of(projectId);
    const before = this.view(await this.require(ctx, userId));
    await this.stores.of(ctx).transaction((tx) => this.sessions.revokeAllOf(tx, before.id));
    await this.sessions.signedOutEverywhere(ctx, before.id);
    this.logger.log(
      { projectId: ctx.project.id, userId: before.id, sessions: before.activeSessions },
      'auth user signed out everywhere from the dashboard',
    );
    return { revokedSessions: before.activeSessions };
  }

  private async require(ctx: ProjectContext, userId: string): Promise<UserDetailRow> {
    const user = isUuid(userId) ? await this.users.find(ctx.tenant, userId, this.clock.now()) : null;
    if (!user) throw new AuthError(AuthErrorCode.NotFound, `No user has the id "${userId}" in this project.`);
    return user;
  }

  private view(user: UserDetailRow): UserDetailView {
    const sessions = user.sessions.map((s): UserSessionView => ({
      id: s.familyId,
      startedAt: s.startedAt.toISOString(),
      lastRefreshedAt: s.lastRefreshedAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
      active: s.active,
      revokedAt: s.revokedAt?.toISOString() ?? null,
      ip: s.ip,
      userAgent: s.userAgent,
    }));
    const providers: UserProviderView[] = [
      ...(user.hasPassword ? [{ kind: 'password' as const }] : []),
      ...user.identities.map((identity) => ({
        kind: 'idp' as const,
        issuer: identity.issuer,
        email: identity.email,
        linkedAt: identity.createdAt.toISOString(),
      })),
    ];
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      picture: user.picture,
      emailVerified: user.emailVerified,
      pendingEmail: user.pendingEmail,
      providers: providers.length ? providers : [{ kind: 'magic-link' }],
      lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
      activeSessions: user.activeSessions,
      sessions,
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt.toISOString(),
    };
  }
}
