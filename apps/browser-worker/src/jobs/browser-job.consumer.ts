import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JobStatus } from '@suite/contracts';
import {
  ARTIFACT_STORE,
  INSTRUCTIONS_NOT_UNDERSTOOD,
  isSettledStatus,
  JobEventsPublisher,
  JobRepository,
  type ArtifactStore,
} from '@suite/jobs';
import { createWorker, QueueName, type TypedJob, type TypedWorker } from '@suite/queue';
import { extractTraceContext, jobDuration, jobQueueWait, traceSteps, withSpan } from '@suite/telemetry';
import type { Redis } from 'ioredis';
import { hostname } from 'node:os';
import { AGENT_RUNNER, InfrastructureError, type AgentRunner } from '../agent/agent-runner.js';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import { JobLogWriter } from './job-log.writer.js';
import { StepProgressTracker } from './step-progress.js';
import { CONSUMER_CONNECTION } from './worker-connections.js';

const attemptOf = (job: { attemptsMade: number }): number => job.attemptsMade + 1;

const formatLimit = (ms: number): string => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

/**
 * Consumes browser jobs. Postgres is the truth: a job is claimed there before it runs, and a
 * cancelled or finished job that BullMQ still hands out is skipped. Test failures are results;
 * only infrastructure errors are thrown back to BullMQ, which retries them a bounded number of times.
 */
@Injectable()
export class BrowserJobConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('browser-jobs');
  private readonly workerId: string;
  private worker?: TypedWorker<typeof QueueName.BrowserJobs>;

  constructor(
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
    private readonly jobs: JobRepository,
    private readonly events: JobEventsPublisher,
    @Inject(ARTIFACT_STORE) private readonly store: ArtifactStore,
    @Inject(CONSUMER_CONNECTION) private readonly connection: Redis,
    @Inject(AGENT_RUNNER) private readonly agent: AgentRunner,
  ) {
    this.workerId = config.WORKER_ID ?? `${hostname()}:${process.pid}`;
  }

  onApplicationBootstrap(): void {
    this.worker = createWorker(QueueName.BrowserJobs, { run: (job) => this.process(job) }, this.connection, {
      concurrency: this.config.WORKER_CONCURRENCY,
      // A killed worker's job is noticed within stalledInterval and handed out once more, then failed.
      stalledInterval: this.config.STALLED_INTERVAL_MS,
      maxStalledCount: 1,
      lockDuration: this.config.STALLED_INTERVAL_MS,
      name: this.workerId,
    });
    this.worker.on('failed', (job, error) => void this.onFailed(job, error));
    this.worker.on('error', (error) => this.logger.error({ err: error }, 'queue worker error'));
    this.logger.log(
      `consuming ${QueueName.BrowserJobs} as ${this.workerId} (concurrency ${this.config.WORKER_CONCURRENCY})`,
    );
  }

  /** SIGTERM: stop taking work and let running jobs finish (Kubernetes' grace period covers a job). */
  async onApplicationShutdown(): Promise<void> {
    if (!this.worker) return;
    this.logger.log('stopping: finishing running jobs, taking no new ones');
    await this.worker.close();
  }

  private async process(bullJob: TypedJob<typeof QueueName.BrowserJobs>): Promise<string> {
    const { jobId, trace } = bullJob.data;
    return withSpan(
      'browser-job.process',
      async (span) => {
        span.setAttribute('job.id', jobId);
        const current = await this.jobs.find(jobId);
        if (!current) return 'missing';
        if (current.status === JobStatus.Cancelled) {
          this.logger.log({ jobId }, 'skipping a cancelled job');
          return 'cancelled';
        }
        if (isSettledStatus(current.status)) return 'already-finished';
        // Claimed and published as `running` in one step.
        const job = await this.jobs.claim(jobId, this.workerId);
        if (!job) return 'taken';
        const claimedAt = Date.now();
        this.logger.log({ jobId, attempt: attemptOf(bullJob) }, 'job claimed');
        if (attemptOf(bullJob) === 1) jobQueueWait.observe((claimedAt - job.createdAt.getTime()) / 1000);
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
        const attempt = attemptOf(bullJob);
        const attempts = bullJob.opts.attempts ?? 1;
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
          await log.flush();
          // Before the job is marked finished: its links (and its metrics) must be there as soon as
          // clients see it.
          await store.complete(jobId);
          finished(result.verdict);
          // Instructions that were not understood ran nothing: the job waits for new ones.
          const needsInput = result.verdict === 'failed' && result.error === INSTRUCTIONS_NOT_UNDERSTOOD;
          await this.jobs.finish(
            jobId,
            {
              status: needsInput ? 'needs_input' : result.verdict,
              summary: result.summary,
              steps: result.steps,
              error: result.error ?? null,
            },
            { logPath, videoPath: result.videoWritten ? videoPath : null },
          );
          span.setAttribute('job.verdict', result.verdict);
          return result.verdict;
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
          await this.jobs.finish(
            jobId,
            { status: 'failed', summary: `The job could not run: ${message}`, steps: [], error: message },
            { logPath, videoPath: null },
          );
          return 'failed';
        } finally {
          steps.end();
          clearTimeout(timer);
        }
      },
      { parent: extractTraceContext(trace), attributes: { 'worker.id': this.workerId } },
    );
  }

  /** Retries used up or the job stalled too often: it ends `failed` with the reason, never stuck. */
  private async onFailed(
    job: TypedJob<typeof QueueName.BrowserJobs> | undefined,
    error: Error,
  ): Promise<void> {
    if (!job) return;
    const exhausted = job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled/i.test(error.message);
    if (!exhausted) return;
    const reason = /stalled/i.test(error.message)
      ? 'the worker running it stopped (it was retried once and stopped again)'
      : `infrastructure error after ${job.attemptsMade} attempts: ${error.message}`;
    if (await this.jobs.failUnfinished(job.data.jobId, reason).catch(() => false)) {
      this.logger.warn({ jobId: job.data.jobId }, reason);
    }
  }
}
