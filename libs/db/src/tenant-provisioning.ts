import { createHash } from 'node:crypto';
import pg from 'pg';
import { databaseUrl } from './connection-url.js';
import { tenantMigrationsDir } from './migration-paths.js';
import { migrateDatabase, type MigrationLogger } from './migrator.js';
import { TENANT_SCHEMA } from './prisma-clients.js';
import { quoteIdent } from './sql-identifiers.js';

export interface TenantDatabaseOptions {
  /** URL of a database on the server (usually `postgres`) as a role that may CREATE DATABASE. */
  adminUrl: string;
  projectId: string;
  logger?: MigrationLogger;
}

export interface TenantDatabase {
  database: string;
  url: string;
}

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

/**
 * Creates the project's tenant database when it does not exist yet and migrates its platform_auth
 * schema to the latest tenant migration. Safe to call again, and from several processes at once.
 */
export async function provisionTenantDatabase(options: TenantDatabaseOptions): Promise<TenantDatabase> {
  const database = tenantDatabaseName(options.projectId);
  await withAdmin(options.adminUrl, async (admin) => {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount) return;
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
  return { database, url };
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
    options.logger?.log(`dropped tenant database ${database}`);
    return true;
  });
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
