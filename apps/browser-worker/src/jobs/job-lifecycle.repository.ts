import { JobStatus, type MainClient, type MainDb } from '@suite/db';
import type { JobStepDto } from '@suite/contracts';

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
