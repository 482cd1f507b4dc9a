import type { MainClient } from '@suite/db';

/** How the project's active auth hook wants its events: awaited before the answer, and for how long. */
export interface HookSettings {
  blocking: boolean;
  timeoutMs: number;
}

/** The hook options of a project's active deployment (main database, `deployments`). */
export abstract class HookSettingsRepository {
  /** Null when the project has no active deployment or its deployment has no hook. */
  abstract activeHookSettings(projectId: string): Promise<HookSettings | null>;
}

export class PrismaHookSettingsRepository extends HookSettingsRepository {
  constructor(private readonly db: MainClient) {
    super();
  }

  async activeHookSettings(projectId: string): Promise<HookSettings | null> {
    const row = await this.db.deployment.findFirst({
      where: { projectId, status: 'active' },
      orderBy: { version: 'desc' },
      select: { hookBlocking: true, hookTimeoutMs: true },
    });
    return row && row.hookBlocking !== null
      ? { blocking: row.hookBlocking, timeoutMs: row.hookTimeoutMs ?? 10_000 }
      : null;
  }
}
