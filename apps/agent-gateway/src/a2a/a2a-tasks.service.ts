import { Inject, Injectable } from '@nestjs/common';
import {
  CreateJobDto,
  invalidParams,
  JobStatus,
  validateBody,
  type GetTaskParamsDto,
  type InlinePushConfigDto,
  type ListTasksParamsDto,
  type SendMessageParamsDto,
  type StagedParams,
  type TaskIdParamsDto,
} from '@suite/contracts';
import { isUuid, newId, type MainDb } from '@suite/db';
import { A2aError, A2aErrorCode } from '@suite/errors';
import {
  A2aConversationRepository,
  A2aTaskViews,
  isFinalStatus,
  isSettledStatus,
  jobStatusesOf,
  JobEventsHub,
  JobRepository,
  JobService,
  needsInput,
  type CreateJobOptions,
  type JobFilter,
  type JsonObject,
  type Message,
  type Principal,
  type Task,
  type TaskPushNotificationConfig,
  type TaskViewRequest,
} from '@suite/jobs';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import { requestMetadata, toAuthentication, toMessage } from './a2a-params.js';
import { checkInputModes } from './media-types.js';

/** What SendMessage / SendStreamingMessage resolved to, before anyone waits on it. */
export interface SentMessage {
  job: MainDb.Job;
  /** A new task's history as stored (its one message), so answering needs no read back. */
  history?: MainDb.A2aMessage[];
  historyLength?: number;
  returnImmediately: boolean;
  pushConfig?: Omit<TaskPushNotificationConfig, 'taskId'>;
}

export interface ListTasksResult {
  tasks: Task[];
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

/** The longest context name a client may give (names are stored with the context). */
const MAX_CONTEXT_ID_LENGTH = 256;

/** Job options a client may give in a data part or in metadata (either spelling). */
const OPTION_KEYS: Record<string, string> = {
  initial_url: 'initial_url',
  initialUrl: 'initial_url',
  model: 'model',
  env: 'env',
  highlight_mouse: 'highlight_mouse',
  highlightMouse: 'highlight_mouse',
};

function jobOptions(source: unknown): JsonObject {
  const out: JsonObject = {};
  if (!source || typeof source !== 'object' || Array.isArray(source)) return out;
  for (const [key, value] of Object.entries(source as JsonObject)) {
    const name = OPTION_KEYS[key];
    if (name && value !== undefined) out[name] = value;
  }
  return out;
}

interface PageCursor {
  c: string;
  i: string;
}

const encodeCursor = (job: MainDb.Job): string =>
  Buffer.from(JSON.stringify({ c: job.createdAt.toISOString(), i: job.id } satisfies PageCursor)).toString(
    'base64url',
  );

function decodeCursor(token: string): PageCursor {
  try {
    const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as PageCursor;
    if (typeof cursor.c === 'string' && !Number.isNaN(Date.parse(cursor.c)) && isUuid(cursor.i))
      return cursor;
  } catch {
    // falls through to the error below
  }
  throw invalidParams('params.pageToken is not a token this server issued');
}

/** A2A tasks are the caller's jobs; every read is scoped to the key's owner. */
@Injectable()
export class A2aTasksService {
  constructor(
    private readonly jobs: JobService,
    private readonly repository: JobRepository,
    private readonly contexts: A2aConversationRepository,
    private readonly events: JobEventsHub,
    @Inject(AGENT_GATEWAY_CONFIG) private readonly config: AgentGatewayConfig,
  ) {
    this.views = new A2aTaskViews(contexts, config.PUBLIC_RUNNER_URL);
  }

  private readonly views: A2aTaskViews;

  /** A task waiting for input is interrupted, not terminal: a follow-up message continues it. */
  isTerminal(job: MainDb.Job): boolean {
    return isFinalStatus(job.status);
  }

  get publicUrl(): string {
    return this.config.PUBLIC_RUNNER_URL;
  }

  /** Others' tasks, unknown ids and malformed ids are all "not found". */
  async findJob(principal: Principal, id: string | undefined): Promise<MainDb.Job> {
    const job = id ? await this.repository.findOwned(principal.owner, id) : null;
    if (!job)
      throw new A2aError(A2aErrorCode.TaskNotFound, `Task ${JSON.stringify(id ?? '')} was not found.`);
    return job;
  }

  view(job: MainDb.Job, options: TaskViewRequest = {}): Promise<Task> {
    return this.views.view(job, options);
  }

  /** The task's contextId as clients see it: the name a client gave the context, or its id. */
  contextIdOf(job: MainDb.Job): Promise<string> {
    return this.views.contextIdOf(job);
  }

  async taskById(principal: Principal, id: string, historyLength?: number): Promise<Task> {
    return this.view(await this.findJob(principal, id), { historyLength });
  }

