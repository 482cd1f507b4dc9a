import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { TenantClientCache } from './prisma-clients.js';
import {
  dropTenantDatabase,
  provisionTenantDatabase,
  tenantAppRoleName,
  tenantDatabaseName,
} from './tenant-provisioning.js';
import { adminQuery, adminUrl, withClient } from './testing/throwaway-database.js';

async function databaseExists(name: string): Promise<boolean> {
  const result = await adminQuery('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return result.rowCount === 1;
}

describe('tenant databases (real Postgres)', () => {
  const projects: string[] = [];
  const cache = new TenantClientCache();

  // Project ids of their own, so a test database never collides with a running suite's tenants.
  const newProject = (): string => {
    const id = randomUUID();
    projects.push(id);
    return id;
  };

  afterAll(async () => {
    await cache.disconnectAll();
    for (const projectId of projects) await dropTenantDatabase({ adminUrl: adminUrl(), projectId });
  });

  it('provisions a database whose platform_auth schema a tenant client can use at once', async () => {
    const projectId = newProject();
    const tenant = await provisionTenantDatabase({ adminUrl: adminUrl(), projectId });

    expect(tenant.database).toBe(`tenant_${projectId.replaceAll('-', '_')}`);
    expect(new URL(tenant.url).pathname).toBe(`/${tenant.database}`);
    const users = cache.get(tenant.url);
    const user = await users.user.create({ data: { email: 'first@example.com', name: 'First' } });
    expect(await users.user.findUnique({ where: { email: 'first@example.com' } })).toMatchObject({
      id: user.id,
    });
    expect(cache.get(tenant.url)).toBe(users);
  });

  it('is idempotent and safe when several processes provision the same project at once', async () => {
    const projectId = newProject();
    const results = await Promise.all(
      Array.from({ length: 3 }, () => provisionTenantDatabase({ adminUrl: adminUrl(), projectId })),
    );
    expect(new Set(results.map((result) => result.url)).size).toBe(1);

    const again = await provisionTenantDatabase({ adminUrl: adminUrl(), projectId });
    expect(again).toEqual(results[0]);
    const history = await cache
      .get(again.url)
      .$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM platform_auth."_prisma_migrations"');
    expect(history[0]!.n).toBeGreaterThan(0);
  });

  it('keeps tenants apart: a user of one project is unknown to another', async () => {
    const [a, b] = await Promise.all([
      provisionTenantDatabase({ adminUrl: adminUrl(), projectId: newProject() }),
      provisionTenantDatabase({ adminUrl: adminUrl(), projectId: newProject() }),
    ]);
    await cache.get(a.url).user.create({ data: { email: 'same@example.com' } });
    expect(await cache.get(b.url).user.count()).toBe(0);
    await cache.get(b.url).user.create({ data: { email: 'same@example.com' } });
  });

  it('gives the project a role of its own: schema app is its, platform_auth and other tenants are not', async () => {
    const password = 'p'.repeat(40);
    const [mineId, otherId] = [newProject(), newProject()];
    const [mine, other] = await Promise.all([
      provisionTenantDatabase({ adminUrl: adminUrl(), projectId: mineId, appRolePassword: password }),
      provisionTenantDatabase({ adminUrl: adminUrl(), projectId: otherId, appRolePassword: password }),
    ]);
    expect(new URL(mine.appUrl!).username).toBe(mine.appRole);
    await withClient(mine.appUrl!, async (db) => {
      await db.query('CREATE TABLE notes (body text)');
      const where = await db.query<{ schema: string }>(
        "SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'notes'",
      );
      expect(where.rows).toEqual([{ schema: 'app' }]);
      await expect(db.query('SELECT * FROM platform_auth.users')).rejects.toThrow(
        'permission denied for schema platform_auth',
      );
      await expect(db.query('SET ROLE postgres')).rejects.toThrow(/permission denied/);
      expect((await db.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]).toEqual({
        statement_timeout: '10s',
      });
    });
    // Another tenant's role cannot even connect here.
    const intruder = new URL(other.appUrl!);
    intruder.pathname = `/${mine.database}`;
    await expect(withClient(intruder.toString(), (db) => db.query('SELECT 1'))).rejects.toThrow(
      /permission denied for database/,
    );
    // Provisioning again (another host, an older tenant) keeps the table and the password.
    await provisionTenantDatabase({ adminUrl: adminUrl(), projectId: mineId, appRolePassword: password });
    await withClient(mine.appUrl!, (db) => db.query('SELECT * FROM notes'));
  });

  it('drops the project role with its database', async () => {
    const projectId = newProject();
    await provisionTenantDatabase({ adminUrl: adminUrl(), projectId });
    const role = async () =>
      (await adminQuery('SELECT 1 FROM pg_roles WHERE rolname = $1', [tenantAppRoleName(projectId)]))
        .rowCount;
    expect(await role()).toBe(1);
    await dropTenantDatabase({ adminUrl: adminUrl(), projectId });
    expect(await role()).toBe(0);
  });

  it('drops a tenant database, even with clients still connected', async () => {
    const projectId = newProject();
    const tenant = await provisionTenantDatabase({ adminUrl: adminUrl(), projectId });
    await cache.get(tenant.url).user.count();

    expect(await dropTenantDatabase({ adminUrl: adminUrl(), projectId })).toBe(true);
    expect(await databaseExists(tenant.database)).toBe(false);
    expect(await dropTenantDatabase({ adminUrl: adminUrl(), projectId })).toBe(false);
    await cache.delete(tenant.url);
  });
});

describe('tenantDatabaseName', () => {
  it('turns a project id into a safe, stable identifier', () => {
    expect(tenantDatabaseName('0195F3A2-7C1D-7E4B-9A3C-2B1D4E5F6A7B')).toBe(
      'tenant_0195f3a2_7c1d_7e4b_9a3c_2b1d4e5f6a7b',
    );
    expect(tenantDatabaseName('shop"; DROP DATABASE x; --')).toMatch(/^tenant_[a-z0-9_]+$/);
  });

  it('keeps long ids within 63 bytes and distinct', () => {
    const a = tenantDatabaseName('p'.repeat(80) + 'a');
    const b = tenantDatabaseName('p'.repeat(80) + 'b');
    expect(a.length).toBeLessThanOrEqual(63);
    expect(a).not.toBe(b);
  });

  it('refuses an empty id', () => {
    expect(() => tenantDatabaseName('')).toThrow(/projectId/);
  });
});
