import { hotStatement, isUuid, JobStatus, MainDb, sqlPool, type MainClient } from '@suite/db';
import { A2aConversationRepository } from './a2a-conversation.repository.js';
import { jobTransitions, type JobTransition } from './job-transitions.js';
import type { JobEventsPublisher, JobStepProgress } from './job-events.js';
import { toSnapshot } from './job-events.js';
import { insertJob, type NewJob, type NewTaskParts } from './job-insert.repository.js';
import {
  type CreatedJob,
  type FinishedRun,
  type JobFilter,
  type JobPage,
  JobRepository,
  type RunArtifacts,
  type RunRecord,
} from './job.repository.js';

const json = (value: unknown) => value as MainDb.Prisma.InputJsonValue;

/** A step's entry in `job_events`, numbered after the job's last one. */
const INSERT_STEP_EVENT = {
  name: 'insert-job-step-event-v1',
  text: `
    INSERT INTO job_events (job_id, seq, kind, data)
    SELECT $1::uuid, COALESCE(MAX(seq), 0) + 1, 'step', $2::jsonb FROM job_events WHERE job_id = $1::uuid`,
};

/** The job repository on Postgres (Prisma), publishing over Redis. */
export class PrismaJobRepository extends JobRepository {
  /** A new task's context, undone with its job, is written through the a2a tables' one writer. */
  private readonly conversations: A2aConversationRepository;

  constructor(
    private readonly db: MainClient,
    private readonly events: JobEventsPublisher,
  ) {
    super();
    this.conversations = new A2aConversationRepository(db);
  }

  create(job: NewJob, task?: NewTaskParts): Promise<CreatedJob> {
    return insertJob(this.db, job, task);
  }

  async discard(job: MainDb.Job, options: { context: boolean }): Promise<void> {
    await this.db.job.delete({ where: { id: job.id } }).catch(() => undefined);
    if (options.context && job.contextId) {
      await this.conversations.deleteContext(job.contextId).catch(() => undefined);
    }
  }

  find(id: string): Promise<MainDb.Job | null> {
    return isUuid(id) ? this.db.job.findUnique({ where: { id } }) : Promise.resolve(null);
  }

  findOwned(owner: string, id: string): Promise<MainDb.Job | null> {
    return isUuid(id) ? this.db.job.findFirst({ where: { id, owner } }) : Promise.resolve(null);
  }

  list(page: JobPage): Promise<MainDb.Job[]> {
    const where = whereOf(page);
    const after = page.after;
    return this.db.job.findMany({
      where: after
        ? {
            AND: [
              where,
              {
                OR: [
                  { createdAt: { lt: after.createdAt } },
                  { createdAt: after.createdAt, id: { lt: after.id } },
                ],
              },
            ],
          }
        : where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: page.limit,
    });
  }

  count(filter: JobFilter): Promise<number> {
    return this.db.job.count({ where: whereOf(filter) });
  }

  claim(jobId: string, workerId: string): Promise<MainDb.Job | null> {
    return this.apply(jobId, {}, jobTransitions.claim(workerId), { attempts: { increment: 1 } });
  }

  async recordStep(jobId: string, step: JobStepProgress): Promise<void> {
    await sqlPool(this.db).query(
      hotStatement({ ...INSERT_STEP_EVENT, values: [jobId, JSON.stringify(step)] }),
    );
    await this.events
      .publish({ type: 'step', jobId, ...step, at: new Date().toISOString() })
      .catch(() => undefined);
  }

  async recordRun(jobId: string, run: RunRecord): Promise<void> {
    await this.db.job.updateMany({
      where: { id: jobId, status: JobStatus.running },
      data: {
        actions: run.actions === null ? MainDb.Prisma.DbNull : json(run.actions),
        ...(run.replay ? { replay: json(run.replay) } : {}),
      },
    });
  }

  finish(jobId: string, run: FinishedRun, artifacts: RunArtifacts): Promise<MainDb.Job | null> {
    return this.apply(jobId, {}, jobTransitions.finish(run, artifacts));
  }

