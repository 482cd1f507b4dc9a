import { Injectable, Logger } from '@nestjs/common';
import type { MoveProjectDto } from '@suite/contracts';
import {
  copyTenantDatabase,
  dropTenantDatabase,
  setTenantReadOnly,
  tenantDatabaseName,
  TenantServers,
  UnknownTenantServerError,
} from '@suite/db';
import { AuthError, AuthErrorCode, RunnerError, RunnerErrorCode } from '@suite/errors';
import { ProjectChangeAnnouncer } from '@suite/project-runtime';
import { ProjectResolver } from '../projects/project-resolver.js';
import { ProjectsService } from './projects.service.js';
import { TenantDatabases } from './tenant-databases.js';
import { TenantPlacementRepository } from './tenant-placement.repository.js';

/** A move claimed longer ago than this was abandoned (its host died): another may take over. */
const STALE_MOVE_MS = 30 * 60_000;
/** How long the old copy stays (read-only) after the switch, for requests already on their way. */
const DROP_GRACE_MS = 2_000;

export interface MoveView {
  id: string;
  from: string;
  to: string;
  /** How long writes were refused. */
  readOnlyMs: number;
}

/**
 * Moves a project's tenant database to another server: the project turns read-only (its database
 * refuses writes, which answer 503 temporarily_unavailable with Retry-After; reads go on), the
 * database is copied with pg_dump | pg_restore, the project's row switches to the new server,
 * every process forgets where it was (Redis pub/sub), and the old copy is dropped. A failure
 * before the switch leaves the project where it was, writable again.
 */
@Injectable()
export class TenantMovesService {
  private readonly logger = new Logger('tenant-moves');

  constructor(
    private readonly projects: ProjectsService,
    private readonly placement: TenantPlacementRepository,
    private readonly servers: TenantServers,
    private readonly tenants: TenantDatabases,
    private readonly changes: ProjectChangeAnnouncer,
    private readonly resolver: ProjectResolver,
  ) {}

  async move(projectId: string, body: MoveProjectDto): Promise<MoveView> {
    const project = await this.projects.require(projectId);
    const to = body.server.toLowerCase();
    const servers = this.servers;
    if (!servers.has(to)) {
      throw AuthError.invalidValue('server', `"${to}" is not in TENANT_DATABASE_SERVERS`);
    }
    const from = project.tenantServer;
    if (from === to) {
      throw new AuthError(AuthErrorCode.InvalidRequest, `the project's database is already on "${to}"`, {
        status: 409,
      });
    }
    if (!servers.has(from)) throw unavailable(new UnknownTenantServerError(from));
    const fromAdminUrl = servers.server(from).adminUrl;
    const toAdminUrl = servers.server(to).adminUrl;
    if (sameServer(fromAdminUrl, toAdminUrl)) {
      // Two names of one server: the copy would replace the database it copies.
      throw new AuthError(
        AuthErrorCode.InvalidRequest,
        `"${from}" and "${to}" are the same Postgres server`,
        {
          status: 409,
        },
      );
    }
    if (!(await this.placement.claimMove(project.id, from, new Date(Date.now() - STALE_MOVE_MS)))) {
      throw new AuthError(AuthErrorCode.InvalidRequest, 'a move of this project is already in progress', {
        status: 409,
      });
    }
    const database = tenantDatabaseName(project.id);
    const log = { projectId: project.id, from, to };
    this.logger.log(log, 'moving tenant database: read-only from now');
    const started = Date.now();
    try {
      await setTenantReadOnly(fromAdminUrl, database, true);
      await copyTenantDatabase({ projectId: project.id, fromAdminUrl, toAdminUrl, logger: this.logger });
      await this.placement.finishMove(project.id, to);
    } catch (error) {
      this.logger.error({ ...log, err: (error as Error).message }, 'tenant move failed; the project stays');
      await setTenantReadOnly(fromAdminUrl, database, false).catch((undo: unknown) =>
        this.logger.error(
          { ...log, err: (undo as Error).message },
          'could not make the tenant database writable again: ALTER DATABASE … RESET default_transaction_read_only',
        ),
      );
      await dropTenantDatabase({ adminUrl: toAdminUrl, projectId: project.id }).catch(() => undefined);
      await this.placement.releaseMove(project.id).catch(() => undefined);
      throw new RunnerError(
        RunnerErrorCode.ServiceUnavailable,
        `The project was not moved: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const readOnlyMs = Date.now() - started;
    // Every process looks the project up again; ctx.db pools on the old copy are closed.
    this.resolver.invalidate();
    await this.changes
      .announce(project.id, 'moved')
      .catch((error: unknown) =>
        this.logger.warn(
          { ...log, err: (error as Error).message },
          'could not announce the move; other processes notice within seconds',
        ),
      );
    // Requests that resolved the project before the switch finish on the old (read-only) copy first.
    await new Promise((resolve) => setTimeout(resolve, DROP_GRACE_MS));
    await this.tenants.closeClients({ tenantServer: from, tenantDatabase: database });
    await dropTenantDatabase({ adminUrl: fromAdminUrl, projectId: project.id }).catch((error: unknown) =>
      this.logger.error(
        { ...log, err: (error as Error).message },
        `the old copy stays on "${from}": drop database ${database} there by hand`,
      ),
    );
    this.logger.log({ ...log, readOnlyMs }, 'tenant database moved');
    return { id: project.id, from, to, readOnlyMs };
  }
}

function unavailable(error: Error): RunnerError {
  return new RunnerError(RunnerErrorCode.ServiceUnavailable, error.message, { cause: error });
}

function sameServer(a: string, b: string): boolean {
  const [x, y] = [new URL(a), new URL(b)];
  return x.hostname === y.hostname && (x.port || '5432') === (y.port || '5432');
}
