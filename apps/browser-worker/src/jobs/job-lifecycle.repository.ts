import { createHash } from 'node:crypto';
import { JobStatus, MainDb, type MainClient } from '@suite/db';
import type { JobStepDto } from '@suite/contracts';

/** What identifies "the same test" for replay: one owner, model, start URL and query. */
export interface ReplayKey {
  owner: string;
  model: string;
  initialUrl: string;
  query: string;
}

export interface StoredReplayScript {
  script: string;
  llmCalls: number;
  jobId: string;
}

function replayKey(key: ReplayKey): string {
  return createHash('sha256')
    .update(JSON.stringify([key.owner, key.model, key.initialUrl, key.query]))
    .digest('hex');
}

/** Every status change of a job, done with conditional updates so racing workers cannot clash. */
export class JobLifecycleRepository {
  constructor(private readonly db: MainClient) {}

  /**
   * Takes the job for this worker. A job still `running` can be taken again only when BullMQ hands
   * it out a second time (its previous worker died or failed on infrastructure).
   */
  async claim(jobId: string, workerId: string): Promise<MainDb.Job | null> {
    const { count } = await this.db.job.updateMany({
      where: { id: jobId, status: { in: [JobStatus.queued, JobStatus.running] } },
      data: {
        status: JobStatus.running,
        startedAt: new Date(),
        workerId,
        attempts: { increment: 1 },
        error: null,
      },
    });
    return count === 1 ? this.db.job.findUnique({ where: { id: jobId } }) : null;
  }

  find(jobId: string): Promise<MainDb.Job | null> {
    return this.db.job.findUnique({ where: { id: jobId } });
  }

  async finish(
    jobId: string,
    result: { status: 'succeeded' | 'failed'; summary: string; steps: JobStepDto[]; error?: string | null },
    artifacts: { logPath: string; videoPath: string | null },
  ): Promise<void> {
    await this.db.job.updateMany({
      where: { id: jobId, status: JobStatus.running },
      data: {
        status: result.status,
        summary: result.summary,
        steps: result.steps as unknown as MainDb.Prisma.InputJsonValue,
        error: result.error ?? null,
        finishedAt: new Date(),
        logPath: artifacts.logPath,
        videoPath: artifacts.videoPath,
      },
    });
  }

  /**
   * Stores what a run did (for script export) and how a replay went, while the job is still this
   * worker's; `finish` sets the status afterwards.
   */
  async recordRun(
    jobId: string,
    run: { actions: unknown[] | null; replay?: Record<string, unknown> },
  ): Promise<void> {
    await this.db.job.updateMany({
      where: { id: jobId, status: JobStatus.running },
      data: {
        actions: run.actions === null ? MainDb.Prisma.DbNull : (run.actions as MainDb.Prisma.InputJsonValue),
        ...(run.replay ? { replay: run.replay as MainDb.Prisma.InputJsonValue } : {}),
      },
    });
  }

  async findReplayScript(key: ReplayKey): Promise<StoredReplayScript | null> {
    return this.db.replayScript.findUnique({
      where: { key: replayKey(key) },
      select: { script: true, llmCalls: true, jobId: true },
    });
  }

  /** The latest passing run's script replaces the stored one (a healed run included). */
  async saveReplayScript(key: ReplayKey, script: StoredReplayScript): Promise<void> {
    const data = { ...key, ...script };
    await this.db.replayScript.upsert({
      where: { key: replayKey(key) },
      create: { key: replayKey(key), ...data },
      update: data,
    });
  }

  /** Ends a job that could not be run (retries used up, worker lost); returns whether it changed. */
  async failUnfinished(jobId: string, reason: string): Promise<boolean> {
    const { count } = await this.db.job.updateMany({
      where: { id: jobId, status: { in: [JobStatus.queued, JobStatus.running] } },
      data: {
        status: JobStatus.failed,
        error: reason,
        summary: `The job could not be completed: ${reason}`,
        finishedAt: new Date(),
      },
    });
    return count === 1;
  }

  /** Jobs `running` since before `startedBefore`: candidates for the stuck-job reaper. */
  staleRunning(startedBefore: Date): Promise<{ id: string }[]> {
    return this.db.job.findMany({
      where: { status: JobStatus.running, startedAt: { lt: startedBefore } },
      select: { id: true },
      take: 100,
    });
  }
}
