import { createHostResolver } from '@suite/egress-policy';
import { JobService, RunnerJobsConnections } from '@suite/jobs';
import { webhookPolicy } from '@suite/push-delivery';
import { createQueue, QueueName } from '@suite/queue';
import { SuiteInputValidator, SuiteRepository, SuiteScheduler, SuiteService } from '@suite/suites';
import { JOBS_API_CONFIG } from '../app.tokens.js';
import type { JobsApiConfig } from '../jobs-api.config.js';

/** The suite service of `/v1/suites`, on the job service's connections, and its input check. */
export const suitesProviders = [
  {
    provide: SuiteRepository,
    inject: [RunnerJobsConnections],
    useFactory: (c: RunnerJobsConnections) => new SuiteRepository(c.db),
  },
  {
    provide: SuiteScheduler,
    inject: [RunnerJobsConnections],
    useFactory: (c: RunnerJobsConnections) => {
      const queue = createQueue(QueueName.SuiteSchedules, c.redis);
      queue.on('error', () => undefined); // surfaced by failing requests
      return new SuiteScheduler(queue);
    },
  },
  {
    provide: SuiteService,
    inject: [SuiteRepository, JobService, SuiteScheduler],
    useFactory: (suites: SuiteRepository, jobs: JobService, scheduler: SuiteScheduler) =>
      new SuiteService({ suites, jobs, scheduler }),
  },
  {
    provide: SuiteInputValidator,
    inject: [JOBS_API_CONFIG],
    useFactory: (config: JobsApiConfig) =>
      new SuiteInputValidator({
        webhookPolicy: webhookPolicy(config.PUSH_ALLOWED_HOSTS),
        resolve: createHostResolver(config.PUSH_DNS_SERVERS),
        minScheduleSeconds: config.SUITE_MIN_SCHEDULE_SECONDS,
      }),
  },
];