  async failUnfinished(jobId: string, reason: string): Promise<boolean> {
    return (await this.apply(jobId, {}, jobTransitions.failUnfinished(reason))) !== null;
  }

  cancel(owner: string, jobId: string): Promise<MainDb.Job | null> {
    return this.apply(jobId, { owner }, jobTransitions.cancel());
  }

  resubmit(owner: string, jobId: string, query: string): Promise<MainDb.Job | null> {
    return this.apply(jobId, { owner }, jobTransitions.resubmit(query));
  }

  staleRunning(startedBefore: Date): Promise<{ id: string }[]> {
    return this.db.job.findMany({
      where: { status: JobStatus.running, startedAt: { lt: startedBefore } },
      select: { id: true },
      take: 100,
    });
  }

  staleQueued(createdBefore: Date): Promise<{ id: string; owner: string; traceContext: unknown }[]> {
    return this.db.job.findMany({
      where: { status: JobStatus.queued, createdAt: { lt: createdBefore } },
      select: { id: true, owner: true, traceContext: true },
      take: 500,
    });
  }

  withExpiredArtifacts(finishedBefore: Date): Promise<{ id: string }[]> {
    return this.db.job.findMany({
      where: {
        finishedAt: { lt: finishedBefore },
        OR: [{ logPath: { not: null } }, { videoPath: { not: null } }, { screenshotPath: { not: null } }],
      },
      select: { id: true },
      take: 500,
    });
  }

  async dropVideo(jobId: string): Promise<void> {
    await this.db.job.updateMany({ where: { id: jobId }, data: { videoPath: null } });
  }

  async clearArtifacts(jobId: string): Promise<void> {
    await this.db.job.updateMany({
      where: { id: jobId },
      data: { logPath: null, videoPath: null, screenshotPath: null },
    });
  }

  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db.job.groupBy({ by: ['status'], _count: { _all: true } });
    return Object.fromEntries(rows.map((row) => [row.status, row._count._all]));
  }

  /** One conditional update that answers with the row; the change is published as it was written. */
  private async apply(
    jobId: string,
    scope: { owner?: string },
    transition: JobTransition,
    extra: MainDb.Prisma.JobUpdateInput = {},
  ): Promise<MainDb.Job | null> {
    const { steps, ...change } = transition.change;
    const where = { id: jobId, ...scope, status: { in: [...transition.from] } };
    const data = { ...change, ...(steps ? { steps: json(steps) } : {}), ...extra };
    let job: MainDb.Job;
    try {
      job = await this.db.job.update({ where, data });
    } catch (error) {
      if (error instanceof MainDb.Prisma.PrismaClientKnownRequestError && error.code === 'P2025') return null;
      throw error;
    }
    // Best effort: watchers that miss it read the job again when they (re)connect.
    await this.events
      .publish({
        type: 'status',
        jobId: job.id,
        status: job.status,
        summary: job.summary,
        job: toSnapshot(job),
        at: new Date().toISOString(),
      })
      .catch(() => undefined);
    return job;
  }
}

/** Query or title containing the text; Prisma builds a LIKE, so its own characters are escaped. */
function searchOf(text: string): MainDb.Prisma.JobWhereInput[] {
  const literal = text.replace(/[\\%_]/g, '\\$&');
  return [
    { query: { contains: literal, mode: 'insensitive' } },
    { metadata: { path: ['title'], string_contains: literal, mode: 'insensitive' } },
  ];
}

function whereOf(filter: JobFilter): MainDb.Prisma.JobWhereInput {
  return {
    owner: filter.owner,
    ...(filter.contextId !== undefined ? { contextId: filter.contextId } : {}),
    ...(filter.statuses ? { status: { in: filter.statuses } } : {}),
    ...(filter.updatedAfter ? { updatedAt: { gt: filter.updatedAfter } } : {}),
    ...(filter.search ? { OR: searchOf(filter.search) } : {}),
  };
}