  /** Validates the request, then creates the task (a job) or adds the message to its task. */
  async send(
    principal: Principal,
    params: StagedParams<SendMessageParamsDto>,
    checkPushConfig: (config: Omit<TaskPushNotificationConfig, 'taskId'>) => Promise<void> = () =>
      Promise.resolve(),
  ): Promise<SentMessage> {
    const message = toMessage(params.first.message);
    checkInputModes(message);
    // The configuration's problems come after the message's media types.
    const { configuration, metadata } = params.rest();
    const length = configuration?.historyLength;
    const returnImmediately = configuration?.returnImmediately ?? false;
    const inline = configuration?.taskPushNotificationConfig;
    const pushConfig = inline ? inlinePushConfig(inline) : undefined;
    // A refused webhook must not leave a task behind.
    if (pushConfig) await checkPushConfig(pushConfig);

    let job: MainDb.Job;
    if (message.taskId) {
      job = await this.findJob(principal, message.taskId);
      if (message.contextId && job.contextId && message.contextId !== (await this.contextIdOf(job))) {
        throw invalidParams(
          `params.message.contextId ${JSON.stringify(message.contextId)} does not match the context of task ${job.id}`,
        );
      }
      if (needsInput(job)) {
        // The follow-up carries the corrected instructions: the same task runs again with them.
        await this.storeMessage(message, await this.taskContext(principal, job), job.id);
        await this.jobs.resubmit(principal, job.id, this.followUpQuery(message));
        return {
          job: await this.findJob(principal, job.id),
          historyLength: length,
          returnImmediately,
          pushConfig,
        };
      }
      if (isFinalStatus(job.status)) {
        throw new A2aError(
          A2aErrorCode.UnsupportedOperation,
          `Task ${job.id} is already ${job.status === JobStatus.Cancelled ? 'canceled' : 'finished'} (a terminal state) and takes no more messages; send a new message without taskId to start a new task.`,
        );
      }
      // A running test takes no further instructions; the message joins the task's history.
      await this.storeMessage(message, await this.taskContext(principal, job), job.id);
    } else {
      const body = this.jobBody(message, requestMetadata(metadata));
      // A new context is stored with the job and its message, in one statement; a named one is
      // found (or made, for a name the client chose) first.
      const named = message.contextId ? await this.namedContext(principal, message.contextId) : undefined;
      const contextId = named?.id ?? newId();
      const created = await this.jobs
        .createJob(principal, body, { contextId, createContext: !named, message: this.messageRow(message) })
        .catch(async (error: unknown) => {
          // A refused job leaves no empty context behind.
          if (named?.created) await this.contexts.deleteContext(contextId).catch(() => undefined);
          throw error;
        });
      return {
        job: created.job,
        history: created.message ? [created.message] : undefined,
        historyLength: length,
        returnImmediately,
        pushConfig,
      };
    }
    return { job, historyLength: length, returnImmediately, pushConfig };
  }

  /** SendMessage waits for the end by default (bounded by A2A_BLOCKING_TIMEOUT_MS). */
  async finishSend(principal: Principal, sent: SentMessage, signal?: AbortSignal): Promise<Task> {
    let job = sent.job;
    if (!sent.returnImmediately && !isSettledStatus(job.status)) {
      await this.events.waitUntilSettled(
        job.id,
        async () => (await this.findJob(principal, job.id)).status,
        this.config.A2A_BLOCKING_TIMEOUT_MS,
        signal,
      );
      job = await this.findJob(principal, job.id);
      // Other messages may have joined the task meanwhile: its history is read again.
      return this.view(job, { historyLength: sent.historyLength });
    }
    return this.view(job, { historyLength: sent.historyLength, history: sent.history });
  }

  async get(principal: Principal, params: GetTaskParamsDto): Promise<Task> {
    return this.taskById(principal, params.id, params.historyLength);
  }

  async cancel(principal: Principal, params: TaskIdParamsDto): Promise<Task> {
    const job = await this.findJob(principal, params.id);
    const result = await this.jobs.cancel(principal, job.id);
    if (!result.cancelled) {
      throw new A2aError(
        A2aErrorCode.TaskNotCancelable,
        result.status === JobStatus.Running
          ? `Task ${job.id} is working and cannot be canceled: running browser tests are not stopped. It will finish on its own.`
          : `Task ${job.id} already ended (${result.status}) and cannot be canceled.`,
      );
    }
    return this.view(await this.findJob(principal, job.id));
  }

