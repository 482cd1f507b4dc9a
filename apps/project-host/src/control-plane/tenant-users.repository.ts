import { Injectable } from '@nestjs/common';
import type { TenantDb } from '@suite/db';
import { ProjectDirectory } from '@suite/project-runtime';
import { TenantSchemaCheck, type TenantRow } from '../projects/tenant-schema.check.js';

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export type TenantUserRow = Omit<TenantDb.User, 'passwordHash'> & {
  hasPassword: boolean;
  identityCount: number;
};

/** A page of a project's users: newest first; `search` matches any part of the email. */
export interface TenantUsersQuery {
  tenant: TenantRow;
  search: string | undefined;
  skip: number;
  take: number;
}

/** A project's end users as the control plane sees them (the project's tenant database). */
export abstract class TenantUsersRepository {
  abstract page(query: TenantUsersQuery): Promise<{ total: number; items: TenantUserRow[] }>;
  /** Deletes the user (sessions, codes and identity links go with the row); what it was, or null. */
  abstract delete(
    tenant: TenantRow,
    id: string,
  ): Promise<Pick<TenantDb.User, 'id' | 'email' | 'name' | 'picture'> | null>;
}

@Injectable()
export class PrismaTenantUsersRepository extends TenantUsersRepository {
  constructor(
    private readonly directory: ProjectDirectory,
    private readonly schemas: TenantSchemaCheck,
  ) {
    super();
  }

  async page({ tenant: location, search, skip, take }: TenantUsersQuery): Promise<{
    total: number;
    items: TenantUserRow[];
  }> {
    // Never read a tenant whose schema is behind this build (it is migrated first).
    await this.schemas.ensureCurrent(location);
    const tenant = this.directory.tenantOf(location);
    const where = search ? { email: { contains: escapeLike(search) } } : {};
    const [total, users] = await Promise.all([
      tenant.user.count({ where }),
      tenant.user.findMany({
        where,
        include: { _count: { select: { identities: true } } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        skip,
        take,
      }),
    ]);
    return {
      total,
      items: users.map(({ passwordHash, _count, ...user }) => ({
        ...user,
        hasPassword: passwordHash !== null,
        identityCount: _count.identities,
      })),
    };
  }

  async delete(
    location: TenantRow,
    id: string,
  ): Promise<Pick<TenantDb.User, 'id' | 'email' | 'name' | 'picture'> | null> {
    await this.schemas.ensureCurrent(location);
    const tenant = this.directory.tenantOf(location);
    const user = await tenant.user.findUnique({
      where: { id },
      select: { id: true, email: true, name: true, picture: true },
    });
    if (!user) return null;
    const { count } = await tenant.user.deleteMany({ where: { id: user.id } });
    return count === 0 ? null : user;
  }
}
