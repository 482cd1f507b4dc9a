import { Controller, Get, Headers, Inject, Logger, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  A2aError,
  A2aErrorCode,
  isUnexpectedError,
  jsonRpcHttpStatus,
  newErrorId,
  toJsonRpcError,
  type JsonRpcId,
} from '@suite/errors';
import { ModelRegistry, type Principal } from '@suite/jobs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import { InvalidJsonBody } from '../http/json-body.parser.js';
import { GatewayAuth } from '../runner/gateway-auth.js';
import { isObject, Params } from './a2a-params.js';
import { A2aPushService } from './a2a-push.service.js';
import { A2aTasksService } from './a2a-tasks.service.js';
import {
  A2A_PROTOCOL_VERSION,
  cacheCard,
  extendedAgentCard,
  publicAgentCard,
  type CachedCard,
} from './agent-card.js';
import { contentTypeError } from './media-types.js';
import { JsonRpcSseSink, TaskStreamer } from './task-stream.js';

interface RpcRequest {
  id: JsonRpcId;
  method: string;
  params: unknown;
}

type Handler = (principal: Principal, params: unknown, signal: AbortSignal) => Promise<unknown>;

const STREAMING = new Set(['SendStreamingMessage', 'SubscribeToTask']);

/** The request's id when its body has a valid one (for errors found before the envelope is read). */
const requestId = (body: unknown): JsonRpcId =>
  isObject(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;

/** The A2A v1.0 JSON-RPC binding (POST /a2a) and the public agent card. */
@ApiExcludeController()
@Controller()
export class A2aController {
  private readonly logger = new Logger('a2a');
  private readonly card: CachedCard;
  private readonly handlers: Record<string, Handler>;

  constructor(
    private readonly auth: GatewayAuth,
    private readonly tasks: A2aTasksService,
    private readonly push: A2aPushService,
    private readonly streamer: TaskStreamer,
    @Inject(ModelRegistry) private readonly models: ModelRegistry,
    @Inject(AGENT_GATEWAY_CONFIG) private readonly config: AgentGatewayConfig,
  ) {
    this.card = cacheCard(publicAgentCard(config.PUBLIC_RUNNER_URL));
    this.handlers = {
      SendMessage: async (principal, params, signal) => {
        const sent = await this.tasks.send(principal, params, (c) => this.push.check(c));
        if (sent.pushConfig) await this.push.create(principal, sent.job.id, sent.pushConfig);
        return { task: await this.tasks.finishSend(principal, sent, signal) };
      },
      GetTask: (principal, params) => this.tasks.get(principal, params),
      ListTasks: (principal, params) => this.tasks.list(principal, params),
      CancelTask: (principal, params) => this.tasks.cancel(principal, params),
      CreateTaskPushNotificationConfig: (principal, params) => this.push.createFromParams(principal, params),
      GetTaskPushNotificationConfig: (principal, params) => this.push.get(principal, params),
      ListTaskPushNotificationConfigs: (principal, params) => this.push.list(principal, params),
      DeleteTaskPushNotificationConfig: async (principal, params) => {
        await this.push.delete(principal, params);
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

  @Get('.well-known/agent-card.json')
  agentCard(
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('if-modified-since') ifModifiedSince: string | undefined,
    @Res() reply: FastifyReply,
  ): void {
    const { body, etag, lastModified } = this.card;
    void reply.headers({
      'cache-control': 'public, max-age=300',
      etag,
      'last-modified': lastModified,
      'access-control-allow-origin': '*',
    });
    const tags = ifNoneMatch?.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    const notModified = tags
      ? tags.includes(etag) || tags.includes('*')
      : ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Date.parse(lastModified);
    if (notModified) {
      void reply.status(304).send();
      return;
    }
    void reply.status(200).type('application/json').send(body);
  }

  @Post('a2a')
  async rpc(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    let id: JsonRpcId = null;
    try {
      const principal = await this.auth.authenticate(request);
      const notJson = contentTypeError(request.headers['content-type']);
      if (notJson) {
        id = requestId(request.body);
        throw notJson;
      }
      const rpc = this.envelope(request.body);
      id = rpc.id;
      this.checkVersion(request);
      if (STREAMING.has(rpc.method)) return await this.stream(principal, rpc, request, reply);
      const handler = Object.hasOwn(this.handlers, rpc.method) ? this.handlers[rpc.method] : undefined;
      if (!handler) {
        throw new A2aError(
          A2aErrorCode.MethodNotFound,
          `Method ${JSON.stringify(rpc.method)} not found; this agent speaks A2A 1.0: ${[...Object.keys(this.handlers), ...STREAMING].join(', ')}`,
        );
      }
      const aborted = new AbortController();
      // A client that hangs up ends a blocking wait (an answered request closes too: no abort then).
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) aborted.abort();
      });
      const result = await handler(principal, rpc.params, aborted.signal);
      if (!reply.raw.destroyed) void reply.status(200).send({ jsonrpc: '2.0', id, result });
    } catch (error) {
      this.sendError(reply, error, (error as { rpcId?: JsonRpcId }).rpcId ?? id, request);
    }
  }

  private sendError(reply: FastifyReply, error: unknown, id: JsonRpcId, request: FastifyRequest): void {
    const errorId = isUnexpectedError(error) ? newErrorId() : undefined;
    if (errorId) this.logger.error({ err: error, errorId, url: request.url }, `unexpected error ${errorId}`);
    const status = jsonRpcHttpStatus(error);
    if (status === 401) void reply.header('www-authenticate', 'Bearer');
    if (reply.raw.headersSent) return;
    void reply.status(status).send(toJsonRpcError(error, id, { errorId }));
  }

  /** JSON-RPC 2.0 envelope checks; single requests only (A2A defines no batches). */
  private envelope(body: unknown): RpcRequest {
    if (body instanceof InvalidJsonBody) {
      throw new A2aError(A2aErrorCode.JsonParse, `Invalid JSON payload: ${body.reason}`);
    }
    if (Array.isArray(body)) {
      throw new A2aError(
        A2aErrorCode.InvalidRequest,
        'Batch requests are not supported: send one request per call',
      );
    }
    if (!isObject(body)) {
      throw new A2aError(A2aErrorCode.InvalidRequest, 'The body must be a JSON-RPC 2.0 request object');
    }
    const id = body.id;
    const validId = id === undefined || id === null || typeof id === 'string' || typeof id === 'number';
    const bad = (message: string) => {
      const error = new A2aError(A2aErrorCode.InvalidRequest, message);
      (error as A2aError & { rpcId?: JsonRpcId }).rpcId = validId ? ((id as JsonRpcId) ?? null) : null;
      return error;
    };
    if (!validId) throw bad('"id" must be a string, a number or null');
    if (body.jsonrpc !== '2.0') throw bad('"jsonrpc" must be "2.0"');
    if (typeof body.method !== 'string' || body.method === '')
      throw bad('"method" must be a non-empty string');
    if (body.params !== undefined && body.params !== null && !isObject(body.params)) {
      throw new A2aError(A2aErrorCode.InvalidParams, '"params" must be an object');
    }
    return { id: (id as JsonRpcId) ?? null, method: body.method, params: body.params };
  }

  private checkVersion(request: FastifyRequest): void {
    const header = request.headers['a2a-version'];
    const version = (Array.isArray(header) ? header[0] : header)?.trim();
    if (version === A2A_PROTOCOL_VERSION || version === '1') return;
    throw new A2aError(
      A2aErrorCode.VersionNotSupported,
      version
        ? `A2A version ${JSON.stringify(version)} is not supported; this agent speaks A2A ${A2A_PROTOCOL_VERSION} (send "A2A-Version: ${A2A_PROTOCOL_VERSION}")`
        : `The A2A-Version header is missing, which means A2A 0.3; this agent speaks only A2A ${A2A_PROTOCOL_VERSION} (send "A2A-Version: ${A2A_PROTOCOL_VERSION}")`,
    );
  }

  private async stream(
    principal: Principal,
    rpc: RpcRequest,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    // Everything that can fail is checked before the stream starts, so errors are plain responses.
    let job;
    let historyLength: number | undefined;
    if (rpc.method === 'SendStreamingMessage') {
      const sent = await this.tasks.send(principal, rpc.params, (c) => this.push.check(c));
      if (sent.pushConfig) await this.push.create(principal, sent.job.id, sent.pushConfig);
      job = sent.job;
      historyLength = sent.historyLength;
    } else {
      const params = Params.of(rpc.params);
      job = await this.tasks.findJob(principal, params.requiredString('id'));
      if (this.tasks.isTerminal(job)) {
        throw new A2aError(
          A2aErrorCode.UnsupportedOperation,
          `Task ${job.id} is already in a terminal state (${job.status}); there is nothing to subscribe to. Use GetTask to read it.`,
        );
      }
    }
    reply.hijack();
    const sse = new JsonRpcSseSink(reply.raw, rpc.id);
    const aborted = new AbortController();
    reply.raw.on('close', () => aborted.abort());
    try {
      await this.streamer.follow(principal, job, sse, { historyLength, signal: aborted.signal });
    } catch (error) {
      const errorId = isUnexpectedError(error) ? newErrorId() : undefined;
      if (errorId) this.logger.error({ err: error, errorId, url: request.url }, `stream failed ${errorId}`);
      sse.error(toJsonRpcError(error, rpc.id, { errorId }));
    } finally {
      sse.end();
    }
  }
}
