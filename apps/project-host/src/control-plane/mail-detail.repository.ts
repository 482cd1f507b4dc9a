import { Injectable } from '@nestjs/common';
import type { MainDb } from '@suite/db';
import { PlatformResources } from '../platform/platform-resources.js';

/** One mail of a project's mail log (main database). */
export abstract class MailDetailRepository {
  /** The mail when it belongs to the project, else null (another project's mail is not found). */
  abstract find(projectId: string, id: string): Promise<MainDb.MailLog | null>;
}

@Injectable()
export class PrismaMailDetailRepository extends MailDetailRepository {
  constructor(private readonly resources: PlatformResources) {
    super();
  }

  find(projectId: string, id: string): Promise<MainDb.MailLog | null> {
    return this.resources.db.mailLog.findFirst({ where: { id, projectId } });
  }
}
