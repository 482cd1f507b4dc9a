import { All, Controller, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { A2aError, A2aErrorCode, toA2aRestError } from '@suite/errors';
import type { JsonObject, Principal, StreamResponse } from '@suite/jobs';
import { SseWriter } from '@suite/nest-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { InvalidJsonBody } from '../http/json-rpc-body.parser.js';
import { GatewayAuth } from '../runner/gateway-auth.js';
import { A2aMethods, checkA2aVersion, STREAMING_METHODS } from './a2a-methods.js';
import { isObject } from './a2a-params.js';
import { contentTypeError } from './media-types.js';
import type { SseStreamSink } from './task-stream.js';

/** Where the HTTP+JSON binding lives on the runner origin (forwarded by jobs-api like /a2a). */
export const A2A_REST_BASE = '/a2a/rest';

/** One route of the binding: the A2A method it calls and how its params are made. */
interface Route {
  method: string;
  params: (match: RegExpMatchArray, query: JsonObject, body: JsonObject) => JsonObject;
  /** The HTTP status of a success (200 unless said). */
  status?: number;
}

const id = (match: RegExpMatchArray): string => decodeURIComponent(match[1]!);

/** A2A v1.0 HTTP+JSON: "VERB path" patterns → method (paths after the base URL). */
const ROUTES: [string, RegExp, Route][] = [
  ['POST', /^\/message:send$/, { method: 'SendMessage', params: (_m, _q, body) => body }],
  ['POST', /^\/message:stream$/, { method: 'SendStreamingMessage', params: (_m, _q, body) => body }],
  ['GET', /^\/tasks$/, { method: 'ListTasks', params: (_m, query) => query }],
  ['GET', /^\/tasks\/([^/:]+)$/, { method: 'GetTask', params: (m, query) => ({ ...query, id: id(m) }) }],
  [
    'POST',
    /^\/tasks\/([^/:]+):cancel$/,
    { method: 'CancelTask', params: (m, _q, body) => ({ ...body, id: id(m) }) },
  ],
  ['POST', /^\/tasks\/([^/:]+):subscribe$/, { method: 'SubscribeToTask', params: (m) => ({ id: id(m) }) }],
  ['GET', /^\/tasks\/([^/:]+):subscribe$/, { method: 'SubscribeToTask', params: (m) => ({ id: id(m) }) }],
  [
    'POST',
    /^\/tasks\/([^/:]+)\/pushNotificationConfigs$/,
    {
      method: 'CreateTaskPushNotificationConfig',
      params: (m, _q, body) => ({ ...body, taskId: id(m) }),
      status: 201,
    },
  ],
  [
    'GET',
    /^\/tasks\/([^/:]+)\/pushNotificationConfigs$/,
    { method: 'ListTaskPushNotificationConfigs', params: (m, query) => ({ ...query, taskId: id(m) }) },
  ],
  [
    'GET',
    /^\/tasks\/([^/:]+)\/pushNotificationConfigs\/([^/]+)$/,
    {
      method: 'GetTaskPushNotificationConfig',
      params: (m) => ({ taskId: id(m), id: decodeURIComponent(m[2]!) }),
    },
  ],
  [
    'DELETE',
    /^\/tasks\/([^/:]+)\/pushNotificationConfigs\/([^/]+)$/,
    {
      method: 'DeleteTaskPushNotificationConfig',
      params: (m) => ({ taskId: id(m), id: decodeURIComponent(m[2]!) }),
      status: 204,
    },
  ],
  ['GET', /^\/extendedAgentCard$/, { method: 'GetExtendedAgentCard', params: () => ({}) }],
];

/** Query values are strings: the booleans A2A's list calls take are read as such. */
function queryParams(query: unknown): JsonObject {
  const out: JsonObject = {};
  if (!isObject(query)) return out;
  for (const [key, value] of Object.entries(query)) {
    const one = Array.isArray(value) ? value[0] : value;
    out[key] = one === 'true' ? true : one === 'false' ? false : one;
  }
  return out;
}

/** StreamResponses as Server-Sent Events, one JSON object per event (no JSON-RPC envelope). */
class RestSseSink implements SseStreamSink {
  private readonly sse: SseWriter;

  constructor(raw: ServerResponse) {
    this.sse = new SseWriter(raw);
    this.sse.flushHeaders();
  }

  emit(response: StreamResponse): void {
    this.sse.send(response);
  }

  /** A failure after the stream started: an `error` event with the binding's error body. */
  fail(error: unknown, errorId: string | undefined): void {
    this.sse.send(toA2aRestError(error, { errorId }).body, 'error');
  }

  end(): void {
    this.sse.end();
  }
}

/**
 * The A2A v1.0 HTTP+JSON binding under /a2a/rest: the same operations, owner scoping and streams as
 * the JSON-RPC binding (A2aMethods). Errors are thrown: the gateway's exception filter answers them
 * as google.rpc.Status bodies with A2A's HTTP statuses.
 */
@ApiExcludeController()
@Controller()
export class A2aRestController {
  constructor(
    private readonly auth: GatewayAuth,
    private readonly methods: A2aMethods,
  ) {}

  // Its paths hold colons ("/tasks/{id}:cancel"), so the binding routes them itself.
  @All(['a2a/rest', 'a2a/rest/*'])
  async handle(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const principal = await this.auth.authenticate(request);
    const url = new URL(request.url, 'http://gateway');
    const path = url.pathname.slice(A2A_REST_BASE.length) || '/';
    const found = this.route(request.method, path);
    checkA2aVersion(request.headers['a2a-version']);
    const body = this.body(request);
    const params = found.route.params(found.match, queryParams(request.query), body);
    if (STREAMING_METHODS.has(found.route.method)) {
      return await this.stream(principal, found.route.method, params, reply);
    }
    const aborted = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) aborted.abort();
    });
    const result = await this.methods.call(found.route.method, principal, params, aborted.signal);
    if (reply.raw.destroyed) return;
    const status = found.route.status ?? 200;
    if (status === 204) void reply.status(204).send();
    else void reply.status(status).type('application/json').send(result);
  }

  private route(verb: string, path: string): { route: Route; match: RegExpMatchArray } {
    let pathKnown = false;
    for (const [method, pattern, route] of ROUTES) {
      const match = pattern.exec(path);
      if (!match) continue;
      pathKnown = true;
      if (method === verb) return { route, match };
    }
    throw new A2aError(
      A2aErrorCode.MethodNotFound,
      pathKnown
        ? `${verb} is not an operation on ${A2A_REST_BASE}${path}`
        : `No A2A operation at ${A2A_REST_BASE}${path}; this is the HTTP+JSON binding of A2A 1.0 (e.g. POST ${A2A_REST_BASE}/message:send, GET ${A2A_REST_BASE}/tasks/{id})`,
    );
  }

  /** A JSON object body, or none. */
  private body(request: FastifyRequest): JsonObject {
    const body = request.body;
    if (body === undefined || body === null) return {};
    const notJson = contentTypeError(request.headers['content-type']);
    if (notJson) throw notJson;
    if (body instanceof InvalidJsonBody) {
      throw new A2aError(A2aErrorCode.JsonParse, `Invalid JSON payload: ${body.reason}`);
    }
    if (!isObject(body)) throw new A2aError(A2aErrorCode.InvalidRequest, 'The body must be a JSON object');
    return body;
  }

  private async stream(
    principal: Principal,
    method: string,
    params: JsonObject,
    reply: FastifyReply,
  ): Promise<void> {
    // Everything that can fail is checked before the stream starts, so errors are plain responses.
    const opened = await this.methods.openStream(principal, method, params);
    reply.hijack();
    await this.methods.pipe(principal, opened, new RestSseSink(reply.raw), reply.raw);
  }
}
