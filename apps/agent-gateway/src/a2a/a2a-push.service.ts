import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  invalidParams,
  type CreatePushConfigParamsDto,
  type ListPushConfigsParamsDto,
  type PushConfigRefParamsDto,
  type TaskScopedParams,
} from '@suite/contracts';
import { RunnerError, RunnerErrorCode } from '@suite/errors';
import { createHostResolver, type EgressPolicy, type HostResolver } from '@suite/egress-policy';
import {
  isSettledStatus,
  JobEventsHub,
  JobRepository,
  StoredJobStatus,
  type JobEvent,
  type Principal,
} from '@suite/jobs';
import {
  PushConfigLimitError,
  PushConfigRepository,
  type PushConfig,
  type PushConfigLimits,
} from '@suite/push-delivery';
import { randomUUID } from 'node:crypto';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import { toAuthentication } from './a2a-params.js';
import { A2aTasksService } from './a2a-tasks.service.js';
import type { StreamResponse, TaskPushNotificationConfig } from './a2a.types.js';
import { PushNotificationQueue } from './push-notification.queue.js';
import { taskStateOf } from './task.mapper.js';
import { assertPublicWebhookUrl, webhookPolicy } from './webhook-url.guard.js';

/** How far back a restarted gateway looks for tasks whose final notification may be unsent. */
const RESUME_WINDOW_MS = 6 * 3600_000;

const toWire = (row: PushConfig): TaskPushNotificationConfig => ({
  id: row.id,
  taskId: row.jobId,
  url: row.url,
  ...(row.token ? { token: row.token } : {}),
  ...(row.authScheme
    ? {
        authentication: {
          scheme: row.authScheme,
          ...(row.authCredentials ? { credentials: row.authCredentials } : {}),
        },
      }
    : {}),
});

/** A config past PUSH_CONFIGS_PER_TASK or PUSH_CONFIGS_PER_OWNER: the caller's quota, not a bad request. */
function limitReached(error: PushConfigLimitError): RunnerError {
  const message =
    error.scope === 'task'
      ? `This task already has ${error.limit} push notification configs, the most one task may have (PUSH_CONFIGS_PER_TASK); delete one or replace one by its id.`
      : `You already have ${error.limit} push notification configs on open tasks and created in the last hour, the most one owner may have (PUSH_CONFIGS_PER_OWNER); delete some first.`;
  return new RunnerError(RunnerErrorCode.RateLimited, message, {
    metadata: { limit: String(error.limit), scope: error.scope },
  });
}

/**
 * A2A push notifications, the gateway's half: configs live in Postgres (PushConfigRepository);
 * every change of a task with configs becomes one BullMQ job per config on the push-notifications
 * queue (so delivery survives a restart and is retried with backoff). The push worker
 * (apps/push-worker) consumes it and POSTs the StreamResponse to the webhook.
 */
