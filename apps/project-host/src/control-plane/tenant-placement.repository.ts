import type { MainClient } from '@suite/db';
import type { ProjectRecordRepository } from '@suite/project-runtime';

export interface ServerSummary {
  server: string;
  projects: number;
  /** Projects whose recorded platform_auth version is older than `latest` (or unknown). */
  behind: number;
  moving: number;
}

/**
 * Where projects' tenant databases live and how many are behind (the projects table); moves are
 * written through ProjectRecordRepository, the table's one writer, and the project worker's upgrade
 * sweep records the versions.
 */
export abstract class TenantPlacementRepository {
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
}

export class PrismaTenantPlacementRepository extends TenantPlacementRepository {
  constructor(
    private readonly db: MainClient,
    private readonly records: ProjectRecordRepository,
  ) {
    super();
  }

  claimMove(id: string, from: string, staleBefore: Date): Promise<boolean> {
    return this.records.claimMove(id, from, staleBefore);
  }

  finishMove(id: string, to: string): Promise<void> {
    return this.records.finishMove(id, to);
  }

  releaseMove(id: string): Promise<void> {
    return this.records.releaseMove(id);
  }

  async summary(latest: string): Promise<ServerSummary[]> {
    const rows = await this.db.$queryRaw<
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
}
