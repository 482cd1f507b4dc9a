import { afterAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { databaseUrl } from './connection-url.js';
import { dropTenantDatabase, provisionTenantDatabase, tenantAppRoleName } from './tenant-provisioning.js';
import { adminQuery, adminUrl, withClient } from './testing/throwaway-database.js';

// The settings of a project's role that the role itself cannot lift (real Postgres).

const PASSWORD = randomBytes(32).toString('base64url');

async function roleSettings(projectId: string): Promise<string[]> {
  const { rows } = await adminQuery(
    `SELECT unnest(setconfig) AS setting FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole
     WHERE r.rolname = $1 ORDER BY 1`,
    [tenantAppRoleName(projectId)],
  );
  return rows.map((row: { setting: string }) => row.setting);
}

describe("the project role's limits", () => {
  const projects: string[] = [];
  const newProject = (): string => {
    const id = randomUUID();
    projects.push(id);
    return id;
  };

  afterAll(async () => {
    for (const projectId of projects) await dropTenantDatabase({ adminUrl: adminUrl(), projectId });
  });

  it('sets temp_file_limit, which the role cannot raise, and drops defaults the role gave itself', async () => {
    const projectId = newProject();
    const tenant = await provisionTenantDatabase({
      adminUrl: adminUrl(),
      projectId,
      appRolePassword: PASSWORD,
      appRoleLimits: { tempFileLimitMb: 64 },
    });
    expect(await roleSettings(projectId)).toContain('temp_file_limit=64MB');
    await withClient(tenant.appUrl!, async (role) => {
      await expect(role.query("SET temp_file_limit = '1GB'")).rejects.toThrow(
        'permission denied to set parameter "temp_file_limit"',
      );
      await role.query("ALTER ROLE CURRENT_USER SET work_mem = '1GB'");
    });
    expect(await roleSettings(projectId)).toContain('work_mem=1GB');

    await provisionTenantDatabase({ adminUrl: adminUrl(), projectId, appRolePassword: PASSWORD });
    expect(await roleSettings(projectId)).toEqual([
      'idle_in_transaction_session_timeout=10s',
      'search_path=app',
      'statement_timeout=10s',
      'temp_file_limit=256MB',
    ]);
  });

  it('still provisions through an admin that may not set temp_file_limit nor hide the catalogs, and says so', async () => {
    const admin = `limited_admin_${randomBytes(4).toString('hex')}`;
    await adminQuery(`CREATE ROLE ${admin} LOGIN CREATEDB CREATEROLE`);
    const projectId = newProject();
    // Postgres 15 does not make a CREATEROLE admin a member of the roles it creates, which CREATE
    // SCHEMA ... AUTHORIZATION needs: the project's role exists already, granted to the admin.
    await adminQuery(`CREATE ROLE ${tenantAppRoleName(projectId)} NOLOGIN`);
    await adminQuery(`GRANT ${tenantAppRoleName(projectId)} TO ${admin}`);
    const warnings: string[] = [];
    try {
      const url = new URL(databaseUrl(adminUrl(), 'postgres'));
      url.username = admin;
      await provisionTenantDatabase({
        adminUrl: url.toString(),
        projectId,
        appRolePassword: PASSWORD,
        logger: { log: () => undefined, warn: (message) => warnings.push(message) },
      });
      // Nor may it hide the cluster's databases and roles from the tenant: said too.
      expect(warnings).toEqual([
        expect.stringContaining('temp_file_limit not set for'),
        expect.stringContaining('other databases and roles stay listed for'),
      ]);
      expect(await roleSettings(projectId)).not.toContainEqual(expect.stringMatching(/^temp_file_limit/));
    } finally {
      await dropTenantDatabase({ adminUrl: adminUrl(), projectId });
      await adminQuery(`DROP OWNED BY ${admin}`).catch(() => undefined);
      await adminQuery(`DROP ROLE IF EXISTS ${admin}`);
    }
  });
});
