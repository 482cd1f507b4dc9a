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

/**
 * The only reader and writer of A2A push notification configs: the gateway manages them
 * (create, get, list, delete) and follows the tasks that have some; the push worker reads the
 * one a notification is for, at delivery time (a config deleted meanwhile is not sent to).
 */
export class PushConfigRepository {
  constructor(private readonly db: MainClient) {}

  /** Creates the task's config `id`, or replaces what a config of that id holds. */
  save(jobId: string, id: string, data: PushConfigData): Promise<PushConfig> {
    return this.db.pushNotificationConfig.upsert({
      where: { jobId_id: { jobId, id } },
      create: { id, jobId, ...data },
      update: data,
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
