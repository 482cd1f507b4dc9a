import type { MainClient, MainDb } from '@suite/db';

/** A project's SMTP settings as the delivery worker reads them (the control plane writes them). */
export class SmtpSettingsReader {
  constructor(private readonly db: MainClient) {}

  find(projectId: string): Promise<MainDb.SmtpSettings | null> {
    return this.db.smtpSettings.findUnique({ where: { projectId } });
  }
}
