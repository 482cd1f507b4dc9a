import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import {
  createTenantClient,
  isConnectionBudgetError,
  isTooManyConnections,
  provisionTenantDatabase,
  sqlPool,
  type ConnectionBudget,
  type TenantClient,
} from '@suite/db';
import { hkdfSync } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { ProjectRuntimeConfig } from '../runtime.config.js';
import type { ProjectDirectory } from '../tenants/project-directory.js';
import { CONNECTIONS_BUSY } from './connections-busy.js';
import { EffectError } from './effect-error.js';
import { runSqlCall, type SqlCallLimits, type SqlCallResult } from './project-sql-call.js';
import { parseStatement } from './sql-statement.js';

/** Connections of one project's pool on this host (the role allows 20 on all hosts together). */
const POOL_SIZE = 3;
/** The app role's schema (its search_path). */
const TENANT_APP_SCHEMA = 'app';
const MB = 1024 * 1024;

export type QueryResult = SqlCallResult;

interface ProjectPool {
  client: TenantClient;
  pool: Pool;
}

/**
 * ctx.db: SQL of project code on the project's tenant database, as the project's own role (owner
 * of the schema `app`, no rights on `platform_auth`, temp_file_limit set by the platform), one
 * statement per call, under the host's limits (see runSqlCall): statement timeout, rows and bytes
 * returned, and the project's storage quota. The role's password is derived from the host's
 * secret, so every replica computes the same one and none is stored.
 */
export class ProjectDatabase implements OnModuleInit, OnApplicationShutdown {
  private stopFollowingMoves?: () => void;
  private readonly logger = new Logger('project-db');
  private readonly pools = new Map<string, Promise<ProjectPool>>();
  private readonly secret: string;
  private readonly limits: SqlCallLimits;
  private readonly guarded = new WeakSet<PoolClient>();

  constructor(
    private readonly config: ProjectRuntimeConfig,
    private readonly directory: ProjectDirectory,
    /** The process's connection budget: ctx.db's pools share it with the app's own. */
    private readonly budget?: ConnectionBudget,
  ) {
    this.secret = config.AUTH_SECRET ?? config.PLATFORM_ADMIN_TOKEN;
    this.limits = {
      statementTimeoutMs: config.PROJECT_DB_STATEMENT_TIMEOUT_MS,
      maxRows: config.PROJECT_DB_MAX_ROWS,
      maxResultBytes: config.PROJECT_DB_MAX_RESULT_KB * 1024,
      quotaBytes: config.PROJECT_DB_QUOTA_MB * MB,
    };
  }

  async query(projectId: string, input: unknown): Promise<QueryResult> {
    const statement = parseStatement(input);
    const opened = this.pool(projectId);
    const client = await this.checkout((await opened).pool).catch((error: unknown) => {
      // Logging in failed (the role's password or settings changed?): the next call provisions
      // the role again, which sets them back.
      if (!(error instanceof EffectError) && this.pools.get(projectId) === opened) {
        this.directory.forget(projectId);
        void this.forget(projectId);
      }
      throw error;
    });
    const connection = { reusable: true };
    try {
      const { rows, rowCount } = await runSqlCall(client, statement, this.limits, connection);
      return { rows, rowCount };
    } finally {
      void this.recycle(client, connection.reusable);
    }
  }

  /** Forgets a project's pool (its database is being dropped). */
  async forget(projectId: string): Promise<void> {
    const pool = this.pools.get(projectId);
    this.pools.delete(projectId);
    await (await pool?.catch(() => undefined))?.client.$disconnect();
  }

  /** A project that moved to another server (the directory's subscription): its pool here points at the old copy. */
  onModuleInit(): void {
    this.stopFollowingMoves = this.directory.onMove((projectId) => void this.forget(projectId));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopFollowingMoves?.();
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.allSettled(pools.map(async (pool) => (await pool).client.$disconnect()));
  }

