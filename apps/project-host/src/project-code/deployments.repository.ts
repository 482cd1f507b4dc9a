import type { MainClient, MainDb } from '@suite/db';
import type { DeployedHook, DeploymentContent } from '@suite/project-runtime';

export type DeploymentRecord = Pick<MainDb.Deployment, 'id' | 'version' | 'status' | 'createdAt'>;

/** Projects' deployments (main database, `deployments`). */
export abstract class DeploymentsRepository {
  abstract projectExists(projectId: string): Promise<boolean>;
  /**
   * Stores `content` as the project's next version and makes it the active one (the previous active
   * deployment is superseded), one deploy of a project at a time.
   */
  abstract activate(
    projectId: string,
    content: DeploymentContent,
    hook: Pick<DeployedHook, 'blocking' | 'timeoutMs'> | null,
  ): Promise<DeploymentRecord>;
}

export class PrismaDeploymentsRepository extends DeploymentsRepository {
  constructor(private readonly db: MainClient) {
    super();
  }

  async projectExists(projectId: string): Promise<boolean> {
    return (await this.db.project.findUnique({ where: { id: projectId }, select: { id: true } })) !== null;
  }

  activate(
    projectId: string,
    content: DeploymentContent,
    hook: Pick<DeployedHook, 'blocking' | 'timeoutMs'> | null,
  ): Promise<DeploymentRecord> {
    return this.db.$transaction(async (tx) => {
      // One deploy at a time per project: the row lock orders concurrent deploys.
      await tx.$queryRaw`SELECT id FROM projects WHERE id = ${projectId}::uuid FOR UPDATE`;
      const last = await tx.deployment.findFirst({ where: { projectId }, orderBy: { version: 'desc' } });
      await tx.deployment.updateMany({
        where: { projectId, status: 'active' },
        data: { status: 'superseded' },
      });
      return tx.deployment.create({
        data: {
          projectId,
          version: (last?.version ?? 0) + 1,
          status: 'active',
          files: content as object,
          hookBlocking: hook?.blocking ?? null,
          hookTimeoutMs: hook?.timeoutMs ?? null,
        },
      });
    });
  }
}
