import { Inject, Injectable } from '@nestjs/common';
import {
  invalidParams,
  type CreatePushConfigParamsDto,
  type ListPushConfigsParamsDto,
  type PushConfigRefParamsDto,
  type TaskScopedParams,
} from '@suite/contracts';
import { RunnerError, RunnerErrorCode } from '@suite/errors';
import { createHostResolver, type EgressPolicy, type HostResolver } from '@suite/egress-policy';
import { isSettledStatus, type Principal, type TaskPushNotificationConfig } from '@suite/jobs';
import {
  PushConfigLimitError,
  PushConfigRepository,
  PushFollowQueue,
  type PushConfig,
  type PushConfigLimits,
} from '@suite/push-delivery';
import { randomUUID } from 'node:crypto';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import { toAuthentication } from './a2a-params.js';
import { A2aTasksService } from './a2a-tasks.service.js';
import { assertPublicWebhookUrl, webhookPolicy } from './webhook-url.guard.js';

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
 * A2A push notifications, the gateway's half: configs live in Postgres (PushConfigRepository),
 * and a task with configs is handed to the push worker on the push-follows queue. The push worker
 * (apps/push-worker) follows the task, turns each change into one push-notifications job per
 * config and POSTs the StreamResponse to the webhook; the gateway follows nothing itself.
 */
@Injectable()
export class A2aPushService {
  private readonly policy: EgressPolicy;
  private readonly resolve: HostResolver;
  private readonly limits: PushConfigLimits;

  constructor(
    private readonly configs: PushConfigRepository,
    private readonly follows: PushFollowQueue,
    private readonly tasks: A2aTasksService,
    @Inject(AGENT_GATEWAY_CONFIG) config: AgentGatewayConfig,
  ) {
    this.policy = webhookPolicy(config.PUSH_ALLOWED_HOSTS);
    this.resolve = createHostResolver(config.PUSH_DNS_SERVERS);
    this.limits = { perTask: config.PUSH_CONFIGS_PER_TASK, perOwner: config.PUSH_CONFIGS_PER_OWNER };
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
    // A task that already settled: only the new config is told where it ended.
    await this.follows.follow(
      isSettledStatus(job.status) ? { jobId: job.id, configId: row.id } : { jobId: job.id },
    );
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
}
