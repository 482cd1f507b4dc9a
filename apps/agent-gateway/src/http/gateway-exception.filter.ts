import {
  APP_ERROR_MODEL,
  asKnownError,
  jsonRpcHttpStatus,
  RUNNER_FRAMEWORK_ERRORS,
  RunnerErrorCode,
  toA2aRestError,
  toHttpProblem,
  toJsonRpcError,
} from '@suite/errors';
import { createExceptionFilter, type ErrorReply } from '@suite/nest-core';

const JSON_RPC_PATH = /^\/(a2a|mcp)(\/|\?|$)/;
/** A2A's HTTP+JSON binding: its errors are google.rpc.Status bodies, not JSON-RPC ones. */
const A2A_REST_PATH = /^\/a2a\/rest(\/|\?|$)/;

/** A JSON-RPC error body with the HTTP status its transport answers with. */
function jsonRpcReply(error: unknown, errorId: string | undefined): ErrorReply {
  const known = asKnownError(error);
  const status =
    known?.family === 'runner' && known.code === RunnerErrorCode.PayloadTooLarge
      ? 413
      : known?.family === 'runner' && known.code === RunnerErrorCode.RouteNotFound
        ? 404
        : jsonRpcHttpStatus(error);
  return { status, body: toJsonRpcError(error, null, { errorId }) };
}

/** Errors that escape a handler: JSON-RPC bodies on /a2a and /mcp, the runner's HTTP bodies elsewhere. */
export function gatewayExceptionFilter() {
  return createExceptionFilter({
    model: APP_ERROR_MODEL,
    // Every media type is read as text here (the JSON-RPC layer answers malformed JSON itself).
    framework: {
      'body-too-large': RUNNER_FRAMEWORK_ERRORS['body-too-large'],
      'not-found': RUNNER_FRAMEWORK_ERRORS['not-found'],
      'method-not-allowed': RUNNER_FRAMEWORK_ERRORS['method-not-allowed'],
    },
    reply: (error, request, errorId) =>
      A2A_REST_PATH.test(request.url)
        ? toA2aRestError(error, { errorId })
        : JSON_RPC_PATH.test(request.url)
          ? jsonRpcReply(error, errorId)
          : toHttpProblem(error, { errorId }),
  });
}
