import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ARTIFACT_STORE, JobQueue, JobRepository, type ArtifactStore } from '@suite/jobs';
import type { TraceCarrier } from '@suite/telemetry';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import { RedisLock } from './redis-lock.js';

/**
 * Periodic repairs that keep Postgres (the truth) and Redis (the work) in agreement, run by one
 * worker at a time (a Redis lock):
 * - a job `running` far past the time limit whose queue entry is no longer active ends `failed`;
 * - jobs the fair queue handed out that BullMQ no longer runs free their owner's slot (a process
 *   died between the two), and the fair queue hands out what may start;
 * - a `queued` job whose queue entry is gone (Redis lost it) is enqueued again;
 * - artifacts of jobs older than the retention are deleted.
 */
@Injectable()
export class JobReaper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('job-reaper');
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
    private readonly jobs: JobRepository,
    private readonly queue: JobQueue,
    @Inject(ARTIFACT_STORE) private readonly store: ArtifactStore,
    private readonly lock: RedisLock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.REAPER_INTERVAL_MS === 0) return;
    this.timer = setInterval(
      () => void this.sweep().catch((error: Error) => this.logger.warn({ err: error }, 'sweep failed')),
      this.config.REAPER_INTERVAL_MS,
    );
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async sweep(): Promise<{ failed: number; requeued: number; expired: number }> {
    const got = await this.lock.tryTake(
      'job-reaper',
      Math.max(5_000, this.config.REAPER_INTERVAL_MS - 1_000),
    );
    if (!got) return { failed: 0, requeued: 0, expired: 0 };
    const released = await this.queue.repair();
    if (released) this.logger.warn({ released }, 'released fair-queue slots of jobs BullMQ no longer had');
    return {
      failed: await this.failLost(),
      requeued: await this.requeueLost(),
      expired: await this.expireArtifacts(),
    };
  }

  private async failLost(): Promise<number> {
    const grace = this.config.JOB_TIMEOUT_MS + 2 * this.config.STALLED_INTERVAL_MS;
    let failed = 0;
    for (const { id } of await this.jobs.staleRunning(new Date(Date.now() - grace))) {
      const state = await this.queue.state(id);
      if (state === 'active' || state === 'waiting' || state === 'delayed' || state === 'prioritized')
        continue;
      if (
        await this.jobs.failUnfinished(
          id,
          'the worker running it was lost and the job did not finish in time',
        )
      ) {
        failed++;
        this.logger.warn({ jobId: id }, 'failed a job whose worker was lost');
      }
    }
    return failed;
  }

  private async requeueLost(): Promise<number> {
    const queued = await this.jobs.staleQueued(new Date(Date.now() - 60_000));
    let requeued = 0;
    for (const job of queued) {
      if ((await this.queue.state(job.id)) !== 'unknown') continue;
      await this.queue.enqueue(
        { id: job.id, owner: job.owner },
        (job.traceContext as TraceCarrier | null) ?? {},
        { admitOverLimit: true },
      );
      requeued++;
      this.logger.warn({ jobId: job.id }, 're-enqueued a queued job that Redis had lost');
    }
    return requeued;
  }

  private async expireArtifacts(): Promise<number> {
    const cutoff = new Date(Date.now() - this.config.ARTIFACT_RETENTION_DAYS * 86_400_000);
    const old = await this.jobs.withExpiredArtifacts(cutoff);
    for (const { id } of old) {
      await this.store.remove(id);
      await this.jobs.clearArtifacts(id);
    }
    return old.length;
  }
}
