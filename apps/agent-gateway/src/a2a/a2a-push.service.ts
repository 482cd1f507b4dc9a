import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { MainDb } from '@suite/db';
import {
  createHostResolver,
  EgressBlockedError,
  type EgressPolicy,
  type HostResolver,
  pinnedRequest,
} from '@suite/egress-policy';
import type { JobEvent, Principal } from '@suite/jobs';
import {
  createRedisConnection,
  createWorker,
  QueueName,
  type TypedJob,
  type TypedWorker,
} from '@suite/queue';
import type { Redis } from 'ioredis';
import { createHash, randomUUID } from 'node:crypto';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import { RunnerResources } from '../runner/runner-resources.js';
import { isFinalStatus, TaskEvents } from '../runner/task-events.js';
import { invalidParams, Params, readAuthentication } from './a2a-params.js';
import { A2aTasksService } from './a2a-tasks.service.js';
import type { StreamResponse, TaskPushNotificationConfig } from './a2a.types.js';
import { assertPublicWebhookUrl, parseWebhookUrl, webhookPolicy } from './webhook-url.guard.js';

/** How far back a restarted gateway looks for tasks whose final notification may be unsent. */
const RESUME_WINDOW_MS = 6 * 3600_000;

const toWire = (row: MainDb.PushNotificationConfig): TaskPushNotificationConfig => ({
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

/**
 * A2A push notifications: configs live in Postgres; every change of a task with configs becomes
 * one BullMQ job per config (so delivery survives a restart and is retried with backoff), and the
 * processor POSTs the StreamResponse to the webhook.
 */
@Injectable()
export class A2aPushService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('a2a-push');
  private readonly watched = new Map<string, () => Promise<void>>();
  private worker?: TypedWorker<typeof QueueName.PushNotifications>;
  private workerConnection?: Redis;
  private readonly policy: EgressPolicy;
  private readonly resolve: HostResolver;

  constructor(
    private readonly resources: RunnerResources,
    private readonly tasks: A2aTasksService,
    private readonly events: TaskEvents,
    @Inject(AGENT_GATEWAY_CONFIG) private readonly config: AgentGatewayConfig,
  ) {
    this.policy = webhookPolicy(config.PUSH_ALLOWED_HOSTS);
    this.resolve = createHostResolver(config.PUSH_DNS_SERVERS);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.workerConnection = createRedisConnection(this.config.REDIS_URL, {
      connectionName: 'agent-gateway-push',
    });
    this.workerConnection.on('error', () => undefined);
    this.worker = createWorker(
      QueueName.PushNotifications,
      { deliver: (job) => this.deliver(job) },
      this.workerConnection,
      {
        concurrency: 8,
      },
    );
    this.worker.on('error', () => undefined);
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
    const configs = await this.resources.db.pushNotificationConfig.findMany({
      where: { job: { OR: [{ finishedAt: null }, { finishedAt: { gte: since } }] } },
      select: { jobId: true },
    });
    for (const jobId of new Set(configs.map((c) => c.jobId))) await this.follow(jobId);
  }

  async onApplicationShutdown(): Promise<void> {
    for (const stop of this.watched.values()) await stop().catch(() => undefined);
    this.watched.clear();
    await this.worker?.close().catch(() => undefined);
    this.workerConnection?.disconnect();
  }

  async createFromParams(principal: Principal, rawParams: unknown): Promise<TaskPushNotificationConfig> {
    const params = Params.of(rawParams);
    const taskId = params.requiredString('taskId');
    const job = await this.tasks.findJob(principal, taskId);
    return this.create(principal, job.id, {
      id: params.string('id') ?? '',
      url: params.requiredString('url'),
      token: params.string('token'),
      authentication: readAuthentication(params.object('authentication')),
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
    const row = await this.resources.db.pushNotificationConfig.upsert({
      where: { jobId_id: { jobId, id } },
      create: { id, jobId, ...data },
      update: data,
    });
    const job = await this.tasks.findJob(principal, jobId);
    if (isFinalStatus(job.status)) await this.enqueue(job.id, job.status, [row]);
    else await this.follow(job.id);
    return toWire(row);
  }

  async get(principal: Principal, rawParams: unknown): Promise<TaskPushNotificationConfig> {
    const params = Params.of(rawParams);
    const job = await this.tasks.findJob(principal, params.requiredString('taskId'));
    const id = params.requiredString('id');
    const row = await this.resources.db.pushNotificationConfig.findUnique({
      where: { jobId_id: { jobId: job.id, id } },
    });
    if (!row) throw invalidParams(`Task ${job.id} has no push notification config ${JSON.stringify(id)}`);
    return toWire(row);
  }

  async list(
    principal: Principal,
    rawParams: unknown,
  ): Promise<{ configs: TaskPushNotificationConfig[]; nextPageToken: string }> {
    const params = Params.of(rawParams);
    const job = await this.tasks.findJob(principal, params.requiredString('taskId'));
    const pageSize = params.int('pageSize', 0, 100) || 100;
    const skip = Number(params.string('pageToken') || '0');
    if (!Number.isInteger(skip) || skip < 0)
      throw invalidParams('params.pageToken is not a token this server issued');
    const rows = await this.resources.db.pushNotificationConfig.findMany({
      where: { jobId: job.id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip,
      take: pageSize + 1,
    });
    return {
      configs: rows.slice(0, pageSize).map(toWire),
      nextPageToken: rows.length > pageSize ? String(skip + pageSize) : '',
    };
  }

  async delete(principal: Principal, rawParams: unknown): Promise<void> {
    const params = Params.of(rawParams);
    const job = await this.tasks.findJob(principal, params.requiredString('taskId'));
    const id = params.requiredString('id');
    const { count } = await this.resources.db.pushNotificationConfig.deleteMany({
      where: { jobId: job.id, id },
    });
    if (count === 0)
      throw invalidParams(`Task ${job.id} has no push notification config ${JSON.stringify(id)}`);
  }

  private async follow(jobId: string): Promise<void> {
    if (this.watched.has(jobId)) return;
    this.watched.set(jobId, async () => undefined);
    let lastStatus: string | undefined;
    const stop = await this.events.watch(jobId, (event: JobEvent) => {
      if (event.type !== 'status' || event.status === lastStatus) return;
      lastStatus = event.status;
      void this.onStatus(jobId, event.status).catch((error: unknown) =>
        this.logger.warn({ err: error, jobId }, 'could not queue push notifications'),
      );
    });
    this.watched.set(jobId, stop);
    // A change between the config's creation (or a restart) and the subscription is not lost.
    const job = await this.resources.db.job.findUnique({ where: { id: jobId } });
    if (job && isFinalStatus(job.status) && lastStatus === undefined) {
      lastStatus = job.status;
      await this.onStatus(jobId, job.status);
    }
  }

  private async onStatus(jobId: string, status: string): Promise<void> {
    if (isFinalStatus(status)) {
      const stop = this.watched.get(jobId);
      this.watched.delete(jobId);
      await stop?.().catch(() => undefined);
    }
    const configs = await this.resources.db.pushNotificationConfig.findMany({ where: { jobId } });
    await this.enqueue(jobId, status, configs);
  }

  /** One queue job per config and status; the id makes replicas that all saw the change send once. */
  private async enqueue(
    jobId: string,
    status: string,
    configs: MainDb.PushNotificationConfig[],
  ): Promise<void> {
    if (!configs.length) return;
    const job = await this.resources.db.job.findUnique({ where: { id: jobId } });
    if (!job) return;
    const task = await this.tasks.view(job, {
      historyLength: 0,
      includeArtifacts: isFinalStatus(job.status),
    });
    const event: StreamResponse = isFinalStatus(job.status)
      ? { task }
      : { statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status } };
    for (const config of configs) {
      const queueId = createHash('sha256').update(`${jobId}\n${config.id}\n${status}`).digest('hex');
      await this.resources.pushQueue.add(
        'deliver',
        { configId: config.id, jobId, event, trace: {} },
        { jobId: `push-${queueId}` },
      );
    }
  }

  private async deliver(job: TypedJob<typeof QueueName.PushNotifications>): Promise<void> {
    const { configId, jobId, event } = job.data;
    const config = await this.resources.db.pushNotificationConfig.findUnique({
      where: { jobId_id: { jobId, id: configId } },
    });
    if (!config) return; // deleted since: nothing to send
    const url = parseWebhookUrl(config.url);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (config.authScheme) {
      headers.authorization = `${config.authScheme} ${config.authCredentials ?? ''}`.trim();
    }
    if (config.token) headers['x-a2a-notification-token'] = config.token;
    // Resolved and checked here, then connected to exactly that address; redirects are not followed.
    const response = await pinnedRequest(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(event),
      timeoutMs: this.config.PUSH_TIMEOUT_MS,
      policy: this.policy,
      resolve: this.resolve,
    }).catch((error: unknown) => {
      if (error instanceof EgressBlockedError) {
        this.logger.warn(
          { jobId, configId, rule: error.decision.rule },
          `webhook ${url.origin} refused: ${error.message}`,
        );
      }
      throw error;
    });
    if (response.status >= 300 && response.status < 400) {
      throw new Error(
        `webhook ${url.origin} answered ${response.status} (a redirect${response.location ? ` to ${response.location}` : ''}); redirects are not followed`,
      );
    }
    if (response.status < 200 || response.status >= 300) {
      throw new Error(`webhook ${url.origin} answered ${response.status}`);
    }
  }
}
