import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ActiveDeployments, ProjectSandboxes, type HookResult } from '@suite/project-runtime';
import { consumeQueue, QueueName, type QueueConsumer, type TypedJob } from '@suite/queue';
import { extractTraceContext, hookDuration, withSpan } from '@suite/telemetry';
import { PROJECT_WORKER_CONFIG, type ProjectWorkerConfig } from './project-worker.config.js';

/** Batches of different projects run side by side; one project's batches share its sandbox. */
const CONCURRENCY = 8;

/**
 * Consumes the `auth-hooks` queue: each batch runs the active deployment's hooks/auth.ts handlers
 * in the project's sandbox, in order, within one timeoutMs budget. A throw or a timeout fails the
 * job (logged; fire-and-forget batches are retried by the queue, blocking ones are not).
 */
@Injectable()
export class AuthHooksConsumer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('auth-hooks');
  private consumer?: QueueConsumer<typeof QueueName.AuthHooks>;

  constructor(
    @Inject(PROJECT_WORKER_CONFIG) private readonly config: ProjectWorkerConfig,
    private readonly active: ActiveDeployments,
    private readonly sandboxes: ProjectSandboxes,
  ) {}

  onModuleInit(): void {
    this.consumer = consumeQueue(
      QueueName.AuthHooks,
      { batch: (job) => this.process(job) },
      {
        redisUrl: this.config.REDIS_URL,
        connectionName: 'project-worker-hooks',
        concurrency: CONCURRENCY,
        onError: (error) => this.logger.warn({ err: error }, 'auth-hooks worker error'),
      },
    );
    this.consumer.worker.on('failed', (job, error) =>
      this.logger.warn(
        { projectId: job?.data.projectId, jobId: job?.id, attempt: job?.attemptsMade, err: error.message },
        'auth hook failed',
      ),
    );
  }

  process(job: TypedJob<typeof QueueName.AuthHooks>): Promise<HookResult | { skipped: string }> {
    const { projectId, events, trace } = job.data;
    // The batch's kinds (a fixed set of combinations the publisher emits), for the latency metric.
    const event = [...new Set(events.map((e) => e.kind))].join('+');
    return withSpan(
      'auth-hooks.run',
      async () => {
        const deployment = await this.active.get(projectId);
        const hook = deployment?.hook;
        const code = hook && deployment.bundles[hook.entry];
        if (!deployment || !hook || !code) return { skipped: 'no auth hook deployed' };
        const started = performance.now();
        const seconds = () => (performance.now() - started) / 1000;
        try {
          const result = (await this.sandboxes.call(
            projectId,
            { op: 'hook', key: `${deployment.id}:${hook.entry}`, code, events, env: deployment.env },
            hook.timeoutMs,
          )) as HookResult;
          hookDuration.observe({ event, outcome: 'ok' }, seconds());
          return result;
        } catch (error) {
          hookDuration.observe({ event, outcome: 'error' }, seconds());
          throw error;
        }
      },
      { parent: extractTraceContext(trace), attributes: { 'project.id': projectId, 'auth.events': event } },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
  }
}
