import { createHostResolver } from '@suite/egress-policy';
import {
  ARTIFACT_STORE,
  JobQueue,
  JobRepository,
  JobService,
  ModelRegistry,
  type ArtifactStore,
} from '@suite/jobs';
import { webhookPolicy } from '@suite/push-delivery';
import { createQueue, QueueName } from '@suite/queue';
import { ScheduledRunService, SuiteRepository, SuiteScheduler, SuiteService } from '@suite/suites';
import { Logger } from '@nestjs/common';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { WorkerConnections } from '../jobs/worker-connections.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';

/**
 * What a scheduled suite run needs in the worker: the same job service as `/v1/jobs` (so fair
 * share and the owner's limits apply), the suites, and the webhook rules of A2A push.
 */
export const suiteScheduleProviders = [
  {
    provide: SuiteRepository,
    inject: [WorkerConnections],
    useFactory: (c: WorkerConnections) => new SuiteRepository(c.db),
  },
  {
    provide: JobService,
    inject: [JobRepository, JobQueue, ARTIFACT_STORE, BROWSER_WORKER_CONFIG],
    useFactory: (jobs: JobRepository, queue: JobQueue, store: ArtifactStore, config: BrowserWorkerConfig) =>
      new JobService({
        jobs,
        queue,
        store,
        models: new ModelRegistry({ llmModels: config.llm.models, llmDefaultModel: config.llm.defaultModel }),
        hostedBrowser: Boolean(config.HOSTED_BROWSER_WS_URL),
      }),
  },
  {
    provide: SuiteService,
    inject: [SuiteRepository, JobService, WorkerConnections],
    useFactory: (suites: SuiteRepository, jobs: JobService, c: WorkerConnections) => {
      const queue = createQueue(QueueName.SuiteSchedules, c.redis);
      queue.on('error', () => undefined);
      return new SuiteService({ suites, jobs, scheduler: new SuiteScheduler(queue) });
    },
  },
  {
    provide: ScheduledRunService,
    inject: [SuiteRepository, SuiteService, BROWSER_WORKER_CONFIG],
    useFactory: (suites: SuiteRepository, service: SuiteService, config: BrowserWorkerConfig) => {
      const logger = new Logger('suite-schedules');
      return new ScheduledRunService({
        suites,
        service,
        webhook: {
          policy: webhookPolicy(config.PUSH_ALLOWED_HOSTS),
          resolve: createHostResolver(config.PUSH_DNS_SERVERS),
          timeoutMs: config.PUSH_TIMEOUT_MS,
        },
        pollMs: config.SUITE_RUN_POLL_MS,
        log: {
          info: (message) => logger.log(message),
          warn: (message, error) => logger.warn({ err: error }, message),
        },
      });
    },
  },
];
