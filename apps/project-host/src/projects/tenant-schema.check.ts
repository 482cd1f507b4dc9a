import { Logger } from '@nestjs/common';
import {
  latestTenantMigration,
  migrateTenantSchema,
  type ConnectionBudget,
  type MainDb,
  type TenantServers,
} from '@suite/db';
import { RunnerError, RunnerErrorCode } from '@suite/errors';
import type { ProjectRecordRepository } from '@suite/project-runtime';

/** A project's row as far as its tenant database goes. */
export type TenantRow = Pick<
  MainDb.Project,
  'id' | 'tenantServer' | 'tenantDatabase' | 'tenantSchemaVersion'
>;

/** Longest a first request waits for another process migrating the same tenant. */
const LOCK_TIMEOUT_MS = 15_000;
const RETRY_AFTER_SECONDS = 5;

/**
 * A host never serves a tenant whose platform_auth is behind this build's migrations: the first
 * use of a project in this process checks the version its row records, and a tenant behind is
 * migrated on the spot (under the migrator's lock of that database, so concurrent hosts and the
 * upgrade sweep take turns) before the request goes on; until that succeeds the project answers
 * 503 with Retry-After. Versions are migration names (timestamped), so a row ahead of this build
 * (a newer host migrated it during a rolling upgrade) counts as current. The version reached is
 * recorded through ProjectRecordRepository.
 */
export class TenantSchemaCheck {
  private readonly logger = new Logger('tenant-schema');
  private readonly latest = latestTenantMigration();
  private readonly current = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly records: ProjectRecordRepository,
    private readonly tenantServers: TenantServers,
    /** The process's connection budget: the migrator's connection counts in it. */
    private readonly budget: ConnectionBudget,
  ) {}

  async ensureCurrent(project: TenantRow): Promise<void> {
    const key = `${project.id}@${project.tenantServer}`;
    if (this.current.has(key)) return;
    if (project.tenantSchemaVersion !== null && project.tenantSchemaVersion >= this.latest) {
      this.current.add(key);
      return;
    }
    let run = this.running.get(key);
    if (!run) {
      run = this.migrate(project, key).finally(() => this.running.delete(key));
      this.running.set(key, run);
    }
    await run;
  }

  private async migrate(project: TenantRow, key: string): Promise<void> {
    try {
      // The migrator's connection counts in the process's connection budget.
      const version = await this.budget.withSlot('tenant', () =>
        migrateTenantSchema(this.tenantServers.databaseUrl(project), {
          logger: this.logger,
          lockTimeoutMs: LOCK_TIMEOUT_MS,
        }),
      );
      await this.records.recordSchemaVersionIfBehind(project.id, project.tenantServer, version);
      this.current.add(key);
      this.logger.log(
        {
          projectId: project.id,
          tenantServer: project.tenantServer,
          from: project.tenantSchemaVersion,
          version,
        },
        'tenant schema brought up to date on first use',
      );
    } catch (error) {
      this.logger.error(
        { projectId: project.id, tenantServer: project.tenantServer, err: (error as Error).message },
        'tenant schema is behind and could not be migrated',
      );
      throw new RunnerError(
        RunnerErrorCode.TemporarilyUnavailable,
        "This project's database is being upgraded; try again shortly.",
        { cause: error, retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
  }
}
