import type { MainClient, MainDb } from '@suite/db';
import type { ProjectRecord } from './project-record.query.js';

/** A project as the control plane creates it. */
export type NewProjectRecord = Pick<
  MainDb.Project,
  'id' | 'slug' | 'name' | 'tenantDatabase' | 'tenantServer'
>;

const WITH_SETTINGS = { authSettings: true, smtpSettings: true, domains: true } as const;

/** Rows of `server` whose recorded platform_auth version is older than `version` (or unknown). */
const behindOn = (server: string, version: string): MainDb.Prisma.ProjectWhereInput => ({
  tenantServer: server,
  OR: [{ tenantSchemaVersion: null }, { tenantSchemaVersion: { lt: version } }],
});

/**
 * The one writer of the `projects` table, in every process: the control plane creates and removes
 * projects and moves their tenant databases; the host's first-use check and the worker's upgrade
 * sweep record the platform_auth version a tenant database has reached. Reads stay with their
 * readers (readProjectRecord, the control plane's lists and summaries).
 */
export class ProjectRecordRepository {
  constructor(private readonly db: MainClient) {}

  /** Throws Prisma's unique-constraint error (P2002) when the slug is taken. */
  create(project: NewProjectRecord): Promise<ProjectRecord> {
    return this.db.project.create({ data: project, include: WITH_SETTINGS });
  }

  async delete(id: string): Promise<void> {
    await this.db.project.deleteMany({ where: { id } });
  }

  /** The platform_auth migration the project's tenant database has reached (just provisioned). */
  async recordSchemaVersion(id: string, version: string): Promise<void> {
    await this.db.project.updateMany({ where: { id }, data: { tenantSchemaVersion: version } });
  }

  /**
   * The same, only forward and only while the project is still on `server` (a concurrent move or
   * a newer host's migration wins).
   */
  async recordSchemaVersionIfBehind(id: string, server: string, version: string): Promise<void> {
    await this.db.project.updateMany({
      where: { id, ...behindOn(server, version) },
      data: { tenantSchemaVersion: version },
    });
  }

  /**
   * Marks the project as moving, unless another move holds it (one claimed before `staleBefore`
   * counts as abandoned). False: it is not on `from`, or another move holds it.
   */
  async claimMove(id: string, from: string, staleBefore: Date): Promise<boolean> {
    const { count } = await this.db.project.updateMany({
      where: {
        id,
        tenantServer: from,
        OR: [{ tenantMovingSince: null }, { tenantMovingSince: { lt: staleBefore } }],
      },
      data: { tenantMovingSince: new Date() },
    });
    return count === 1;
  }

  /** The project's database now lives on `to`; the move is over. */
  async finishMove(id: string, to: string): Promise<void> {
    await this.db.project.update({ where: { id }, data: { tenantServer: to, tenantMovingSince: null } });
  }

  /** The move failed before the switch: the project stays where it was. */
  async releaseMove(id: string): Promise<void> {
    await this.db.project.updateMany({ where: { id }, data: { tenantMovingSince: null } });
  }
}
