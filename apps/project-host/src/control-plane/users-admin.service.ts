import { Inject, Injectable, Logger } from '@nestjs/common';
import type { UsersQueryDto } from '@suite/contracts';
import { isUuid } from '@suite/db';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { AuthEventsPublisher } from '../events/auth-events.publisher.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { TenantUsersRepository } from './tenant-users.repository.js';
import { toPage } from './project-input.js';
import type { Page } from './project.view.js';
import { ProjectsService } from './projects.service.js';

/** Prisma passes `contains` to LIKE as it is: `_` and `%` in a search are meant literally. */
export interface AuthUserView {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
  emailVerified: boolean;
  pendingEmail: string | null;
  /** Signs in with a password. */
  hasPassword: boolean;
  /** Linked to at least one identity-provider account. */
  hasIdentityProvider: boolean;
  createdAt: string;
  updatedAt: string;
}

@Injectable()
export class UsersAdminService {
  private readonly logger = new Logger('control-plane');

  constructor(
    private readonly users: TenantUsersRepository,
    private readonly projects: ProjectsService,
    private readonly events: AuthEventsPublisher,
    @Inject(PROJECT_HOST_CONFIG) private readonly config: Pick<ProjectHostConfig, 'PLATFORM_DEV_MODE'>,
  ) {}

  /** Newest first; `search` matches any part of the email, ignoring case. */
  async list(projectId: string, query: UsersQueryDto): Promise<Page<AuthUserView>> {
    const project = await this.projects.require(projectId);
    const { page, pageSize } = toPage(query);
    // An empty search searches nothing.
    const search = query.search || undefined;
    const { total, items: users } = await this.users.page({
      tenant: project,
      search,
      skip: (page - 1) * pageSize,
      take: pageSize,
    });
    return {
      items: users.map((user) => ({
        id: user.id,
        email: user.email,
        name: user.name,
        picture: user.picture,
        emailVerified: user.emailVerified,
        pendingEmail: user.pendingEmail,
        hasPassword: user.hasPassword,
        hasIdentityProvider: user.identityCount > 0,
        createdAt: user.createdAt.toISOString(),
        updatedAt: user.updatedAt.toISOString(),
      })),
      page,
      pageSize,
      total,
    };
  }

  /**
   * Deletes the user (their sessions, codes and identity links go with the row), then fires
   * `user.deleted` with the snapshot taken before the delete.
   */
  async remove(projectId: string, userId: string): Promise<void> {
    const project = await this.projects.require(projectId);
    const user = isUuid(userId) ? await this.users.delete(project, userId) : null;
    if (!user) {
      throw new AuthError(AuthErrorCode.NotFound, `No user has the id "${userId}" in this project.`);
    }
    this.logger.log({ projectId: project.id, userId: user.id }, 'auth user deleted from the dashboard');
    // The local development command fires every event but this one (spec, Events).
    if (this.config.PLATFORM_DEV_MODE) return;
    await this.events.publish(project.id, [{ kind: 'user.deleted', user, provider: 'dashboard' }]);
  }
}
