import type { MainClient, MainDb, TenantRecord, TenantUpgradeStore } from '@suite/db';

const behindWhere = (server: string, latest: string): MainDb.Prisma.ProjectWhereInput => ({
  tenantServer: server,
  OR: [{ tenantSchemaVersion: null }, { tenantSchemaVersion: { lt: latest } }],
});

/** The projects table as the upgrade sweep reads and records it. */
export class PrismaTenantUpgradeStore implements TenantUpgradeStore {
  constructor(private readonly db: MainClient) {}

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

  async recordVersion(projectId: string, server: string, version: string): Promise<void> {
    await this.db.project.updateMany({
      where: { id: projectId, ...behindWhere(server, version) },
      data: { tenantSchemaVersion: version },
    });
  }
}
