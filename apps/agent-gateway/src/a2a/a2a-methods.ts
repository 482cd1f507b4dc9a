import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CreatePushConfigParamsDto,
  GetTaskParamsDto,
  ListPushConfigsParamsDto,
  ListTasksParamsDto,
  PushConfigRefParamsDto,
  readA2aParams,
  readStagedParams,
  readTaskScopedParams,
  SendMessageParamsDto,
  TaskIdParamsDto,
} from '@suite/contracts';
import type { MainDb } from '@suite/db';
import { A2aError, A2aErrorCode, APP_ERROR_MODEL, isUnexpectedError, newErrorId } from '@suite/errors';
import { loggableUrl } from '@suite/nest-core';
import { ModelRegistry, type Principal } from '@suite/jobs';
import type { ServerResponse } from 'node:http';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import { A2aPushService } from './a2a-push.service.js';
import { A2aTasksService } from './a2a-tasks.service.js';
import { A2A_PROTOCOL_VERSION, extendedAgentCard } from './agent-card.js';
import { TaskStreamer, type SseStreamSink } from './task-stream.js';

type Handler = (principal: Principal, params: unknown, signal: AbortSignal) => Promise<unknown>;

/** SendMessage's message is checked first; its configuration after the message's media types. */
const readSendParams = (params: unknown) => readStagedParams(SendMessageParamsDto, params, ['message']);

export const STREAMING_METHODS: ReadonlySet<string> = new Set(['SendStreamingMessage', 'SubscribeToTask']);

/** The A2A-Version header must say 1.0 (a missing one means 0.3): -32009 otherwise. */
export function checkA2aVersion(header: string | string[] | undefined): void {
  const version = (Array.isArray(header) ? header[0] : header)?.trim();
  if (version === A2A_PROTOCOL_VERSION || version === '1') return;
  throw new A2aError(
    A2aErrorCode.VersionNotSupported,
    version
      ? `A2A version ${JSON.stringify(version)} is not supported; this agent speaks A2A ${A2A_PROTOCOL_VERSION} (send "A2A-Version: ${A2A_PROTOCOL_VERSION}")`
      : `The A2A-Version header is missing, which means A2A 0.3; this agent speaks only A2A ${A2A_PROTOCOL_VERSION} (send "A2A-Version: ${A2A_PROTOCOL_VERSION}")`,
  );
}

/** A streaming call, checked: the task to follow. */
export interface OpenedStream {
  job: MainDb.Job;
  historyLength?: number;
}

/**
 * The A2A operations by their method name, shared by both bindings (JSON-RPC at /a2a, HTTP+JSON at
 * /a2a/rest): params in the JSON shapes of A2A v1.0, results as the JSON-RPC `result`.
 */
@Injectable()
export class A2aMethods {
  private readonly logger = new Logger('a2a');
  private readonly handlers: Record<string, Handler>;

  constructor(
    private readonly tasks: A2aTasksService,
    private readonly push: A2aPushService,
    private readonly streamer: TaskStreamer,
    @Inject(ModelRegistry) private readonly models: ModelRegistry,
    @Inject(AGENT_GATEWAY_CONFIG) private readonly config: AgentGatewayConfig,
  ) {
    this.handlers = {
      SendMessage: async (principal, params, signal) => {
        const sent = await this.tasks.send(principal, readSendParams(params), (c) => this.push.check(c));
        if (sent.pushConfig) await this.push.create(principal, sent.job.id, sent.pushConfig);
        return { task: await this.tasks.finishSend(principal, sent, signal) };
      },
      GetTask: (principal, params) => this.tasks.get(principal, readA2aParams(GetTaskParamsDto, params)),
      ListTasks: (principal, params) => this.tasks.list(principal, readA2aParams(ListTasksParamsDto, params)),
      CancelTask: (principal, params) => this.tasks.cancel(principal, readA2aParams(TaskIdParamsDto, params)),
      // The push-config methods find the task before they report a problem with the other params.
      CreateTaskPushNotificationConfig: (principal, params) =>
        this.push.createFromParams(principal, readTaskScopedParams(CreatePushConfigParamsDto, params)),
      GetTaskPushNotificationConfig: (principal, params) =>
        this.push.get(principal, readTaskScopedParams(PushConfigRefParamsDto, params)),
      ListTaskPushNotificationConfigs: (principal, params) =>
        this.push.list(principal, readTaskScopedParams(ListPushConfigsParamsDto, params)),
      DeleteTaskPushNotificationConfig: async (principal, params) => {
        await this.push.delete(principal, readTaskScopedParams(PushConfigRefParamsDto, params));
        return {};
      },
      GetExtendedAgentCard: () =>
        Promise.resolve(
          extendedAgentCard(this.config.PUBLIC_RUNNER_URL, this.models.list(), {
            blockingTimeoutMs: this.config.A2A_BLOCKING_TIMEOUT_MS,
          }),
        ),
    };
  }

  /** Runs a method that answers with JSON; an unknown name is -32601. */
  call(method: string, principal: Principal, params: unknown, signal: AbortSignal): Promise<unknown> {
    const handler = Object.hasOwn(this.handlers, method) ? this.handlers[method] : undefined;
    if (!handler) {
      throw new A2aError(
        A2aErrorCode.MethodNotFound,
        `Method ${JSON.stringify(method)} not found; this agent speaks A2A 1.0: ${[...Object.keys(this.handlers), ...STREAMING_METHODS].join(', ')}`,
      );
    }
    return handler(principal, params, signal);
  }

  /** Checks a streaming call before its stream starts, so its errors are plain responses. */
  async openStream(principal: Principal, method: string, params: unknown): Promise<OpenedStream> {
    if (method === 'SendStreamingMessage') {
      const sent = await this.tasks.send(principal, readSendParams(params), (c) => this.push.check(c));
      if (sent.pushConfig) await this.push.create(principal, sent.job.id, sent.pushConfig);
      return { job: sent.job, historyLength: sent.historyLength };
    }
    const job = await this.tasks.findJob(principal, readA2aParams(TaskIdParamsDto, params).id);
    if (this.tasks.isTerminal(job)) {
      throw new A2aError(
        A2aErrorCode.UnsupportedOperation,
        `Task ${job.id} is already in a terminal state (${job.status}); there is nothing to subscribe to. Use GetTask to read it.`,
      );
    }
    return { job };
  }

  /**
   * Follows an opened stream's task into `sink` until the task settles or the client leaves
   * (`raw` closes); a failure on the way is the stream's last event.
   */
  async pipe(
    principal: Principal,
    opened: OpenedStream,
    sink: SseStreamSink,
    raw: ServerResponse,
  ): Promise<void> {
    const aborted = new AbortController();
    raw.on('close', () => aborted.abort());
    try {
      await this.streamer.follow(principal, opened.job, sink, {
        historyLength: opened.historyLength,
        signal: aborted.signal,
      });
    } catch (thrown) {
      // A lost Postgres or Redis ends the stream with the runner's service_unavailable.
      const error = APP_ERROR_MODEL.fromDependency(thrown) ?? thrown;
      const errorId = isUnexpectedError(error) ? newErrorId() : undefined;
      if (errorId) {
        this.logger.error(
          { err: thrown, errorId, url: loggableUrl(raw.req.url) },
          `stream failed ${errorId}`,
        );
      }
      sink.fail(error, errorId);
    } finally {
      sink.end();
    }
  }
}
