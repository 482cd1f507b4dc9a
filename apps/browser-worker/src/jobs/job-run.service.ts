import { Inject, Injectable, Logger } from '@nestjs/common';
import { writeFile } from 'node:fs/promises';
import { JobStatus } from '@suite/contracts';
import {
  ARTIFACT_STORE,
  isSettledStatus,
  JobEventsPublisher,
  JobRepository,
  type ArtifactStore,
} from '@suite/jobs';
import { jobDuration, jobQueueWait, traceSteps } from '@suite/telemetry';
import { AGENT_RUNNER, InfrastructureError, type AgentRunner } from '../agent/agent-runner.js';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import { JobLogWriter } from './job-log.writer.js';
import { finishedRunOf } from './run-outcome.mapper.js';
import { StepProgressTracker } from './step-progress.js';

/** One hand-out of a job by the queue: which attempt of how many, to which worker. */
export interface JobAttempt {
  jobId: string;
  workerId: string;
  /** 1 for the first. */
  attempt: number;
  attempts: number;
}

export type JobRunOutcome = 'missing' | 'cancelled' | 'already-finished' | 'taken' | 'succeeded' | 'failed';

const formatLimit = (ms: number): string => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

/**
 * How a browser job runs once the queue hands it out: claimed in Postgres first (a cancelled or
 * settled job is skipped), the agent run under the job's time limit with its log and step progress
 * written as they happen, then the artifacts completed and the job finished. Test failures are
 * results; an infrastructure error is thrown back (for the queue to retry) unless it was the last
 * attempt.
 *
 * The job ends as soon as the capture has ended, not when the encoder has finished the video:
 * the video is linked at once (the API's video endpoint waits the moment it takes to complete),
 * and its link goes should the encoder fail after all.
 */
@Injectable()
export class JobRunService {
  private readonly logger = new Logger('browser-jobs');
  /** Videos of finished jobs that the encoder is still completing. */
  private readonly videosFinishing = new Set<Promise<void>>();

  constructor(
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: Pick<BrowserWorkerConfig, 'JOB_TIMEOUT_MS'>,
    private readonly jobs: JobRepository,
    private readonly events: JobEventsPublisher,
    @Inject(ARTIFACT_STORE) private readonly store: ArtifactStore,
    @Inject(AGENT_RUNNER) private readonly agent: AgentRunner,
  ) {}

  async run({ jobId, workerId, attempt, attempts }: JobAttempt): Promise<JobRunOutcome> {
    const current = await this.jobs.find(jobId);
    if (!current) return 'missing';
    if (current.status === JobStatus.Cancelled) {
      this.logger.log({ jobId }, 'skipping a cancelled job');
      return 'cancelled';
    }
    if (isSettledStatus(current.status)) return 'already-finished';
    // Claimed and published as `running` in one step.
    const job = await this.jobs.claim(jobId, workerId);
    if (!job) return 'taken';
    const claimedAt = Date.now();
    this.logger.log({ jobId, attempt }, 'job claimed');
    if (attempt === 1) jobQueueWait.observe((claimedAt - job.createdAt.getTime()) / 1000);
    const finished = (status: 'succeeded' | 'failed') => {
      jobDuration.observe({ status }, (Date.now() - claimedAt) / 1000);
      this.logger.log({ jobId, status, durationMs: Date.now() - claimedAt }, 'job finished');
    };

    const { store } = this;
    const progress = new StepProgressTracker();
    const log = new JobLogWriter(jobId, store, this.events, async (entry) => {
      const step = progress.observe(entry);
      if (step) await this.jobs.recordStep(jobId, step);
    });
    if (attempt > 1)
      await log.write({ level: 'warn', outcome: 'info', message: `attempt ${attempt} of ${attempts}` });

    const timeout = new AbortController();
    const timer = setTimeout(
      () =>
        timeout.abort(
          new Error(`the job's time limit of ${formatLimit(this.config.JOB_TIMEOUT_MS)} was reached`),
        ),
      this.config.JOB_TIMEOUT_MS,
    );
    const logPath = await store.localPath(jobId, 'log');
    const videoPath = await store.localPath(jobId, 'video');
    const steps = traceSteps();
    const write = (entry: Record<string, unknown>): Promise<void> => {
      steps.observe(entry);
      return log.write(entry);
    };
    try {
      const result = await this.agent.run({ job, log: write, videoPath, signal: timeout.signal });
      // The browser context has closed; the encoder may still be finishing the video.
      const video = result.videoWritten;
      await log.flush();
      const screenshotPath = result.screenshot ? await store.localPath(jobId, 'screenshot') : null;
      if (screenshotPath) await writeFile(screenshotPath, result.screenshot as Buffer);
      // Before the job is marked finished: its links (and its metrics) must be there as soon as
      // clients see it; the video follows.
      const videoPending = typeof video !== 'boolean';
      await store.complete(jobId, { pending: videoPending ? ['video'] : [] });
      const run = finishedRunOf(result.outcome, result.steps);
      const verdict = run.status === 'succeeded' ? 'succeeded' : 'failed';
      finished(verdict);
      await this.jobs.finish(jobId, run, {
        logPath,
        videoPath: video === false ? null : videoPath,
        screenshotPath,
      });
      if (typeof video !== 'boolean') this.completeVideo(jobId, video);
      return verdict;
    } catch (error) {
      const message = (error as Error).message;
      if (error instanceof InfrastructureError && attempt < attempts) {
        await log.write({
          level: 'warn',
          outcome: 'info',
          message: `infrastructure error, will retry: ${message}`,
        });
        await log.flush();
        throw error;
      }
      await log.write({
        level: 'error',
        outcome: 'failed',
        message: `the job could not run: ${message}`,
      });
      await log.flush();
      await store.complete(jobId);
      finished('failed');
      const run = finishedRunOf(
        { kind: 'error', summary: `The job could not run: ${message}`, error: message },
        [],
      );
      await this.jobs.finish(jobId, run, { logPath, videoPath: null });
      return 'failed';
    } finally {
      steps.end();
      clearTimeout(timer);
    }
  }

  /** Resolves once every finished job's video is complete or unlinked (before the worker exits). */
  async videosSettled(): Promise<void> {
    while (this.videosFinishing.size > 0) await Promise.allSettled([...this.videosFinishing]);
  }

  /** The encoder finishes a finished job's video: stored when complete, unlinked when it failed. */
  private completeVideo(jobId: string, written: Promise<boolean>): void {
    const done = (async () => {
      const complete = await written.catch(() => false);
      if (!complete) this.logger.warn({ jobId }, 'the video could not be completed; its link is removed');
      // Also without a file: object storage then cleans up what the job left staged.
      const stored = await this.store.completePending(jobId, 'video').then(
        () => true,
        (error: Error) => {
          this.logger.warn({ jobId, error: error.message }, 'the video could not be stored');
          return false;
        },
      );
      if (!complete || !stored) await this.jobs.dropVideo(jobId).catch(() => undefined);
    })();
    this.videosFinishing.add(done);
    void done.finally(() => this.videosFinishing.delete(done));
  }

  /** Retries used up or the worker lost: the job ends `failed` with the reason, never stuck. */
  async giveUp(jobId: string, reason: string): Promise<boolean> {
    const failed = await this.jobs.failUnfinished(jobId, reason).catch(() => false);
    if (failed) this.logger.warn({ jobId }, reason);
    return failed;
  }
}
