import { Injectable } from '@nestjs/common';
import type { MainDb, TenantRecord, TenantUpgradeStore } from '@suite/db';
import { PlatformResources } from '../platform/platform-resources.js';

export interface ServerSummary {
  server: string;
  projects: number;
  /** Projects whose recorded platform_auth version is older than `latest` (or unknown). */
  behind: number;
  moving: number;
}

/** Where projects' tenant databases live and which schema they have (the projects table). */
export abstract class TenantPlacementRepository implements TenantUpgradeStore {
  /**
   * Marks the project as moving, unless another move holds it (one claimed before `staleBefore`
   * counts as abandoned). False: it is not on `from`, or another move holds it.
   */
  abstract claimMove(id: string, from: string, staleBefore: Date): Promise<boolean>;
  /** The project's database now lives on `to`; the move is over. */
  abstract finishMove(id: string, to: string): Promise<void>;
  /** The move failed before the switch: the project stays where it was. */
  abstract releaseMove(id: string): Promise<void>;
  abstract summary(latest: string): Promise<ServerSummary[]>;
  abstract countBehind(server: string, latest: string): Promise<number>;
  abstract behind(
    server: string,
    latest: string,
    after: string | undefined,
    take: number,
  ): Promise<TenantRecord[]>;
  abstract recordVersion(projectId: string, server: string, version: string): Promise<void>;
}

const behindWhere = (server: string, latest: string): MainDb.Prisma.ProjectWhereInput => ({
  tenantServer: server,
  OR: [{ tenantSchemaVersion: null }, { tenantSchemaVersion: { lt: latest } }],
});

@Injectable()
export class PrismaTenantPlacementRepository extends TenantPlacementRepository {
  constructor(private readonly resources: PlatformResources) {
    super();
  }

  async claimMove(id: string, from: string, staleBefore: Date): Promise<boolean> {
    const { count } = await this.resources.db.project.updateMany({
      where: {
        id,
        tenantServer: from,
        OR: [{ tenantMovingSince: null }, { tenantMovingSince: { lt: staleBefore } }],
      },
      data: { tenantMovingSince: new Date() },
    });
    return count === 1;
  }

  async finishMove(id: string, to: string): Promise<void> {
    await this.resources.db.project.update({
      where: { id },
      data: { tenantServer: to, tenantMovingSince: null },
    });
  }

  async releaseMove(id: string): Promise<void> {
    await this.resources.db.project.updateMany({ where: { id }, data: { tenantMovingSince: null } });
  }

  async summary(latest: string): Promise<ServerSummary[]> {
    const rows = await this.resources.db.$queryRaw<
      { server: string; projects: bigint; behind: bigint; moving: bigint }[]
    >`SELECT tenant_server AS server,
             count(*) AS projects,
             count(*) FILTER (WHERE tenant_schema_version IS NULL OR tenant_schema_version < ${latest}) AS behind,
             count(*) FILTER (WHERE tenant_moving_since IS NOT NULL) AS moving
        FROM projects GROUP BY tenant_server ORDER BY tenant_server`;
    return rows.map((row) => ({
      server: row.server,
      projects: Number(row.projects),
      behind: Number(row.behind),
      moving: Number(row.moving),
    }));
  }

  countBehind(server: string, latest: string): Promise<number> {
    return this.resources.db.project.count({ where: behindWhere(server, latest) });
  }

  behind(server: string, latest: string, after: string | undefined, take: number): Promise<TenantRecord[]> {
    return this.resources.db.project.findMany({
      where: { ...behindWhere(server, latest), ...(after ? { id: { gt: after } } : {}) },
      select: { id: true, tenantServer: true, tenantDatabase: true },
      orderBy: { id: 'asc' },
      take,
    });
  }

  async recordVersion(projectId: string, server: string, version: string): Promise<void> {
    await this.resources.db.project.updateMany({
      where: { id: projectId, ...behindWhere(server, version) },
      data: { tenantSchemaVersion: version },
    });
  }
}
