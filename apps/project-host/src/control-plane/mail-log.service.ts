import { Injectable } from '@nestjs/common';
import type { EmailsQueryDto } from '@suite/contracts';
import type { MainDb } from '@suite/db';
import { MailLogReader } from './mail-log.reader.js';
import { toPage } from './project-input.js';
import type { Page } from './project.view.js';
import { ProjectsService } from './projects.service.js';

/** One mail as the dashboard's Email page lists it (the body is not kept). */
export interface MailLogEntryView {
  id: string;
  kind: string;
  to: string;
  subject: string;
  status: MainDb.MailLog['status'];
  /** Why the last attempt failed; set while retrying and on `failed`. */
  error: string | null;
  messageId: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** The project's mail log, newest first, optionally only one status. */
@Injectable()
export class MailLogService {
  constructor(
    private readonly records: MailLogReader,
    private readonly projects: ProjectsService,
  ) {}

  async list(projectId: string, query: EmailsQueryDto): Promise<Page<MailLogEntryView>> {
    const project = await this.projects.require(projectId);
    const { page, pageSize } = toPage(query);
    const status = query.status;
    const { total, items: rows } = await this.records.page(
      project.id,
      status,
      (page - 1) * pageSize,
      pageSize,
    );
    return {
      items: rows.map(mailLogEntryView),
      page,
      pageSize,
      total,
    };
  }
}

/** A mail log row as the control plane shows it (the list and a mail's detail). */
export function mailLogEntryView(row: MainDb.MailLog): MailLogEntryView {
  return {
    id: row.id,
    kind: row.kind,
    to: row.to,
    subject: row.subject,
    status: row.status,
    error: row.error,
    messageId: row.messageId,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  };
}
