import { a2aErrorSpec } from './a2a-error.js';
import { httpHeadersOf, httpStatusOf } from './http-status.js';
import { toJsonRpcError, type BadRequestDetail, type ErrorInfoDetail } from './json-rpc-error.mapper.js';
import { asKnownError, type MapperOptions } from './known-error.js';

/** The A2A HTTP+JSON error body: a google.rpc.Status with its ErrorInfo (and BadRequest) details. */
export type A2aRestErrorBody = {
  error: {
    code: number;
    status: string;
    message: string;
    details: (ErrorInfoDetail | BadRequestDetail)[];
  };
};

export type A2aRestError = { status: number; headers: Record<string, string>; body: A2aRestErrorBody };

/** google.rpc.Code names of the HTTP statuses this binding answers with. */
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'UNIMPLEMENTED',
  409: 'FAILED_PRECONDITION',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  422: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
};

/**
 * The A2A HTTP+JSON binding's answer for any thrown value: the same code, reason and message as
 * the JSON-RPC binding (`toJsonRpcError`), with the HTTP status A2A v1.0 assigns to it.
 */
export function toA2aRestError(error: unknown, options: MapperOptions = {}): A2aRestError {
  const rpc = toJsonRpcError(error, null, options).error;
  // A2A's errors carry their status; the others take the one the error model gives them, a
  // validation problem being a plain 400 here (A2A's InvalidParams).
  const known = asKnownError(error);
  const modelStatus = httpStatusOf(error);
  const status =
    known?.family === 'a2a' ? a2aErrorSpec(known.code).httpStatus : modelStatus === 422 ? 400 : modelStatus;
  return {
    status,
    headers: httpHeadersOf(error, status),
    body: {
      error: {
        code: status,
        status: STATUS_NAMES[status] ?? 'UNKNOWN',
        message: rpc.message,
        details: rpc.data,
      },
    },
  };
}
