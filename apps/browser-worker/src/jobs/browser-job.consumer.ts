import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JobQueue } from '@suite/jobs';
import { consumeQueue, QueueName, type QueueConsumer, type TypedJob } from '@suite/queue';
import { extractTraceContext, withSpan } from '@suite/telemetry';
import { hostname } from 'node:os';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import { JobRunService } from './job-run.service.js';

const attemptOf = (job: { attemptsMade: number }): number => job.attemptsMade + 1;

/**
 * Consumes browser jobs: BullMQ hands each out (JobRunService runs it) and retries what it threw
 * back, a bounded number of times; a job whose retries are used up, or whose worker was lost
 * twice, ends `failed`.
 */
@Injectable()
export class BrowserJobConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('browser-jobs');
  private readonly workerId: string;
  private consumer?: QueueConsumer<typeof QueueName.BrowserJobs>;

  constructor(
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
    private readonly runs: JobRunService,
    private readonly queue: JobQueue,
  ) {
    this.workerId = config.WORKER_ID ?? `${hostname()}:${process.pid}`;
  }

  onApplicationBootstrap(): void {
    this.consumer = consumeQueue(
      QueueName.BrowserJobs,
      { run: (job) => this.process(job) },
      {
        redisUrl: this.config.REDIS_URL,
        connectionName: 'browser-worker',
        concurrency: this.config.WORKER_CONCURRENCY,
        // A killed worker's job is noticed within stalledInterval and handed out once more, then failed.
        stalledInterval: this.config.STALLED_INTERVAL_MS,
        maxStalledCount: 1,
        lockDuration: this.config.STALLED_INTERVAL_MS,
        name: this.workerId,
        onError: (error) => this.logger.error({ err: error }, 'queue worker error'),
      },
    );
    this.consumer.worker.on('failed', (job, error) => void this.onFailed(job, error));
    // An ended entry frees its owner's running slot and lets the fair queue hand out the next job.
    this.consumer.worker.on('completed', (job) => void this.settle(job.data.jobId));
    this.logger.log(
      `consuming ${QueueName.BrowserJobs} as ${this.workerId} (concurrency ${this.config.WORKER_CONCURRENCY})`,
    );
  }

  /** SIGTERM: stop taking work and let running jobs finish (Kubernetes' grace period covers a job). */
  async onApplicationShutdown(): Promise<void> {
    if (!this.consumer) return;
    this.logger.log('stopping: finishing running jobs, taking no new ones');
    await this.consumer.close();
    await this.runs.videosSettled();
  }

  private async process(bullJob: TypedJob<typeof QueueName.BrowserJobs>): Promise<string> {
    const { jobId, trace } = bullJob.data;
    // Taken: the fair queue hands out the next job (a sweep repairs a count this call missed).
    await this.queue
      .started(jobId)
      .catch((error: Error) => this.logger.warn({ err: error, jobId }, 'fair queue'));
    return withSpan(
      'browser-job.process',
      async (span) => {
        span.setAttribute('job.id', jobId);
        const outcome = await this.runs.run({
          jobId,
          workerId: this.workerId,
          attempt: attemptOf(bullJob),
          attempts: bullJob.opts.attempts ?? 1,
        });
        if (outcome === 'succeeded' || outcome === 'failed') span.setAttribute('job.verdict', outcome);
        return outcome;
      },
      { parent: extractTraceContext(trace), attributes: { 'worker.id': this.workerId } },
    );
  }

  private async settle(jobId: string): Promise<void> {
    await this.queue
      .settled(jobId)
      .catch((error: Error) => this.logger.warn({ err: error, jobId }, 'fair queue'));
  }

  /** Retries used up or the job stalled too often: it ends `failed` with the reason, never stuck. */
  private async onFailed(
    job: TypedJob<typeof QueueName.BrowserJobs> | undefined,
    error: Error,
  ): Promise<void> {
    if (!job) return;
    void this.settle(job.data.jobId);
    const exhausted = job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled/i.test(error.message);
    if (!exhausted) return;
    const reason = /stalled/i.test(error.message)
      ? 'the worker running it stopped (it was retried once and stopped again)'
      : `infrastructure error after ${job.attemptsMade} attempts: ${error.message}`;
    await this.runs.giveUp(job.data.jobId, reason);
  }
}
