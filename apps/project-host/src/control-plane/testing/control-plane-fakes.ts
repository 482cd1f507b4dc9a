import type { MainDb, TenantLocation, TenantServer } from '@suite/db';
import { randomUUID } from 'node:crypto';
import { DuplicateRecord } from '../../platform/duplicate-record.js';
import type { ProjectWithSettings } from '../../projects/project-context.js';
import {
  ProjectsRepository,
  type AuthSettingsData,
  type NewCustomDomain,
  type NewProject,
  type SmtpSettingsData,
} from '../projects.repository.js';
import { TenantDatabases } from '../tenant-databases.js';
import {
  TenantUsersRepository,
  type TenantUserRow,
  type TenantUsersQuery,
} from '../tenant-users.repository.js';

// In-memory fakes of the control plane's repositories and a recording stand-in for the tenant
// databases, for the services' unit specs.

export class InMemoryProjects extends ProjectsRepository {
  readonly rows = new Map<string, ProjectWithSettings>();

  async findWithSettings(id: string): Promise<ProjectWithSettings | null> {
    const row = this.rows.get(id);
    return row ? { ...row, domains: [...row.domains] } : null;
  }

  async slugTaken(slug: string): Promise<boolean> {
    return [...this.rows.values()].some((row) => row.slug === slug);
  }

  async page(skip: number, take: number): Promise<{ total: number; items: ProjectWithSettings[] }> {
    const newest = [...this.rows.values()].reverse();
    return { total: newest.length, items: newest.slice(skip, skip + take) };
  }

  async create(project: NewProject): Promise<ProjectWithSettings> {
    if (await this.slugTaken(project.slug)) throw new DuplicateRecord();
    const now = new Date();
    const row = {
      ...project,
      tenantSchemaVersion: null,
      tenantMovingSince: null,
      createdAt: now,
      updatedAt: now,
      authSettings: null,
      smtpSettings: null,
      domains: [],
    };
    this.rows.set(project.id, row);
    return row;
  }

  async delete(id: string): Promise<void> {
    this.rows.delete(id);
  }

  async projectsPerServer(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const row of this.rows.values())
      counts.set(row.tenantServer, (counts.get(row.tenantServer) ?? 0) + 1);
    return counts;
  }

  async recordSchemaVersion(id: string, version: string): Promise<void> {
    const row = this.rows.get(id);
    if (row) row.tenantSchemaVersion = version;
  }

  async saveAuthSettings(projectId: string, settings: AuthSettingsData): Promise<MainDb.AuthSettings> {
    const saved = { projectId, ...settings, updatedAt: new Date() };
    this.rows.get(projectId)!.authSettings = saved;
    return saved;
  }

  async saveSmtpSettings(projectId: string, settings: SmtpSettingsData): Promise<MainDb.SmtpSettings> {
    const saved = { projectId, ...settings, updatedAt: new Date() };
    this.rows.get(projectId)!.smtpSettings = saved;
    return saved;
  }

  async findDomain(domain: string): Promise<MainDb.CustomDomain | null> {
    return (await this.allDomains()).find((row) => row.domain === domain) ?? null;
  }

  async allDomains(): Promise<MainDb.CustomDomain[]> {
    return [...this.rows.values()].flatMap((row) => row.domains);
  }

  async addDomain(domain: NewCustomDomain): Promise<MainDb.CustomDomain> {
    if (await this.findDomain(domain.domain)) throw new DuplicateRecord();
    const row = { id: randomUUID(), createdAt: new Date(), ...domain };
    this.rows.get(domain.projectId)!.domains.push(row);
    return row;
  }

  async markDomain(
    id: string,
    changes: Pick<MainDb.CustomDomain, 'verified' | 'verifiedAt'>,
  ): Promise<MainDb.CustomDomain> {
    const row = (await this.allDomains()).find((candidate) => candidate.id === id)!;
    return Object.assign(row, changes);
  }
}

/** One project's users, keyed by tenant database name. */
export class InMemoryTenantUsers extends TenantUsersRepository {
  readonly users = new Map<string, TenantUserRow[]>();

  async page({ tenant, search, skip, take }: TenantUsersQuery) {
    const matching = (this.users.get(tenant.tenantDatabase) ?? []).filter(
      (user) => !search || user.email.includes(search.toLowerCase()),
    );
    return { total: matching.length, items: matching.slice(skip, skip + take) };
  }

  async delete(
    { tenantDatabase }: TenantLocation,
    id: string,
  ): Promise<Pick<TenantUserRow, 'id' | 'email' | 'name' | 'picture'> | null> {
    const users = this.users.get(tenantDatabase) ?? [];
    const user = users.find((candidate) => candidate.id === id);
    if (!user) return null;
    this.users.set(
      tenantDatabase,
      users.filter((candidate) => candidate !== user),
    );
    return { id: user.id, email: user.email, name: user.name, picture: user.picture };
  }
}

/** Tenant databases that only record what was asked of them. */
export class RecordingTenants extends TenantDatabases {
  readonly provisioned: string[] = [];
  readonly dropped: string[] = [];
  failProvisioning = false;

  constructor() {
    super(undefined as never, undefined as never, undefined as never);
  }

  override place(): TenantServer {
    return { name: 'default', adminUrl: 'postgresql://unused/postgres', capacity: 1 };
  }

  override async provision(projectId: string): Promise<string> {
    if (this.failProvisioning) throw new Error('permission denied to create database');
    this.provisioned.push(projectId);
    return 'latest';
  }

  override async drop(project: { id: string }): Promise<void> {
    this.dropped.push(project.id);
  }
}
