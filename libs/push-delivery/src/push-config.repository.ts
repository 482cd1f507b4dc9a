import type { MainClient, MainDb } from '@suite/db';

/** A task's push notification config as stored (a row of push_notification_configs). */
export type PushConfig = MainDb.PushNotificationConfig;

/** What a client sets on a config; the rest (ids, timestamps) is the repository's. */
export interface PushConfigData {
  owner: string;
  url: string;
  token: string | null;
  authScheme: string | null;
  authCredentials: string | null;
}

/** How many configs a task may hold, and an owner's open tasks and last hour's together. */
export interface PushConfigLimits {
  perTask: number;
  perOwner: number;
}

/** Why a config was not stored: the task or the owner holds as many as allowed. */
export class PushConfigLimitError extends Error {
  constructor(
    readonly scope: 'task' | 'owner',
    readonly limit: number,
  ) {
    super(`push notification config limit reached (${scope}: ${limit})`);
  }
}

/**
 * The only reader and writer of A2A push notification configs: the gateway manages them
 * (create, get, list, delete) and follows the tasks that have some; the push worker reads the
 * one a notification is for, at delivery time (a config deleted meanwhile is not sent to).
 */
export class PushConfigRepository {
  constructor(private readonly db: MainClient) {}

  /**
   * Creates the task's config `id`, or replaces what a config of that id holds (always allowed).
   * A new one must fit the limits: the owner's configs are counted and inserted under a
   * transaction-scoped advisory lock of the owner, so parallel creates cannot pass a limit together.
   */
  save(jobId: string, id: string, data: PushConfigData, limits: PushConfigLimits): Promise<PushConfig> {
    return this.db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`push-configs:${data.owner}`}, 0))`;
      const existing = await tx.pushNotificationConfig.findUnique({ where: { jobId_id: { jobId, id } } });
      if (existing) return tx.pushNotificationConfig.update({ where: { jobId_id: { jobId, id } }, data });
      if ((await tx.pushNotificationConfig.count({ where: { jobId } })) >= limits.perTask)
        throw new PushConfigLimitError('task', limits.perTask);
      // Configs of open tasks, and any made in the last hour (on ended tasks they post at once).
      const open = await tx.pushNotificationConfig.count({
        where: {
          owner: data.owner,
          OR: [{ job: { finishedAt: null } }, { createdAt: { gte: new Date(Date.now() - 3600_000) } }],
        },
      });
      if (open >= limits.perOwner) throw new PushConfigLimitError('owner', limits.perOwner);
      return tx.pushNotificationConfig.create({ data: { id, jobId, ...data } });
    });
  }

  find(jobId: string, id: string): Promise<PushConfig | null> {
    return this.db.pushNotificationConfig.findUnique({ where: { jobId_id: { jobId, id } } });
  }

  /** A page of the task's configs, oldest first. */
  page(jobId: string, skip: number, take: number): Promise<PushConfig[]> {
    return this.db.pushNotificationConfig.findMany({
      where: { jobId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip,
      take,
    });
  }

  /** Every config of the task (each gets a notification of a status change). */
  ofTask(jobId: string): Promise<PushConfig[]> {
    return this.db.pushNotificationConfig.findMany({ where: { jobId } });
  }

  /** Whether the task had a config `id` (deleted now). */
  async delete(jobId: string, id: string): Promise<boolean> {
    const { count } = await this.db.pushNotificationConfig.deleteMany({ where: { jobId, id } });
    return count > 0;
  }

  /** Tasks with configs that are open, or that ended since `since` (their final notice may be unsent). */
  async tasksToFollow(since: Date): Promise<string[]> {
    const rows = await this.db.pushNotificationConfig.findMany({
      where: { job: { OR: [{ finishedAt: null }, { finishedAt: { gte: since } }] } },
      select: { jobId: true },
    });
    return [...new Set(rows.map((row) => row.jobId))];
  }
}
