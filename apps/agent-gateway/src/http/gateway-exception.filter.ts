import {
  APP_ERROR_MODEL,
  asKnownError,
  httpHeadersOf,
  httpStatusOf,
  jsonRpcHttpStatus,
  RUNNER_FRAMEWORK_ERRORS,
  RunnerErrorCode,
  toA2aRestError,
  toHttpProblem,
  toJsonRpcError,
  unreachable,
} from '@suite/errors';
import { createExceptionFilter, type ErrorReply } from '@suite/nest-core';
import type { FastifyRequest } from 'fastify';
import { jsonRpcIdOf } from './json-rpc-id.js';

/** The gateway's transports, each with its own error contract. */
type Transport = 'a2a' | 'a2a-rest' | 'mcp' | 'http';

const transportOf = (url: string): Transport =>
  // A2A's HTTP+JSON binding: its errors are google.rpc.Status bodies, not JSON-RPC ones.
  /^\/a2a\/rest(\/|\?|$)/.test(url)
    ? 'a2a-rest'
    : /^\/a2a(\/|\?|$)/.test(url)
      ? 'a2a'
      : /^\/mcp(\/|\?|$)/.test(url)
        ? 'mcp'
        : 'http';

/**
 * The HTTP status of a JSON-RPC error: what JSON-RPC over HTTP answers (200, or A2A's 401/403),
 * except for what never reached the JSON-RPC layer (a body too large, no such route) and for a lost
 * dependency, which answers 503 (with Retry-After) on every transport, as /v1 does.
 */
function jsonRpcStatus(error: unknown): number {
  const known = asKnownError(error);
  if (known?.family === 'runner') {
    switch (known.code) {
      case RunnerErrorCode.PayloadTooLarge:
        return 413;
      case RunnerErrorCode.RouteNotFound:
        return 404;
      case RunnerErrorCode.ServiceUnavailable:
      case RunnerErrorCode.TemporarilyUnavailable:
        return 503;
    }
  }
  return jsonRpcHttpStatus(error);
}

/** /a2a: a JSON-RPC error object, with the request's id once the handler has read it. */
function a2aReply(error: unknown, request: FastifyRequest, errorId: string | undefined): ErrorReply {
  const status = jsonRpcStatus(error);
  return {
    status,
    headers: httpHeadersOf(error, status),
    body: toJsonRpcError(error, jsonRpcIdOf(request), { errorId }),
  };
}

/**
 * /mcp before the MCP server takes the request (origin, credentials, body): a JSON-RPC error object
 * with id null and never a 200 (MCP clients read an HTTP error as a failed request). Failed tool
 * calls are results (`isError`, toMcpToolError in mcp-tools.ts), not errors of the request.
 */
function mcpReply(error: unknown, errorId: string | undefined): ErrorReply {
  const rpcStatus = jsonRpcStatus(error);
  // Never a 200: the error's own HTTP status (415 for a body of another media type, …), 500 only
  // for what was not expected.
  const status = rpcStatus === 200 ? httpStatusOf(error) : rpcStatus;
  return {
    status,
    headers: httpHeadersOf(error, status),
    body: toJsonRpcError(error, null, { errorId }),
  };
}

/** /a2a/rest: A2A's HTTP+JSON error body (google.rpc.Status). */
function a2aRestReply(error: unknown, errorId: string | undefined): ErrorReply {
  const { status, headers, body } = toA2aRestError(error, { errorId });
  return { status, headers: { ...headers, 'content-type': 'application/json' }, body };
}

/**
 * Every error of the gateway reaches the wire here, shaped by its transport's mapper: JSON-RPC
 * errors on /a2a and /mcp, google.rpc.Status on /a2a/rest, the runner's HTTP bodies elsewhere. A
 * Postgres or Redis outage is the runner's service_unavailable (APP_ERROR_MODEL) on each.
 */
export function gatewayExceptionFilter() {
  return createExceptionFilter({
    model: APP_ERROR_MODEL,
    // Every media type is read as text here (the JSON-RPC layer answers malformed JSON itself);
    // what Fastify refuses is a Content-Type that is no media type at all ("garbage").
    framework: {
      'body-too-large': RUNNER_FRAMEWORK_ERRORS['body-too-large'],
      'unsupported-media-type': RUNNER_FRAMEWORK_ERRORS['unsupported-media-type'],
      'not-found': RUNNER_FRAMEWORK_ERRORS['not-found'],
      'method-not-allowed': RUNNER_FRAMEWORK_ERRORS['method-not-allowed'],
    },
    reply: (error, request, errorId) => {
      const transport = transportOf(request.url);
      switch (transport) {
        case 'a2a':
          return a2aReply(error, request, errorId);
        case 'a2a-rest':
          return a2aRestReply(error, errorId);
        case 'mcp':
          return mcpReply(error, errorId);
        case 'http':
          return toHttpProblem(error, { errorId });
        default:
          return unreachable(transport);
      }
    },
  });
}
