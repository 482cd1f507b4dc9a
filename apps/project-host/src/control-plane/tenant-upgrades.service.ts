import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  directDatabaseUrl,
  latestTenantMigration,
  migrateTenantSchema,
  upgradeTenants,
  withSessionLock,
  type ServerUpgradeProgress,
} from '@suite/db';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { PlatformResources } from '../platform/platform-resources.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { TenantPlacementRepository, type ServerSummary } from './tenant-placement.repository.js';

/** The session lock (main database) that lets one host of a deployment sweep at a time. */
const SWEEP_LOCK = 'suite:tenant-upgrades';

export interface UpgradeRun {
  /** idle: not run by this host; elsewhere: another host holds the sweep. */
  state: 'idle' | 'running' | 'done' | 'failed' | 'elsewhere';
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  servers: ServerUpgradeProgress[];
}

export interface TenantServersView {
  /** The newest platform_auth migration of this build. */
  latest: string;
  /** `listed: false`: projects on a server the setting no longer names (capacity null). */
  servers: (ServerSummary & { capacity: number | null; listed: boolean })[];
  upgrades: UpgradeRun;
}

/**
 * Upgrades reach every tenant: at boot a host brings platform_auth of every tenant database up to
 * this build's latest migration, server by server in parallel (upgradeTenants: resumable, each
 * tenant's version kept in its project row), logging progress; GET /v1/tenant-servers shows it.
 * Tenants it has not reached yet are migrated on first use (TenantSchemaCheck). Projects on a
 * server the setting no longer lists are reported loudly here (they answer 503 until it is back).
 */
@Injectable()
export class TenantUpgradesService implements OnApplicationBootstrap {
  private readonly logger = new Logger('tenant-upgrades');
  private run: UpgradeRun = { state: 'idle', startedAt: null, finishedAt: null, error: null, servers: [] };

  constructor(
    private readonly placement: TenantPlacementRepository,
    private readonly resources: PlatformResources,
    @Inject(PROJECT_HOST_CONFIG)
    private readonly config: Pick<ProjectHostConfig, 'DATABASE_URL' | 'TENANT_UPGRADES_ON_BOOT'>,
  ) {}

  onApplicationBootstrap(): void {
    void this.reportUnlisted().catch(() => undefined);
    if (this.config.TENANT_UPGRADES_ON_BOOT) void this.sweep();
  }

  async status(): Promise<TenantServersView> {
    const latest = latestTenantMigration();
    const summary = new Map((await this.placement.summary(latest)).map((row) => [row.server, row]));
    const servers: TenantServersView['servers'] = this.resources.tenantServers.list.map((server) => ({
      ...(summary.get(server.name) ?? { server: server.name, projects: 0, behind: 0, moving: 0 }),
      capacity: server.capacity,
      listed: true,
    }));
    for (const row of summary.values()) {
      if (!this.resources.tenantServers.has(row.server))
        servers.push({ ...row, capacity: null, listed: false });
    }
    return { latest, servers, upgrades: { ...this.run, servers: this.run.servers.map((s) => ({ ...s })) } };
  }

  /** One sweep of every listed server; resolves when done (or when another host holds the sweep). */
  async sweep(): Promise<UpgradeRun> {
    if (this.run.state === 'running') return this.run;
    try {
      const outcome = await withSessionLock(
        directDatabaseUrl(this.config.DATABASE_URL),
        SWEEP_LOCK,
        async () => {
          this.run = {
            state: 'running',
            startedAt: new Date().toISOString(),
            finishedAt: null,
            error: null,
            servers: [],
          };
          await upgradeTenants({
            servers: this.resources.tenantServers,
            store: this.placement,
            // Each tenant's migrator connection counts in the host's connection budget.
            migrate: (url) =>
              this.resources.connectionBudget.withSlot('tenant', () => migrateTenantSchema(url)),
            logger: { log: (text) => this.logger.log(text), warn: (text) => this.logger.warn(text) },
            onProgress: (progress) => {
              this.run.servers = [...progress];
            },
          });
          this.run = { ...this.run, state: 'done', finishedAt: new Date().toISOString() };
        },
      );
      if (!outcome.acquired) {
        this.run = { ...this.run, state: 'elsewhere' };
        this.logger.log('another host is upgrading tenant databases');
      }
    } catch (error) {
      this.run = {
        ...this.run,
        state: 'failed',
        finishedAt: new Date().toISOString(),
        error: (error as Error).message,
      };
      this.logger.error({ err: (error as Error).message }, 'tenant upgrades stopped; the next boot goes on');
    }
    return this.run;
  }

  private async reportUnlisted(): Promise<void> {
    for (const row of await this.placement.summary(latestTenantMigration())) {
      if (this.resources.tenantServers.has(row.server)) continue;
      this.logger.error(
        { server: row.server, projects: row.projects },
        `${row.projects} project(s) live on tenant server "${row.server}", which TENANT_DATABASE_SERVERS does not list: ` +
          'they answer 503 until it is listed again under that name',
      );
    }
  }
}