@Injectable()
export class A2aPushService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('a2a-push');
  private readonly watched = new Map<string, () => Promise<void>>();
  private readonly policy: EgressPolicy;
  private readonly resolve: HostResolver;
  private readonly limits: PushConfigLimits;

  constructor(
    private readonly configs: PushConfigRepository,
    private readonly jobs: JobRepository,
    private readonly queue: PushNotificationQueue,
    private readonly tasks: A2aTasksService,
    private readonly events: JobEventsHub,
    @Inject(AGENT_GATEWAY_CONFIG) config: AgentGatewayConfig,
  ) {
    this.policy = webhookPolicy(config.PUSH_ALLOWED_HOSTS);
    this.resolve = createHostResolver(config.PUSH_DNS_SERVERS);
    this.limits = { perTask: config.PUSH_CONFIGS_PER_TASK, perOwner: config.PUSH_CONFIGS_PER_OWNER };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.resume().catch((error: unknown) =>
      this.logger.warn({ err: error }, 'could not resume push notifications of open tasks'),
    );
  }

  /**
   * After a restart: follow the tasks with configs that are still open, and send the final
   * notification of those that ended meanwhile (the queue id makes one that was sent a no-op).
   */
  private async resume(): Promise<void> {
    const since = new Date(Date.now() - RESUME_WINDOW_MS);
    for (const jobId of await this.configs.tasksToFollow(since)) await this.follow(jobId);
  }

  async onApplicationShutdown(): Promise<void> {
    for (const stop of this.watched.values()) await stop().catch(() => undefined);
    this.watched.clear();
  }

  async createFromParams(
    principal: Principal,
    scoped: TaskScopedParams<CreatePushConfigParamsDto>,
  ): Promise<TaskPushNotificationConfig> {
    const job = await this.tasks.findJob(principal, scoped.taskId);
    const { id, url, token, authentication } = scoped.rest();
    return this.create(principal, job.id, {
      id: id ?? '',
      url,
      token,
      authentication: toAuthentication(authentication),
    });
  }

  /** Refuses what `create` would refuse, before anything is stored. */
  async check(config: Omit<TaskPushNotificationConfig, 'taskId'>): Promise<void> {
    await assertPublicWebhookUrl(config.url, this.policy, this.resolve);
    if (config.id.length > 200)
      throw invalidParams('push notification config id must be at most 200 characters');
  }

  async create(
    principal: Principal,
    jobId: string,
    config: Omit<TaskPushNotificationConfig, 'taskId'>,
  ): Promise<TaskPushNotificationConfig> {
    await this.check(config);
    const id = config.id || randomUUID();
    const data = {
      owner: principal.owner,
      url: config.url,
      token: config.token ?? null,
      authScheme: config.authentication?.scheme ?? null,
      authCredentials: config.authentication?.credentials ?? null,
    };
    const row = await this.configs.save(jobId, id, data, this.limits).catch((error: unknown) => {
      throw error instanceof PushConfigLimitError ? limitReached(error) : error;
    });
    const job = await this.tasks.findJob(principal, jobId);
    if (isSettledStatus(job.status)) await this.enqueue(job.id, job.status, [row]);
    else await this.follow(job.id);
    return toWire(row);
  }

  async get(
    principal: Principal,
    scoped: TaskScopedParams<PushConfigRefParamsDto>,
  ): Promise<TaskPushNotificationConfig> {
    const job = await this.tasks.findJob(principal, scoped.taskId);
    const { id } = scoped.rest();
    const row = await this.configs.find(job.id, id);
    if (!row) throw invalidParams(`Task ${job.id} has no push notification config ${JSON.stringify(id)}`);
    return toWire(row);
  }

  async list(
    principal: Principal,
    scoped: TaskScopedParams<ListPushConfigsParamsDto>,
  ): Promise<{ configs: TaskPushNotificationConfig[]; nextPageToken: string }> {
    const job = await this.tasks.findJob(principal, scoped.taskId);
    const params = scoped.rest();
    const pageSize = params.pageSize || 100;
    const skip = Number(params.pageToken || '0');
    if (!Number.isInteger(skip) || skip < 0)
      throw invalidParams('params.pageToken is not a token this server issued');
    const rows = await this.configs.page(job.id, skip, pageSize + 1);
    return {
      configs: rows.slice(0, pageSize).map(toWire),
      nextPageToken: rows.length > pageSize ? String(skip + pageSize) : '',
    };
  }

  async delete(principal: Principal, scoped: TaskScopedParams<PushConfigRefParamsDto>): Promise<void> {
    const job = await this.tasks.findJob(principal, scoped.taskId);
    const { id } = scoped.rest();
    if (!(await this.configs.delete(job.id, id)))
      throw invalidParams(`Task ${job.id} has no push notification config ${JSON.stringify(id)}`);
  }

  private async follow(jobId: string): Promise<void> {
    if (this.watched.has(jobId)) return;
    this.watched.set(jobId, async () => undefined);
    let lastStatus: string | undefined;
    const stop = await this.events.subscribe(jobId, (event: JobEvent) => {
      if (event.type !== 'status' || event.status === lastStatus) return;
      lastStatus = event.status;
      void this.onStatus(jobId, event.status).catch((error: unknown) =>
        this.logger.warn({ err: error, jobId }, 'could not queue push notifications'),
      );
    });
    this.watched.set(jobId, stop);
    // A change between the config's creation (or a restart) and the subscription is not lost: a
    // task already working or settled is notified of where it is now (the queue id keeps one
    // already sent from going out twice).
    const job = await this.jobs.find(jobId);
    if (job && job.status !== StoredJobStatus.queued && lastStatus === undefined) {
      lastStatus = job.status;
      // A task that ran and settled before anyone followed it still worked first: say so.
      if (isSettledStatus(job.status) && job.startedAt)
        await this.enqueue(jobId, StoredJobStatus.running, await this.configs.ofTask(jobId));
      await this.onStatus(jobId, job.status);
    }
  }

  private async onStatus(jobId: string, status: string): Promise<void> {
    // Settled: ended, or waiting for input (its last notification until the client answers).
    if (isSettledStatus(status)) {
      const stop = this.watched.get(jobId);
      this.watched.delete(jobId);
      await stop?.().catch(() => undefined);
    }
    await this.enqueue(jobId, status, await this.configs.ofTask(jobId));
  }

  /** One queue job per config and status; the id makes replicas that all saw the change send once. */
  private async enqueue(jobId: string, status: string, configs: PushConfig[]): Promise<void> {
    if (!configs.length) return;
    const job = await this.jobs.find(jobId);
    if (!job) return;
    const task = await this.tasks.view(job, {
      historyLength: 0,
      includeArtifacts: isSettledStatus(job.status),
    });
    // The event tells of `status`, which the task may have left since (it is then a past state).
    const event: StreamResponse = isSettledStatus(status)
      ? { task }
      : {
          statusUpdate: {
            taskId: task.id,
            contextId: task.contextId,
            status:
              status === job.status
                ? task.status
                : { state: taskStateOf(status), timestamp: task.status.timestamp },
          },
        };
    for (const config of configs) await this.queue.add(config.owner, jobId, config.id, status, event);
  }
}
