export { migrateDatabase, migrationChecksum, MigrationError } from './migrator.js';
export type { MigrateDatabaseOptions, MigrationErrorCode, MigrationLogger } from './migrator.js';
export { mainMigrationsDir, tenantMigrationsDir } from './migration-paths.js';
export {
  dropTenantDatabase,
  provisionTenantDatabase,
  tenantDatabaseName,
  TenantDatabaseMissingError,
} from './tenant-provisioning.js';
export {
  DEFAULT_TENANT_SERVER,
  parseTenantServerList,
  TenantServers,
  UnknownTenantServerError,
} from './tenant-servers.js';
export type { TenantLocation, TenantServer, TenantServerSettings } from './tenant-servers.js';
export {
  latestTenantMigration,
  migrateTenantSchema,
  upgradeTenants,
  withSessionLock,
  TENANT_SWEEP_LOCK,
} from './tenant-upgrades.js';
export type {
  ServerUpgradeProgress,
  TenantRecord,
  TenantSweepResult,
  TenantUpgradeStore,
  UpgradeTenantsOptions,
} from './tenant-upgrades.js';
export { copyTenantDatabase, setTenantReadOnly } from './tenant-move.js';
export type { CopyTenantOptions } from './tenant-move.js';
export type { TenantDatabase, TenantDatabaseOptions } from './tenant-provisioning.js';
export {
  createMainClient,
  createTenantClient,
  sqlPool,
  TENANT_SCHEMA,
  TenantClientCache,
} from './prisma-clients.js';
export type { ClientOptions, MainClient, TenantClient } from './prisma-clients.js';
export {
  CONNECTION_BUDGET_EXHAUSTED,
  ConnectionBudget,
  ConnectionBudgetError,
  isConnectionBudgetError,
  isTooManyConnections,
} from './connection-budget.js';
export type { ConnectionBudgetOptions, ConnectionKind } from './connection-budget.js';
export { databaseUrl } from './connection-url.js';
export {
  behindPooler,
  DATABASE_POOLERS,
  databasePooler,
  directDatabaseUrl,
  hotStatement,
} from './database-pooler.js';
export type { DatabasePooler } from './database-pooler.js';
export { isUuid, newId } from './ids.js';

// Model types, the Prisma namespace (errors, input types) and enums of each database, e.g.
// MainDb.Job, MainDb.Prisma.PrismaClientKnownRequestError, TenantDb.User.
export * as MainDb from './generated/main/client.js';
export * as TenantDb from './generated/tenant/client.js';
export { BrowserEnv, DeploymentStatus, IdpMode, JobStatus, MailStatus } from './generated/main/enums.js';
export { NonceKind } from './generated/tenant/enums.js';
