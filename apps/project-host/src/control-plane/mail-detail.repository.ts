import type { MainClient, MainDb } from '@suite/db';

/** One mail of a project's mail log (main database). */
export abstract class MailDetailRepository {
  /** The mail when it belongs to the project, else null (another project's mail is not found). */
  abstract find(projectId: string, id: string): Promise<MainDb.MailLog | null>;
}

export class PrismaMailDetailRepository extends MailDetailRepository {
  constructor(private readonly db: MainClient) {
    super();
  }

  find(projectId: string, id: string): Promise<MainDb.MailLog | null> {
    return this.db.mailLog.findFirst({ where: { id, projectId } });
  }
}