  /** The checks that need the store (the context, the TaskState name, the page token) are here. */
  async list(principal: Principal, params: ListTasksParamsDto): Promise<ListTasksResult> {
    const pageSize = params.pageSize ?? 50;
    const { contextId, status: state, pageToken, historyLength: length } = params;
    const includeArtifacts = params.includeArtifacts ?? false;
    const after = params.statusTimestampAfter;
    const filter: JobFilter = { owner: principal.owner };
    if (contextId) {
      const id = await this.ownContext(principal, contextId);
      if (!id) return { tasks: [], nextPageToken: '', pageSize, totalSize: 0 };
      filter.contextId = id;
    }
    if (state && state !== 'TASK_STATE_UNSPECIFIED') {
      const statuses = jobStatusesOf(state);
      if (!statuses && !/^TASK_STATE_[A-Z_]+$/.test(state)) {
        throw invalidParams(`params.status ${JSON.stringify(state)} is not a TaskState`);
      }
      if (!statuses) return { tasks: [], nextPageToken: '', pageSize, totalSize: 0 };
      filter.statuses = statuses;
    }
    if (after) filter.updatedAfter = new Date(after);
    const totalSize = await this.repository.count(filter);
    const cursor = pageToken ? decodeCursor(pageToken) : undefined;
    const rows = await this.repository.list({
      ...filter,
      ...(cursor ? { after: { createdAt: new Date(cursor.c), id: cursor.i } } : {}),
      limit: pageSize + 1,
    });
    const more = rows.length > pageSize;
    const shown = rows.slice(0, pageSize);
    const tasks = await Promise.all(
      shown.map((job) => this.view(job, { historyLength: length ?? 0, includeArtifacts })),
    );
    if (!includeArtifacts) for (const task of tasks) delete task.artifacts;
    return { tasks, nextPageToken: more ? encodeCursor(shown.at(-1)!) : '', pageSize, totalSize };
  }

  /**
   * The owner's context a client calls `name`: one the server issued (its id), or one the client
   * named. Names are per owner: another owner's context of that name (or id) is not found.
   */
  private async ownContext(principal: Principal, name: string): Promise<string | null> {
    if (isUuid(name) && (await this.contexts.findContext(name))?.owner === principal.owner) return name;
    return this.contexts.findNamed(principal.owner, name);
  }

  /** The context a new task's message names, made for this owner when the name is new to it. */
  private async namedContext(principal: Principal, name: string): Promise<{ id: string; created: boolean }> {
    if (name.length > MAX_CONTEXT_ID_LENGTH) {
      throw invalidParams(`params.message.contextId must be at most ${MAX_CONTEXT_ID_LENGTH} characters`);
    }
    const id = await this.ownContext(principal, name);
    // Two first messages of one new context may race: the loser finds the winner's row.
    return id ? { id, created: false } : this.contexts.ensureNamed(principal.owner, name);
  }

  /** A job from /v1 has no context: the one its task reports (its own id) is made real. */
  private async taskContext(principal: Principal, job: MainDb.Job): Promise<string> {
    if (job.contextId) return job.contextId;
    const context = await this.contexts.ensureContext(job.id, principal.owner);
    if (context.owner !== principal.owner) {
      throw invalidParams(`params.message.contextId ${JSON.stringify(job.id)} is not one of your contexts`);
    }
    return context.id;
  }

  private instructionsOf(message: Message): string {
    const query = message.parts
      .map((part) => part.text)
      .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
      .join('\n');
    if (!query) {
      throw invalidParams('params.message needs at least one text part: the browser test instructions');
    }
    return query;
  }

  /**
   * A2A's edge of the job request: the message's text and options as a `POST /v1/jobs` body,
   * checked with the same DTO (its problems are the task's InvalidParams).
   */
  private jobBody(message: Message, requestMetadata: JsonObject | undefined): CreateJobDto {
    const query = this.instructionsOf(message);
    const options: JsonObject = {
      ...jobOptions(requestMetadata),
      ...jobOptions(message.metadata),
    };
    for (const part of message.parts) Object.assign(options, jobOptions(part.data));
    return validateBody(CreateJobDto, { ...options, query }).value;
  }

  /** The corrected instructions of a follow-up message, checked as `CreateJobDto.query`. */
  private followUpQuery(message: Message): string {
    return validateBody(CreateJobDto, { query: this.instructionsOf(message) }).value.query;
  }

  private async storeMessage(message: Message, contextId: string, taskId: string): Promise<void> {
    await this.contexts.addMessage(contextId, taskId, this.messageRow(message));
  }

  private messageRow(message: Message): NonNullable<CreateJobOptions['message']> {
    return {
      messageId: message.messageId,
      role: message.role,
      parts: message.parts,
      metadata: message.metadata,
    };
  }
}

export function inlinePushConfig(dto: InlinePushConfigDto): Omit<TaskPushNotificationConfig, 'taskId'> {
  const authentication = toAuthentication(dto.authentication);
  return {
    id: dto.id ?? '',
    url: dto.url,
    ...(dto.token ? { token: dto.token } : {}),
    ...(authentication ? { authentication } : {}),
  };
}
