import { Controller, Get, Headers, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { A2aError, A2aErrorCode, RUNNER_FRAMEWORK_ERRORS, type JsonRpcId } from '@suite/errors';
import type { Principal } from '@suite/jobs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import { InvalidJsonBody } from '../http/json-rpc-body.parser.js';
import { noteJsonRpcId } from '../http/json-rpc-id.js';
import { GatewayAuth } from '../runner/gateway-auth.js';
import { A2aMethods, checkA2aVersion, STREAMING_METHODS } from './a2a-methods.js';
import { isObject } from './a2a-params.js';
import { cacheCard, publicAgentCard, type CachedCard } from './agent-card.js';
import { contentTypeError } from './media-types.js';
import { JsonRpcSseSink } from './task-stream.js';

interface RpcRequest {
  id: JsonRpcId;
  method: string;
  params: unknown;
}

/** The request's id when its body has a valid one (for errors found before the envelope is read). */
const requestId = (body: unknown): JsonRpcId =>
  isObject(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;

/**
 * The A2A v1.0 JSON-RPC binding (POST /a2a) and the public agent card. Errors are thrown: the
 * gateway's exception filter answers them as JSON-RPC errors with the id noted here.
 */
@ApiExcludeController()
@Controller()
export class A2aController {
  private readonly card: CachedCard;

  constructor(
    private readonly auth: GatewayAuth,
    private readonly methods: A2aMethods,
    @Inject(AGENT_GATEWAY_CONFIG) config: AgentGatewayConfig,
  ) {
    this.card = cacheCard(publicAgentCard(config.PUBLIC_RUNNER_URL));
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

  /**
   * Nest folds "/a2a/" into "/a2a": clients that keep the card URL's trailing slash land here
   * (other paths under /a2a/ are not found, as before this route).
   */
  @Post('a2a/*')
  async rpcWithSlash(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (request.url.split('?')[0] !== '/a2a/') throw RUNNER_FRAMEWORK_ERRORS['not-found']();
    await this.rpc(request, reply);
  }

  @Post('a2a')
  async rpc(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const principal = await this.auth.authenticate(request);
    const notJson = contentTypeError(request.headers['content-type']);
    if (notJson) {
      noteJsonRpcId(request, requestId(request.body));
      throw notJson;
    }
    const rpc = this.envelope(request);
    noteJsonRpcId(request, rpc.id);
    checkA2aVersion(request.headers['a2a-version']);
    if (STREAMING_METHODS.has(rpc.method)) return await this.stream(principal, rpc, reply);
    const aborted = new AbortController();
    // A client that hangs up ends a blocking wait (an answered request closes too: no abort then).
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) aborted.abort();
    });
    const result = await this.methods.call(rpc.method, principal, rpc.params, aborted.signal);
    if (!reply.raw.destroyed) void reply.status(200).send({ jsonrpc: '2.0', id: rpc.id, result });
  }

  /** JSON-RPC 2.0 envelope checks; single requests only (A2A defines no batches). */
  private envelope(request: FastifyRequest): RpcRequest {
    const body = request.body;
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
      noteJsonRpcId(request, validId ? ((id as JsonRpcId) ?? null) : null);
      return new A2aError(A2aErrorCode.InvalidRequest, message);
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

  private async stream(principal: Principal, rpc: RpcRequest, reply: FastifyReply): Promise<void> {
    // Everything that can fail is checked before the stream starts, so errors are plain responses.
    const opened = await this.methods.openStream(principal, rpc.method, rpc.params);
    reply.hijack();
    await this.methods.pipe(principal, opened, new JsonRpcSseSink(reply.raw, rpc.id), reply.raw);
  }
}
