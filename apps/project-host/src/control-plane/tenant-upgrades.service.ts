import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { latestTenantMigration, TenantServers } from '@suite/db';
import { TenantPlacementRepository, type ServerSummary } from './tenant-placement.repository.js';
import { TenantUpgradesQueue, type UpgradeRun } from './tenant-upgrades.queue.js';

export type { UpgradeRun } from './tenant-upgrades.queue.js';

/** How long POST /v1/tenant-servers/upgrade waits for the sweep before it answers with its progress. */
export const UPGRADE_WAIT_MS = 30_000;

export interface TenantServersView {
  /** The newest platform_auth migration of this build. */
  latest: string;
  /** `listed: false`: projects on a server the setting no longer names (capacity null). */
  servers: (ServerSummary & { capacity: number | null; listed: boolean })[];
  upgrades: UpgradeRun;
}

/**
 * Upgrades reach every tenant: the project worker sweeps platform_auth of every tenant database
 * behind up to its build's latest migration (at its boot, and when asked here), one sweep at a
 * time across the deployment; GET /v1/tenant-servers shows each server and the sweep's progress.
 * A host never sweeps: tenants the sweep has not reached yet are migrated on first use
 * (TenantSchemaCheck). Projects on a server the setting no longer lists are reported loudly at
 * boot (they answer 503 until it is back).
 */
@Injectable()
export class TenantUpgradesService implements OnApplicationBootstrap {
  private readonly logger = new Logger('tenant-upgrades');

  constructor(
    private readonly placement: TenantPlacementRepository,
    private readonly servers: TenantServers,
    private readonly sweeps: TenantUpgradesQueue,
  ) {}

  onApplicationBootstrap(): void {
    void this.reportUnlisted().catch(() => undefined);
  }

  async status(): Promise<TenantServersView> {
    const latest = latestTenantMigration();
    const summary = new Map((await this.placement.summary(latest)).map((row) => [row.server, row]));
    const servers: TenantServersView['servers'] = this.servers.list.map((server) => ({
      ...(summary.get(server.name) ?? { server: server.name, projects: 0, behind: 0, moving: 0 }),
      capacity: server.capacity,
      listed: true,
    }));
    for (const row of summary.values()) {
      if (!this.servers.has(row.server)) servers.push({ ...row, capacity: null, listed: false });
    }
    return { latest, servers, upgrades: await this.sweeps.latest() };
  }

  /** Asks the project worker for a sweep; resolves when it ended or after `waitMs`, whichever first. */
  async sweep(waitMs = UPGRADE_WAIT_MS): Promise<void> {
    await this.sweeps.request(waitMs);
  }

  private async reportUnlisted(): Promise<void> {
    for (const row of await this.placement.summary(latestTenantMigration())) {
      if (this.servers.has(row.server)) continue;
      this.logger.error(
        { server: row.server, projects: row.projects },
        `${row.projects} project(s) live on tenant server "${row.server}", which TENANT_DATABASE_SERVERS does not list: ` +
          'they answer 503 until it is listed again under that name',
      );
    }
  }
}
