import { createHash } from 'node:crypto';
import pg from 'pg';
import { databaseUrl } from './connection-url.js';
import { directDatabaseUrl } from './database-pooler.js';
import { tenantMigrationsDir } from './migration-paths.js';
import { migrateDatabase, type MigrationLogger } from './migrator.js';
import { TENANT_SCHEMA } from './prisma-clients.js';
import { quoteIdent } from './sql-identifiers.js';

export interface TenantDatabaseOptions {
  /** URL of a database on the server (usually `postgres`) as a role that may CREATE DATABASE. */
  adminUrl: string;
  projectId: string;
  logger?: MigrationLogger;
  /**
   * Lets the project's own role log in with this password (`[A-Za-z0-9_-]`, 32+ characters) and
   * returns its URL as `appUrl`. Without it the role exists but cannot log in (or keeps the
   * password an earlier call gave it).
   */
  appRolePassword?: string;
  /** Limits of the project's role that the role itself cannot lift (defaults without them). */
  appRoleLimits?: AppRoleLimits;
  /**
   * false: a missing database is an error (TenantDatabaseMissingError), never created. For callers
   * that only open an existing tenant (ctx.db), so a stale record cannot bring an empty one to life.
   */
  createIfMissing?: boolean;
}

/** The tenant database is not on the server its project's record names. */
export class TenantDatabaseMissingError extends Error {
  constructor(readonly database: string) {
    super(`tenant database ${database} does not exist on its server`);
    this.name = 'TenantDatabaseMissingError';
  }
}

export interface AppRoleLimits {
  /**
   * temp_file_limit of the role's sessions: the temporary files (sorts, hashes) one of its
   * statements may write. Superuser-only (PGC_SUSET), so no SET of the role can raise it; the
   * admin needs superuser or `GRANT SET ON PARAMETER temp_file_limit`.
   */
  tempFileLimitMb: number;
}

export interface TenantDatabase {
  database: string;
  url: string;
  /** The project's own role: owns the schema `app`, may not use `platform_auth`. */
  appRole: string;
  /** The database URL as `appRole` (when `appRolePassword` was given). */
  appUrl?: string;
}

/** Where project code's tables live (the app role's search_path), apart from `platform_auth`. */
export const TENANT_APP_SCHEMA = 'app';
/** Longest a statement of project code may run (the role's statement_timeout). */
const APP_STATEMENT_TIMEOUT = '10s';
/** Connections the project's role may hold at once, on every host together. */
const APP_CONNECTION_LIMIT = 20;
const DEFAULT_APP_ROLE_LIMITS: AppRoleLimits = { tempFileLimitMb: 256 };
/**
 * Cluster-wide catalogs (and views over them) that list every database and role, so every
 * tenant's name. Their privileges are kept per database (each database has its own pg_class row
 * for a shared catalog), so revoking them from PUBLIC in a tenant database hides them there only:
 * other databases, the platform's and the tools', keep the usual view. Superusers (the platform's
 * admin, when it is one) are not affected; only a superuser can revoke them.
 */
const CLUSTER_LISTINGS = [
  'pg_database',
  'pg_roles',
  'pg_user',
  'pg_group',
  'pg_auth_members',
  'pg_db_role_setting',
  'pg_shdescription',
  'pg_shseclabel',
  'pg_stat_database',
  'pg_stat_database_conflicts',
].map((name) => `pg_catalog.${name}`);

const MAX_IDENTIFIER_BYTES = 63;

/**
 * `tenant_<projectId>` with every character outside [a-z0-9] turned into `_` (a uuid keeps its
 * digits); names longer than Postgres allows are cut and end in a hash so they stay distinct.
 */
