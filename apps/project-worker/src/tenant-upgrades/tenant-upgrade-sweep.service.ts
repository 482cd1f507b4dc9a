import {
  directDatabaseUrl,
  migrateTenantSchema,
  TENANT_SWEEP_LOCK,
  upgradeTenants,
  withSessionLock,
  type ConnectionBudget,
  type ServerUpgradeProgress,
  type TenantServers,
  type TenantSweepResult,
  type TenantUpgradeStore,
} from '@suite/db';

export interface TenantUpgradeSweepOptions {
  /** The main database (DATABASE_URL); the sweep's session lock is taken past any transaction pooler. */
  databaseUrl: string;
  servers: TenantServers;
  store: TenantUpgradeStore;
  /** Each tenant's migrator connection counts in the worker's connection budget. */
  budget: ConnectionBudget;
  log: { log(text: string): void; warn(text: string): void };
}

/**
 * Upgrades reach every tenant: brings platform_auth of every tenant database behind up to this
 * build's latest migration, the servers in parallel (upgradeTenants: resumable, each tenant's
 * version kept in its project row). One process of the deployment at a time: the queue runs one
 * sweep at once, and the session lock keeps out any other process sweeping (an older release
 * during a rolling upgrade), in which case this one ends `elsewhere`. A worker shutting down ends
 * its sweep after the tenant in hand (`stopped`); the next worker's boot asks for another.
 */
export class TenantUpgradeSweep {
  constructor(private readonly options: TenantUpgradeSweepOptions) {}

  async run(
    stopping: () => boolean,
    onProgress: (servers: ServerUpgradeProgress[]) => void = () => undefined,
  ): Promise<TenantSweepResult> {
    const { databaseUrl, servers, store, budget, log } = this.options;
    const outcome = await withSessionLock(directDatabaseUrl(databaseUrl), TENANT_SWEEP_LOCK, () =>
      upgradeTenants({
        servers,
        store,
        migrate: (url) => budget.withSlot('tenant', () => migrateTenantSchema(url)),
        logger: log,
        onProgress: (progress) => onProgress([...progress]),
        stopping,
      }),
    );
    if (!outcome.acquired) {
      log.log('another process is upgrading tenant databases');
      return { state: 'elsewhere', servers: [] };
    }
    const stopped = outcome.result.some((server) => server.state === 'stopped');
    return { state: stopped ? 'stopped' : 'done', servers: outcome.result };
  }
}