  /**
   * A connection of the project's pool, waiting at most a statement timeout for one: the sandbox
   * that asked has a time limit of its own, and a call queued longer would run for nobody.
   */
  private async checkout(pool: Pool): Promise<PoolClient> {
    let timer: NodeJS.Timeout | undefined;
    const connecting = pool.connect();
    const waited = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new EffectError(
              `ctx.db.query: the project's ${POOL_SIZE} database connections on this host stayed busy for ` +
                `${this.limits.statementTimeoutMs} ms; try again`,
            ),
          ),
        this.limits.statementTimeoutMs,
      );
    });
    try {
      const client = await Promise.race([connecting, waited]);
      if (!this.guarded.has(client)) {
        // A checked-out client has no error listener of the pool's: a connection lost between
        // two statements must not take the process down (the statement in flight fails instead).
        client.on('error', () => undefined);
        this.guarded.add(client);
      }
      return client;
    } catch (error) {
      connecting.then(
        (late) => late.release(),
        () => undefined,
      );
      // The host's connection budget (DB_CONNECTION_BUDGET) stayed full for its whole wait.
      if (isConnectionBudgetError(error)) throw new EffectError(CONNECTIONS_BUSY);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Back to the pool with a clean session (DISCARD ALL: SETs, temp tables, advisory locks,
   * cursors, LISTENs of the call are gone), or closed when that fails or the call left it in doubt.
   */
  private async recycle(client: PoolClient, reusable: boolean): Promise<void> {
    if (reusable) {
      try {
        await client.query('DISCARD ALL');
        client.release();
        return;
      } catch {
        // Closed below.
      }
    }
    client.release(true);
  }

  /** The project's pool, created on first use (role, schema and grants ensured for older tenants). */
  private pool(projectId: string): Promise<ProjectPool> {
    let pool = this.pools.get(projectId);
    if (!pool) {
      pool = this.openInBudget(projectId);
      this.pools.set(projectId, pool);
      pool.catch(() => this.pools.delete(projectId));
    }
    return pool;
  }

  private async open(projectId: string): Promise<ProjectPool> {
    try {
      // Where the project's database lives now: the directory the request path uses too (a move
      // drops its record there, and this pool with it).
      const record = await this.directory.byId(projectId);
      if (!record) throw new Error(`project ${projectId} has no record`);
      const tenant = await provisionTenantDatabase({
        adminUrl: this.directory.serverOf(record).adminUrl,
        projectId,
        // Never brought to life here: a missing database is a move in progress or a stale record.
        createIfMissing: false,
        appRolePassword: this.passwordOf(projectId),
        appRoleLimits: { tempFileLimitMb: this.config.PROJECT_DB_TEMP_FILE_LIMIT_MB },
        logger: this.logger,
      });
      // The host's session defaults travel in the startup packet: they rank above the role's own
      // defaults, which the role may change (ALTER ROLE CURRENT_USER SET ...).
      const url = new URL(tenant.appUrl!);
      const timeout = this.limits.statementTimeoutMs;
      url.searchParams.set(
        'options',
        `-c statement_timeout=${timeout} -c idle_in_transaction_session_timeout=${timeout + 5_000} -c search_path=${TENANT_APP_SCHEMA}`,
      );
      const client = createTenantClient(url.toString(), {
        maxConnections: POOL_SIZE,
        budget: this.budget,
      });
      return { client, pool: sqlPool(client) };
    } catch (error) {
      // Connections all taken: openInBudget retries or says so.
      if (isTooManyConnections(error) || isConnectionBudgetError(error)) throw error;
      this.logger.error({ projectId, err: (error as Error).message }, 'project database unavailable');
      throw new EffectError('ctx.db.query: the project database is not available right now');
    }
  }

  /**
   * open() inside a slot of the process's connection budget: provisioning opens admin connections
   * of its own, one at a time (and is safe to repeat when Postgres refuses one).
   */
  private async openInBudget(projectId: string): Promise<ProjectPool> {
    const budget = this.budget;
    try {
      return budget
        ? await budget.withSlot('tenant', () => this.open(projectId))
        : await this.open(projectId);
    } catch (error) {
      if (isTooManyConnections(error) || isConnectionBudgetError(error))
        throw new EffectError(CONNECTIONS_BUSY);
      throw error;
    }
  }

  private passwordOf(projectId: string): string {
    return Buffer.from(
      hkdfSync('sha256', this.secret, 'suite/project-host/project-db', `app-role:${projectId}`, 32),
    ).toString('base64url');
  }
}
