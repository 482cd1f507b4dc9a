import { readdirSync } from 'node:fs';
import pg from 'pg';
import { tenantMigrationsDir } from './migration-paths.js';
import { migrateDatabase, type MigrationLogger } from './migrator.js';
import { TENANT_SCHEMA } from './prisma-clients.js';
import type { TenantLocation, TenantServers } from './tenant-servers.js';

/**
 * The newest platform_auth migration (the name of its folder): what Project.tenantSchemaVersion
 * holds once a tenant database has every migration.
 */
export function latestTenantMigration(dir: string = tenantMigrationsDir()): string {
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const latest = names.at(-1);
  if (!latest) throw new Error(`no tenant migrations in ${dir}`);
  return latest;
}

/**
 * Applies the platform_auth migrations a tenant database lacks (under the migrator's advisory
 * lock of that database, so hosts and the upgrade sweep never migrate it twice at once) and
 * returns the version it now has.
 */
export async function migrateTenantSchema(
  url: string,
  options: { logger?: MigrationLogger; lockTimeoutMs?: number } = {},
): Promise<string> {
  const migrationsDir = tenantMigrationsDir();
  await migrateDatabase({
    url,
    migrationsDir,
    schema: TENANT_SCHEMA,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
  });
  return latestTenantMigration(migrationsDir);
}

export interface TenantRecord extends TenantLocation {
  id: string;
}

/** The projects table as the upgrade sweep sees it (the control plane implements it). */
export interface TenantUpgradeStore {
  /** How many projects of `server` have a recorded version other than `latest` (or none). */
  countBehind(server: string, latest: string): Promise<number>;
  /** Up to `take` of them with an id above `after`, in id order. */
  behind(server: string, latest: string, after: string | undefined, take: number): Promise<TenantRecord[]>;
  /** Records the version, unless the project moved to another server meanwhile. */
  recordVersion(projectId: string, server: string, version: string): Promise<void>;
}

export interface ServerUpgradeProgress {
  server: string;
  /** Behind when the sweep of this server started. */
  total: number;
  migrated: number;
  failed: number;
  /** Unknown until the server is swept (or it failed to be); stopped: the process was shutting down. */
  state: 'pending' | 'running' | 'done' | 'failed' | 'stopped';
  error?: string;
}

/**
 * What one sweep (upgradeTenants under TENANT_SWEEP_LOCK) ended with, as the project worker that
 * ran it returns it and the control plane shows it: `elsewhere` when another process held the lock.
 */
export interface TenantSweepResult {
  /** stopped: the process shut down half-way; the tenants left wait for the next sweep. */
  state: 'done' | 'elsewhere' | 'stopped';
  servers: ServerUpgradeProgress[];
}

/** The session lock (main database) that lets one process of a deployment sweep at a time. */
export const TENANT_SWEEP_LOCK = 'suite:tenant-upgrades';

export interface UpgradeTenantsOptions {
  servers: TenantServers;
  store: TenantUpgradeStore;
  logger: MigrationLogger;
  /** The version to reach. Default: latestTenantMigration(). */
  latest?: string;
  /** Migrates one tenant database and returns its version. Default: migrateTenantSchema. */
  migrate?: (url: string) => Promise<string>;
  /** Called after every tenant, with every server's progress. */
  onProgress?: (progress: readonly ServerUpgradeProgress[]) => void;
  /** Log a progress line every this many tenants (and at the end). Default 25. */
  logEvery?: number;
  /** Checked before each tenant: true ends the run there (the rest wait for the next run). */
  stopping?: () => boolean;
}

const BATCH = 100;

/**
 * Brings platform_auth of every tenant database to the latest migration: the servers at once,
 * the tenants of one server one after another. Resumable: a tenant counts as done only once its
 * new version is recorded in its project row, so a run stopped half-way (crash, restart) goes on
 * with the tenants whose record is still behind. A tenant that fails is logged and skipped (a
 * host migrates it on first use, or the next run retries it); a failing store (the main
 * database) stops the run, as `stopping` does between tenants.
 */
export async function upgradeTenants(options: UpgradeTenantsOptions): Promise<ServerUpgradeProgress[]> {
  const latest = options.latest ?? latestTenantMigration();
  const migrate = options.migrate ?? ((url: string) => migrateTenantSchema(url));
  const logEvery = options.logEvery ?? 25;
  const progress: ServerUpgradeProgress[] = options.servers.list.map((server) => ({
    server: server.name,
    total: 0,
    migrated: 0,
    failed: 0,
    state: 'pending',
  }));
  const report = () => options.onProgress?.(progress.map((entry) => ({ ...entry })));

  const sweep = async (entry: ServerUpgradeProgress): Promise<void> => {
    const { store, logger } = options;
    entry.total = await store.countBehind(entry.server, latest);
    entry.state = 'running';
    report();
    if (entry.total > 0) logger.log(`tenant upgrades on ${entry.server}: ${entry.total} behind ${latest}`);
    let after: string | undefined;
    for (;;) {
      const batch = await store.behind(entry.server, latest, after, BATCH);
      if (batch.length === 0) break;
      for (const tenant of batch) {
        if (options.stopping?.()) {
          entry.state = 'stopped';
          report();
          logger.log(
            `tenant upgrades on ${entry.server}: stopped at ${entry.migrated + entry.failed}/${entry.total}`,
          );
          return;
        }
        after = tenant.id;
        let version: string;
        try {
          version = await migrate(options.servers.databaseUrl(tenant));
        } catch (error) {
          entry.failed += 1;
          logger.warn(
            `tenant upgrades on ${entry.server}: ${tenant.tenantDatabase} failed (${(error as Error).message}); ` +
              'it is migrated on first use or by the next run',
          );
          report();
          continue;
        }
        await store.recordVersion(tenant.id, entry.server, version);
        entry.migrated += 1;
        report();
        const done = entry.migrated + entry.failed;
        if (done % logEvery === 0) {
          logger.log(`tenant upgrades on ${entry.server}: ${done}/${entry.total} (${entry.failed} failed)`);
        }
      }
    }
    entry.state = 'done';
    report();
    if (entry.total > 0 || entry.migrated > 0) {
      logger.log(
        `tenant upgrades on ${entry.server}: done, ${entry.migrated} migrated, ${entry.failed} failed`,
      );
    }
  };

  const results = await Promise.allSettled(
    progress.map((entry) =>
      sweep(entry).catch((error: unknown) => {
        entry.state = 'failed';
        entry.error = (error as Error).message;
        report();
        throw error;
      }),
    ),
  );
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
  return progress;
}

/**
 * Runs `work` while this process holds the session advisory lock `key` on the database of `url`
 * (pass a direct URL: a transaction pooler does not keep sessions); `undefined` without running it
 * when another session holds the lock. The lock ends with the session, even if this process dies.
 */
export async function withSessionLock<T>(
  url: string,
  key: string,
  work: () => Promise<T>,
): Promise<{ acquired: true; result: T } | { acquired: false }> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
      [key],
    );
    if (!rows[0]?.locked) return { acquired: false };
    return { acquired: true, result: await work() };
  } finally {
    await client.end().catch(() => undefined);
  }
}
