import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { JobQueue, JobRepository } from '@suite/jobs';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import { observeRunner } from './runner-metrics.js';

/**
 * The runner's gauges (jobs by status, the queue) for /metrics, which the worker's health listener
 * (WorkerHealthServer of WorkerCoreModule, on HEALTH_PORT) serves unless METRICS_ENABLED is false.
 */
@Injectable()
export class RunnerMetricsObserver implements OnApplicationBootstrap, OnApplicationShutdown {
  private stopObserving?: () => void;

  constructor(
    private readonly jobs: JobRepository,
    private readonly queue: JobQueue,
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.METRICS_ENABLED) this.stopObserving = observeRunner(this.jobs, this.queue);
  }

  onApplicationShutdown(): void {
    this.stopObserving?.();
  }
}
