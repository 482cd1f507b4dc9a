import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tenantMigrationsDir } from './migration-paths.js';
import { migrateDatabase } from './migrator.js';
import { TENANT_SCHEMA } from './prisma-clients.js';
import { createThrowawayDatabase, withClient, type ThrowawayDatabase } from './testing/throwaway-database.js';
import { TenantServers } from './tenant-servers.js';
import {
  latestTenantMigration,
  upgradeTenants,
  type ServerUpgradeProgress,
  type TenantRecord,
  type TenantUpgradeStore,
} from './tenant-upgrades.js';

// The upgrade sweep over real tenant databases: each starts at the shipped platform_auth
// migrations, the sweep brings them to a newer set (one more migration), and a run stopped
// half-way goes on with the tenants it had not recorded.

const PROBE = '29991231000000_upgrade_probe';

/** The projects table as the sweep sees it, in memory, with a switch that makes it fail. */
class MemoryStore implements TenantUpgradeStore {
  readonly versions = new Map<string, string | null>();
  failAfterRecords = Number.POSITIVE_INFINITY;
  recorded = 0;

  constructor(readonly records: (TenantRecord & { version: string | null })[]) {
    for (const record of records) this.versions.set(record.id, record.version);
  }

  private behindOn(server: string, latest: string): TenantRecord[] {
    return this.records
      .filter((r) => r.tenantServer === server)
      .filter((r) => {
        const version = this.versions.get(r.id);
        return version === null || version === undefined || version < latest;
      })
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  async countBehind(server: string, latest: string): Promise<number> {
    return this.behindOn(server, latest).length;
  }

  async behind(server: string, latest: string, after: string | undefined, take: number) {
    return this.behindOn(server, latest)
      .filter((r) => after === undefined || r.id > after)
      .slice(0, take);
  }

  async recordVersion(projectId: string, _server: string, version: string): Promise<void> {
    if (this.recorded >= this.failAfterRecords) throw new Error('main database went away');
    this.recorded += 1;
    this.versions.set(projectId, version);
  }
}

describe('upgradeTenants', () => {
  let migrations: string;
  const tenants: ThrowawayDatabase[] = [];
  let store: MemoryStore;
  let servers: TenantServers;
  const migrated: string[] = [];

  const migrate = async (url: string): Promise<string> => {
    migrated.push(new URL(url).pathname.slice(1));
    await migrateDatabase({ url, migrationsDir: migrations, schema: TENANT_SCHEMA });
    return latestTenantMigration(migrations);
  };
  const hasProbe = (tenant: ThrowawayDatabase) =>
    withClient(tenant.url, async (db) => {
      const { rows } = await db.query<{ t: string | null }>(
        `SELECT to_regclass('${TENANT_SCHEMA}.upgrade_probe')::text AS t`,
      );
      return rows[0]!.t !== null;
    });

  beforeAll(async () => {
    migrations = mkdtempSync(join(tmpdir(), 'tenant-migrations-'));
    cpSync(tenantMigrationsDir(), migrations, { recursive: true });
    mkdirSync(join(migrations, PROBE));
    writeFileSync(
      join(migrations, PROBE, 'migration.sql'),
      'CREATE TABLE "platform_auth"."upgrade_probe" ("id" INTEGER PRIMARY KEY);\n',
    );
    for (let i = 0; i < 6; i++) {
      const tenant = await createThrowawayDatabase('tenant_upgrade');
      await migrateDatabase({ url: tenant.url, migrationsDir: tenantMigrationsDir(), schema: TENANT_SCHEMA });
      tenants.push(tenant);
    }
    // Two "servers" (names of this test's Postgres): four tenants on one, two on the other.
    const adminUrl = new URL(tenants[0]!.url);
    adminUrl.pathname = '/postgres';
    servers = new TenantServers([
      { name: 'a', adminUrl: adminUrl.toString(), capacity: 10 },
      { name: 'b', adminUrl: adminUrl.toString(), capacity: 10 },
    ]);
    store = new MemoryStore(
      tenants.map((tenant, i) => ({
        id: `p${i}`,
        tenantServer: i < 4 ? 'a' : 'b',
        tenantDatabase: new URL(tenant.url).pathname.slice(1),
        version: latestTenantMigration(),
      })),
    );
  }, 60_000);

  afterAll(async () => {
    for (const tenant of tenants) await tenant.drop();
    rmSync(migrations, { recursive: true, force: true });
  });

  it('a run stopped half-way leaves the rest behind; the next run migrates only those', async () => {
    expect(latestTenantMigration(migrations)).toBe(PROBE);
    const logged: string[] = [];
    const logger = { log: (text: string) => logged.push(text), warn: (text: string) => logged.push(text) };

    // First run: the main database goes away after two tenants were recorded.
    store.failAfterRecords = 2;
    await expect(upgradeTenants({ servers, store, logger, latest: PROBE, migrate })).rejects.toThrow(
      'main database went away',
    );
    const recordedFirst = [...store.versions].filter(([, v]) => v === PROBE).map(([id]) => id);
    expect(recordedFirst).toHaveLength(2);
    const firstRun = [...migrated];

    // Second run: goes on with the tenants still behind, never the recorded ones again.
    store.failAfterRecords = Number.POSITIVE_INFINITY;
    migrated.length = 0;
    const progress: ServerUpgradeProgress[][] = [];
    const done = await upgradeTenants({
      servers,
      store,
      logger,
      latest: PROBE,
      migrate,
      onProgress: (p) => progress.push([...p]),
    });
    const databaseOf = (id: string) => store.records.find((r) => r.id === id)!.tenantDatabase;
    for (const id of recordedFirst) expect(migrated).not.toContain(databaseOf(id));
    expect(migrated).toHaveLength(4);
    expect(firstRun.length + migrated.length).toBeGreaterThanOrEqual(6);
    expect(done.map(({ server, migrated: m, failed, state }) => ({ server, m, failed, state }))).toEqual([
      { server: 'a', m: expect.any(Number) as unknown, failed: 0, state: 'done' },
      { server: 'b', m: expect.any(Number) as unknown, failed: 0, state: 'done' },
    ]);
    expect(done.reduce((sum, entry) => sum + entry.migrated, 0)).toBe(4);
    expect(progress.length).toBeGreaterThan(0);
    expect(logged.some((line) => /tenant upgrades on [ab]: done, \d+ migrated, 0 failed/.test(line))).toBe(
      true,
    );

    // Every tenant has the new migration, and every row says so.
    for (const tenant of tenants) expect(await hasProbe(tenant)).toBe(true);
    expect(new Set(store.versions.values())).toEqual(new Set([PROBE]));

    // A third run finds nothing to do.
    migrated.length = 0;
    await upgradeTenants({ servers, store, logger, latest: PROBE, migrate });
    expect(migrated).toEqual([]);
  });

  it('a tenant whose migration fails is logged and skipped, the others go on', async () => {
    const broken = await createThrowawayDatabase('tenant_upgrade');
    tenants.push(broken);
    await migrateDatabase({ url: broken.url, migrationsDir: tenantMigrationsDir(), schema: TENANT_SCHEMA });
    // The new migration cannot apply there: its table already exists.
    await withClient(broken.url, (db) => db.query(`CREATE TABLE ${TENANT_SCHEMA}.upgrade_probe (x text)`));
    const fresh = await createThrowawayDatabase('tenant_upgrade');
    tenants.push(fresh);
    await migrateDatabase({ url: fresh.url, migrationsDir: tenantMigrationsDir(), schema: TENANT_SCHEMA });
    const local = new MemoryStore(
      [broken, fresh].map((tenant, i) => ({
        id: `q${i}`,
        tenantServer: 'a',
        tenantDatabase: new URL(tenant.url).pathname.slice(1),
        version: null,
      })),
    );
    const warnings: string[] = [];
    const [a] = await upgradeTenants({
      servers,
      store: local,
      logger: { log: () => undefined, warn: (text) => warnings.push(text) },
      latest: PROBE,
      migrate,
    });
    expect(a).toMatchObject({ server: 'a', total: 2, migrated: 1, failed: 1, state: 'done' });
    expect(local.versions.get('q0')).toBeNull();
    expect(local.versions.get('q1')).toBe(PROBE);
    expect(warnings.join('\n')).toMatch(/failed .*migrated on first use or by the next run/);
  });
});
