import type { MainClient, MainDb } from '@suite/db';

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

export class PrismaMailLogReader extends MailLogReader {
  constructor(private readonly db: MainClient) {
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
      this.db.mailLog.count({ where }),
      this.db.mailLog.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        skip,
        take,
      }),
    ]);
    return { total, items };
  }
}
