import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { consumeQueue, QueueName, type QueueConsumer, type TypedJob } from '@suite/queue';
import { ScheduledRunService } from '@suite/suites';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';

/**
 * Consumes the ticks of suites' BullMQ job schedulers (`suite-schedules`): each tick starts a
 * scheduled run unless the suite's previous one is still going, and follows it to its webhook
 * notification. Concurrency is the number of runs followed at once, not browsers.
 */
@Injectable()
export class SuiteScheduleConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('suite-schedules');
  private consumer?: QueueConsumer<typeof QueueName.SuiteSchedules>;
  private stopping = false;

  constructor(
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
    private readonly runs: ScheduledRunService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.SUITE_SCHEDULE_CONCURRENCY === 0) return;
    this.consumer = consumeQueue(
      QueueName.SuiteSchedules,
      { run: (job) => this.tick(job) },
      {
        redisUrl: this.config.REDIS_URL,
        connectionName: 'browser-worker:suites',
        concurrency: this.config.SUITE_SCHEDULE_CONCURRENCY,
        onError: (error) => this.logger.error({ err: error }, 'suite schedule worker error'),
      },
    );
  }

  async tick(job: TypedJob<typeof QueueName.SuiteSchedules>): Promise<string> {
    const result = await this.runs.tick(job.data.suiteId, () => this.stopping);
    if (result.outcome === 'skipped') {
      this.logger.log(`suite ${job.data.suiteId}: tick skipped, run ${result.runningRunId} is still going`);
    }
    return result.outcome;
  }

  async onApplicationShutdown(): Promise<void> {
    // A followed run keeps going on its own; only its notification is left to the next tick's reader.
    this.stopping = true;
    await this.consumer?.close();
  }
}
