import type { MainClient, MainDb, TenantRecord, TenantUpgradeStore } from '@suite/db';
import type { ProjectRecordRepository } from '@suite/project-runtime';

const behindWhere = (server: string, latest: string): MainDb.Prisma.ProjectWhereInput => ({
  tenantServer: server,
  OR: [{ tenantSchemaVersion: null }, { tenantSchemaVersion: { lt: latest } }],
});

/**
 * The projects table as the upgrade sweep reads it; versions are recorded through
 * ProjectRecordRepository, the table's one writer.
 */
export class PrismaTenantUpgradeStore implements TenantUpgradeStore {
  constructor(
    private readonly db: MainClient,
    private readonly records: ProjectRecordRepository,
  ) {}

  countBehind(server: string, latest: string): Promise<number> {
    return this.db.project.count({ where: behindWhere(server, latest) });
  }

  behind(server: string, latest: string, after: string | undefined, take: number): Promise<TenantRecord[]> {
    return this.db.project.findMany({
      where: { ...behindWhere(server, latest), ...(after ? { id: { gt: after } } : {}) },
      select: { id: true, tenantServer: true, tenantDatabase: true },
      orderBy: { id: 'asc' },
      take,
    });
  }

  recordVersion(projectId: string, server: string, version: string): Promise<void> {
    return this.records.recordSchemaVersionIfBehind(projectId, server, version);
  }
}
