import { Logger } from '@nestjs/common';
import {
  dropTenantDatabase,
  latestTenantMigration,
  provisionTenantDatabase,
  tenantDatabaseName,
  type ConnectionBudget,
  type TenantClientCache,
  type TenantServer,
  type TenantServers,
} from '@suite/db';

/** Where a project's tenant database is: its id and the server its row names. */
export interface TenantOf {
  id: string;
  tenantServer: string;
}

/**
 * Creates and drops a project's tenant database (schema platform_auth) on the tenant database
 * servers, and picks the server of a new project.
 */
export class TenantDatabases {
  private readonly logger = new Logger('tenant-databases');

  constructor(
    private readonly servers: TenantServers,
    /** This process's tenant clients: closed before a database goes away. */
    private readonly clients: TenantClientCache,
    /** The process's connection budget: admin connections count in it. */
    private readonly budget: ConnectionBudget,
  ) {}

  nameOf(projectId: string): string {
    return tenantDatabaseName(projectId);
  }

  /** The server with the most room, given how many projects each holds (see TenantServers.place). */
  place(projectsPerServer: ReadonlyMap<string, number>): TenantServer {
    const { server, full } = this.servers.place(projectsPerServer);
    if (full) {
      this.logger.warn(
        { server: server.name },
        'every tenant database server is at its capacity; add one to TENANT_DATABASE_SERVERS',
      );
    }
    return server;
  }

  /** Creates (or completes) the database on `server`; returns its platform_auth version. */
  async provision(projectId: string, server: string): Promise<string> {
    // Its admin connections (one at a time) count in the process's connection budget.
    await this.budget.withSlot('tenant', () =>
      provisionTenantDatabase({
        adminUrl: this.servers.server(server).adminUrl,
        projectId,
        logger: this.logger,
      }),
    );
    return latestTenantMigration();
  }

  /** Closes this process's connections to it first; other sessions are ended by the drop itself. */
  async drop(project: TenantOf): Promise<void> {
    await this.closeClients({ tenantServer: project.tenantServer, tenantDatabase: this.nameOf(project.id) });
    await this.budget.withSlot('tenant', () =>
      dropTenantDatabase({
        adminUrl: this.servers.server(project.tenantServer).adminUrl,
        projectId: project.id,
        logger: this.logger,
      }),
    );
  }

  /** Closes this process's connections to the database at `location` (a dropped or moved copy). */
  async closeClients(location: { tenantServer: string; tenantDatabase: string }): Promise<void> {
    await this.clients.delete(this.servers.databaseUrl(location));
  }
}