export function tenantDatabaseName(projectId: string): string {
  if (!projectId) throw new Error('projectId is required');
  const name = `tenant_${projectId.toLowerCase().replace(/[^a-z0-9]/g, '_')}`;
  if (name.length <= MAX_IDENTIFIER_BYTES) return name;
  const hash = createHash('sha256').update(projectId).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER_BYTES - hash.length - 1)}_${hash}`;
}

/** `<tenant database>_app`: the project's own Postgres role (roles are server-wide, so it names the project). */
export function tenantAppRoleName(projectId: string): string {
  const name = `${tenantDatabaseName(projectId)}_app`;
  if (name.length <= MAX_IDENTIFIER_BYTES) return name;
  const hash = createHash('sha256').update(`app:${projectId}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER_BYTES - hash.length - 5)}_${hash}_app`;
}

/**
 * Creates the project's tenant database when it does not exist yet, migrates its platform_auth
 * schema to the latest tenant migration, and sets up the project's own role and schema `app`
 * (see ensureAppRole). Safe to call again, and from several processes at once.
 */
export async function provisionTenantDatabase(options: TenantDatabaseOptions): Promise<TenantDatabase> {
  const database = tenantDatabaseName(options.projectId);
  await withAdmin(options.adminUrl, async (admin) => {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount) return;
    if (options.createIfMissing === false) throw new TenantDatabaseMissingError(database);
    try {
      await admin.query(`CREATE DATABASE ${quoteIdent(database)}`);
      options.logger?.log(`created tenant database ${database}`);
    } catch (error) {
      // Another process created it between the check and the CREATE: that is the wanted outcome.
      const code = (error as { code?: string }).code;
      if (code !== '42P04' && code !== '23505') throw error;
    }
  });
  const url = databaseUrl(options.adminUrl, database);
  await migrateDatabase({
    url,
    migrationsDir: tenantMigrationsDir(),
    schema: TENANT_SCHEMA,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const appRole = tenantAppRoleName(options.projectId);
  await withAdmin(url, (admin) =>
    ensureAppRole(admin, database, appRole, options.appRolePassword, options.appRoleLimits, options.logger),
  );
  if (!options.appRolePassword) return { database, url, appRole };
  // Project code's sessions carry settings of their own (ctx.db): never through a transaction pooler.
  const appUrl = new URL(directDatabaseUrl(url));
  appUrl.username = encodeURIComponent(appRole);
  appUrl.password = encodeURIComponent(options.appRolePassword);
  return { database, url, appRole, appUrl: appUrl.toString() };
}

/** Creates the project's role on the server when it has none yet (it owns objects a copy brings). */
export async function ensureTenantRoleExists(adminUrl: string, projectId: string): Promise<void> {
  const role = tenantAppRoleName(projectId);
  await withAdmin(adminUrl, async (admin) => {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    if (rowCount) return;
    try {
      await admin.query(`CREATE ROLE ${quoteIdent(role)} NOLOGIN`);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== '42710' && code !== '23505') throw error;
    }
  });
}

/**
 * The role project code's SQL runs as (ctx.db): it owns the schema `app` (its search_path) and has
 * no right on `platform_auth`, so the project's users, sessions and nonces stay out of its reach;
 * CONNECT on this database is its alone (none for PUBLIC); each statement ends after
 * APP_STATEMENT_TIMEOUT (the host sets its own per call) and its temporary files stop at
 * temp_file_limit; the catalogs that list every database and role are not readable in this
 * database (CLUSTER_LISTINGS). Idempotent; concurrent provisioners of one tenant take turns.
 */
async function ensureAppRole(
  admin: pg.Client,
  database: string,
  role: string,
  password: string | undefined,
  limits: AppRoleLimits | undefined,
  logger: MigrationLogger | undefined,
): Promise<void> {
  if (limits && !(Number.isInteger(limits.tempFileLimitMb) && limits.tempFileLimitMb > 0)) {
    throw new Error('appRoleLimits.tempFileLimitMb must be a positive whole number');
  }
  if (password !== undefined && !/^[A-Za-z0-9_-]{32,}$/.test(password)) {
    throw new Error('appRolePassword must be 32+ characters of [A-Za-z0-9_-]');
  }
  const r = quoteIdent(role);
  const db = quoteIdent(database);
  // One provisioner at a time per tenant: concurrent ALTER ROLE … SET or GRANTs on the same role
  // collide in the catalogs (unique violations, "tuple concurrently updated").
  await admin.query('BEGIN');
  try {
    await admin.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`tenant-app-role:${role}`]);
    const existing = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    if (existing.rowCount === 0) await admin.query(`CREATE ROLE ${r} NOLOGIN`);
    if (password !== undefined) {
      // The password is checked to be a plain token above, so it can stand as a literal.
      await admin.query(
        `ALTER ROLE ${r} LOGIN PASSWORD '${password}' CONNECTION LIMIT ${APP_CONNECTION_LIMIT}`,
      );
    }
    // A role may set its own defaults (ALTER ROLE CURRENT_USER SET ...): only the platform's stay.
    await admin.query(`ALTER ROLE ${r} RESET ALL`);
    await admin.query(`ALTER ROLE ${r} IN DATABASE ${db} RESET ALL`);
    await admin.query(`ALTER ROLE ${r} SET search_path = ${quoteIdent(TENANT_APP_SCHEMA)}`);
    await admin.query(`ALTER ROLE ${r} SET statement_timeout = '${APP_STATEMENT_TIMEOUT}'`);
    await admin.query(`ALTER ROLE ${r} SET idle_in_transaction_session_timeout = '${APP_STATEMENT_TIMEOUT}'`);
    const { tempFileLimitMb } = limits ?? DEFAULT_APP_ROLE_LIMITS;
    // Superuser-only: an admin that is not one needs GRANT SET ON PARAMETER temp_file_limit. Without
    // it the role goes without the limit (loudly) rather than the project without a database.
    await admin.query('SAVEPOINT temp_file_limit');
    try {
      await admin.query(`ALTER ROLE ${r} SET temp_file_limit = '${tempFileLimitMb}MB'`);
    } catch (error) {
      if ((error as { code?: string }).code !== '42501') throw error;
      await admin.query('ROLLBACK TO SAVEPOINT temp_file_limit');
      logger?.warn(
        `temp_file_limit not set for ${role}: the admin role may not set it (GRANT SET ON PARAMETER temp_file_limit TO it)`,
      );
    }
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(TENANT_APP_SCHEMA)} AUTHORIZATION ${r}`);
    await admin.query(`REVOKE ALL ON DATABASE ${db} FROM PUBLIC`);
    await admin.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${db} TO ${r}`);
    await admin.query(`REVOKE ALL ON SCHEMA public FROM PUBLIC`);
    await admin.query(`REVOKE ALL ON SCHEMA ${quoteIdent(TENANT_SCHEMA)} FROM PUBLIC, ${r}`);
    await admin.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${quoteIdent(TENANT_SCHEMA)} FROM PUBLIC, ${r}`);
    // An admin that is not a superuser revokes nothing here (Postgres only warns): then the
    // listings stay visible, loudly (README "Tenant databases": what else names other tenants).
    await admin.query(`REVOKE SELECT ON ${CLUSTER_LISTINGS.join(', ')} FROM PUBLIC`);
    const listed = await admin.query(
      "SELECT pg_catalog.has_table_privilege('public', 'pg_catalog.pg_database', 'SELECT') AS visible",
    );
    if ((listed.rows[0] as { visible: boolean } | undefined)?.visible) {
      logger?.warn(
        `other databases and roles stay listed for ${role}: only a superuser admin can revoke pg_database and pg_roles from PUBLIC`,
      );
    }
    await admin.query('COMMIT');
  } catch (error) {
    await admin.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Drops the project's tenant database, closing any session still connected to it (disconnect
 * cached clients first, e.g. with TenantClientCache.delete). Returns false when it did not exist.
 */
export async function dropTenantDatabase(options: TenantDatabaseOptions): Promise<boolean> {
  const database = tenantDatabaseName(options.projectId);
  return withAdmin(options.adminUrl, async (admin) => {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) return false;
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
    // Roles are server-wide: the project's role goes with its database (it owned nothing else).
    await admin.query(`DROP ROLE IF EXISTS ${quoteIdent(tenantAppRoleName(options.projectId))}`);
    options.logger?.log(`dropped tenant database ${database}`);
    return true;
  });
}

/** One connection of its own for `work`, straight to Postgres past any transaction pooler (admin work needs a session). */
export async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: directDatabaseUrl(adminUrl) });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
