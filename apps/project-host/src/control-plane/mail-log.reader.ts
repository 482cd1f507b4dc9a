import { Injectable } from '@nestjs/common';
import type { MainDb } from '@suite/db';
import { PlatformResources } from '../platform/platform-resources.js';

/** The mail log the dashboard's Email page reads (main database; apps/project-worker writes it). */
export abstract class MailLogReader {
  /** Newest first, optionally of one status. */
  abstract page(
    projectId: string,
    status: MainDb.MailLog['status'] | undefined,
    skip: number,
    take: number,
  ): Promise<{ total: number; items: MainDb.MailLog[] }>;
}

@Injectable()
export class PrismaMailLogReader extends MailLogReader {
  constructor(private readonly resources: PlatformResources) {
    super();
  }

  async page(
    projectId: string,
    status: MainDb.MailLog['status'] | undefined,
    skip: number,
    take: number,
  ): Promise<{ total: number; items: MainDb.MailLog[] }> {
    const where = { projectId, ...(status ? { status } : {}) };
    const [total, items] = await Promise.all([
      this.resources.db.mailLog.count({ where }),
      this.resources.db.mailLog.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        skip,
        take,
      }),
    ]);
    return { total, items };
  }
}
