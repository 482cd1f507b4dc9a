import { Injectable, Logger } from '@nestjs/common';
import { databaseUrl, dropTenantDatabase, provisionTenantDatabase, tenantDatabaseName } from '@suite/db';
import { PlatformResources } from '../platform/platform-resources.js';

/** Creates and drops a project's tenant database (schema platform_auth) beside the main one. */
@Injectable()
export class TenantDatabases {
  private readonly logger = new Logger('tenant-databases');

  constructor(private readonly resources: PlatformResources) {}

  nameOf(projectId: string): string {
    return tenantDatabaseName(projectId);
  }

  async provision(projectId: string): Promise<void> {
    await provisionTenantDatabase({
      adminUrl: this.resources.tenantAdminUrl,
      projectId,
      logger: this.logger,
    });
  }

  /** Closes this process's connections to it first; other sessions are ended by the drop itself. */
  async drop(projectId: string): Promise<void> {
    await this.resources.tenants.delete(databaseUrl(this.resources.tenantAdminUrl, this.nameOf(projectId)));
    await dropTenantDatabase({ adminUrl: this.resources.tenantAdminUrl, projectId, logger: this.logger });
  }
}
