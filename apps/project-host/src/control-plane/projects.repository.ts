import { MainDb, type MainClient } from '@suite/db';
import type {
  CustomDomainRecordRepository,
  NewCustomDomainRecord,
  NewProjectRecord,
  ProjectRecordRepository,
} from '@suite/project-runtime';
import { refusingDuplicates } from '../platform/duplicate-record.js';
import type { ProjectWithSettings } from '../projects/project-context.js';

const WITH_SETTINGS = { authSettings: true, smtpSettings: true, domains: true } as const;

export type AuthSettingsData = Omit<MainDb.AuthSettings, 'projectId' | 'updatedAt' | 'redirectSchemes'> & {
  /** The app schemes allowed for redirect_uri; null: none saved. */
  redirectSchemes: string[] | null;
};
export type SmtpSettingsData = Omit<MainDb.SmtpSettings, 'projectId' | 'updatedAt'>;
export type NewProject = NewProjectRecord;
export type NewCustomDomain = NewCustomDomainRecord;

/**
 * Projects with their settings and custom domains (main database): the one writer of auth_settings
 * and smtp_settings; project rows and custom domains are written through ProjectRecordRepository
 * and CustomDomainRecordRepository (@suite/project-runtime), the one writers of `projects` and
 * `custom_domains`.
 */
export abstract class ProjectsRepository {
  abstract findWithSettings(id: string): Promise<ProjectWithSettings | null>;
  abstract slugTaken(slug: string): Promise<boolean>;
  /** Newest first. */
  abstract page(skip: number, take: number): Promise<{ total: number; items: ProjectWithSettings[] }>;
  /** Throws DuplicateRecord when the slug is taken. */
  abstract create(project: NewProject): Promise<ProjectWithSettings>;
  abstract delete(id: string): Promise<void>;
  /** How many projects each tenant database server holds (servers without any are absent). */
  abstract projectsPerServer(): Promise<Map<string, number>>;
  /** The platform_auth migration the project's tenant database has reached. */
  abstract recordSchemaVersion(id: string, version: string): Promise<void>;
  abstract saveAuthSettings(projectId: string, settings: AuthSettingsData): Promise<MainDb.AuthSettings>;
  abstract saveSmtpSettings(projectId: string, settings: SmtpSettingsData): Promise<MainDb.SmtpSettings>;
  abstract findDomain(domain: string): Promise<MainDb.CustomDomain | null>;
  /** Oldest first. */
  abstract allDomains(): Promise<MainDb.CustomDomain[]>;
  /** Throws DuplicateRecord when another project has the domain. */
  abstract addDomain(domain: NewCustomDomain): Promise<MainDb.CustomDomain>;
  abstract markDomain(
    id: string,
    changes: Pick<MainDb.CustomDomain, 'verified' | 'verifiedAt'>,
  ): Promise<MainDb.CustomDomain>;
}

export class PrismaProjectsRepository extends ProjectsRepository {
  constructor(
    private readonly db: MainClient,
    private readonly records: ProjectRecordRepository,
    private readonly domainRecords: CustomDomainRecordRepository,
  ) {
    super();
  }

  findWithSettings(id: string): Promise<ProjectWithSettings | null> {
    return this.db.project.findUnique({ where: { id }, include: WITH_SETTINGS });
  }

  async slugTaken(slug: string): Promise<boolean> {
    return (await this.db.project.findUnique({ where: { slug }, select: { id: true } })) !== null;
  }

  async page(skip: number, take: number): Promise<{ total: number; items: ProjectWithSettings[] }> {
    const [total, items] = await Promise.all([
      this.db.project.count(),
      this.db.project.findMany({
        include: WITH_SETTINGS,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        skip,
        take,
      }),
    ]);
    return { total, items };
  }

  create(project: NewProject): Promise<ProjectWithSettings> {
    return refusingDuplicates(this.records.create(project));
  }

  async delete(id: string): Promise<void> {
    await this.records.delete(id);
  }

  async projectsPerServer(): Promise<Map<string, number>> {
    const groups = await this.db.project.groupBy({ by: ['tenantServer'], _count: { _all: true } });
    return new Map(groups.map((group) => [group.tenantServer, group._count._all]));
  }

  async recordSchemaVersion(id: string, version: string): Promise<void> {
    await this.records.recordSchemaVersion(id, version);
  }

  saveAuthSettings(projectId: string, settings: AuthSettingsData): Promise<MainDb.AuthSettings> {
    const data = { ...settings, redirectSchemes: settings.redirectSchemes ?? MainDb.Prisma.DbNull };
    return this.db.authSettings.upsert({
      where: { projectId },
      create: { projectId, ...data },
      update: data,
    });
  }

  saveSmtpSettings(projectId: string, settings: SmtpSettingsData): Promise<MainDb.SmtpSettings> {
    return this.db.smtpSettings.upsert({
      where: { projectId },
      create: { projectId, ...settings },
      update: settings,
    });
  }

  findDomain(domain: string): Promise<MainDb.CustomDomain | null> {
    return this.db.customDomain.findUnique({ where: { domain } });
  }

  allDomains(): Promise<MainDb.CustomDomain[]> {
    return this.db.customDomain.findMany({ orderBy: { createdAt: 'asc' } });
  }

  addDomain(domain: NewCustomDomain): Promise<MainDb.CustomDomain> {
    return refusingDuplicates(this.domainRecords.add(domain));
  }

  markDomain(
    id: string,
    changes: Pick<MainDb.CustomDomain, 'verified' | 'verifiedAt'>,
  ): Promise<MainDb.CustomDomain> {
    return this.domainRecords.mark(id, changes);
  }
}
