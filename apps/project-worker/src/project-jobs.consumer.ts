import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { consumeQueue, QueueName, type QueueConsumer, type TypedJob } from '@suite/queue';
import { UnrecoverableError } from 'bullmq';
import {
  ActiveDeployments,
  ProjectJobsQueue,
  ProjectSandboxes,
  type JobResult,
} from '@suite/project-runtime';
import { PROJECT_WORKER_CONFIG, type ProjectWorkerConfig } from './project-worker.config.js';

/** Jobs of different projects run side by side; one project's jobs share its sandbox. */
const CONCURRENCY = 4;

/**
 * Runs project jobs: `jobs/<name>.ts` of the project's active deployment, in its sandbox, within
 * the job's timeoutMs (default 10 s, at most 30 s). A throw or a timeout fails the run, which the
 * queue retries (3 attempts); a job missing from the active deployment fails without retries.
 */
@Injectable()
export class ProjectJobsConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('project-jobs');
  private consumer?: QueueConsumer<typeof QueueName.ProjectJobs>;

  constructor(
    @Inject(PROJECT_WORKER_CONFIG) private readonly config: ProjectWorkerConfig,
    private readonly active: ActiveDeployments,
    private readonly sandboxes: ProjectSandboxes,
    private readonly jobs: ProjectJobsQueue,
  ) {}

  onApplicationBootstrap(): void {
    this.consumer = consumeQueue(
      QueueName.ProjectJobs,
      { run: (job) => this.run(job) },
      {
        redisUrl: this.config.REDIS_URL,
        connectionName: 'project-worker-jobs',
        concurrency: CONCURRENCY,
        onError: (error) => this.logger.warn({ err: error.message }, 'project-jobs worker error'),
      },
    );
    const { worker } = this.consumer;
    // A job that ended stops counting against the project's PROJECT_JOBS_MAX_PENDING.
    worker.on('completed', (job) => void this.jobs.release(job.data.projectId, job.id!));
    worker.on('failed', (job, error) => {
      this.logger.warn(
        {
          projectId: job?.data.projectId,
          job: job?.data.name,
          attempt: job?.attemptsMade,
          err: error.message,
        },
        'project job failed',
      );
      const final = job && (job.finishedOn || job.attemptsMade >= (job.opts.attempts ?? 1));
      if (final) void this.jobs.release(job.data.projectId, job.id!);
    });
  }

  async run(job: TypedJob<typeof QueueName.ProjectJobs>): Promise<unknown> {
    const { projectId, name, payload } = job.data;
    const deployment = await this.active.get(projectId);
    const deployed = deployment?.jobs.get(name);
    const code = deployed && deployment?.bundles[deployed.entry];
    if (!deployment || !deployed || !code) {
      throw new UnrecoverableError(`no job ${name} in the active deployment`);
    }
    const result = (await this.sandboxes.call(
      projectId,
      {
        op: 'job',
        key: `${deployment.id}:${deployed.entry}`,
        code,
        job: { id: job.id!, name, payload, attempt: job.attemptsMade + 1 },
        env: deployment.env,
      },
      deployed.timeoutMs,
    )) as JobResult;
    return result.value;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
  }
}
