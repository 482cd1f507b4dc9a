import { A2A_ERROR_DOMAIN, a2aErrorSpec, A2aErrorCode } from './a2a-error.js';
import { AuthErrorCode, type AuthError } from './auth-error.js';
import { asKnownError, isUnexpectedError, newErrorId, type MapperOptions } from './known-error.js';
import { RunnerErrorCode, type RunnerError } from './runner-error.js';
import { unreachable } from './unreachable.js';
import { formatLoc, type ValidationIssue } from './validation-issue.js';

export type JsonRpcId = string | number | null;

export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
export const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

/**
 * The ErrorInfo domain of reasons this suite defines itself (A2A has no word for them); A2A's own
 * reasons use `a2a-protocol.org`.
 */
export const SUITE_ERROR_DOMAIN = 'browser-test-runner';

/**
 * JSON-RPC reserves -32000..-32099 for server errors and A2A takes -32001..-32009; conditions A2A
 * has no code for (authentication, quotas, outages) use -32000 and say what happened in the
 * ErrorInfo reason, which is what A2A clients are meant to branch on.
 */
export const SERVER_ERROR_CODE = -32000;

export type ErrorInfoDetail = {
  '@type': typeof ERROR_INFO_TYPE;
  reason: string;
  domain: string;
  metadata?: Record<string, string>;
};

/** google.rpc.BadRequest: one violation per validation issue, so callers can point at the field. */
export type BadRequestDetail = {
  '@type': typeof BAD_REQUEST_TYPE;
  fieldViolations: { field: string; description: string; reason: string }[];
};

export type JsonRpcErrorObject = {
  code: number;
  message: string;
  data: (ErrorInfoDetail | BadRequestDetail)[];
};

export type JsonRpcErrorResponse = { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcErrorObject };

type RpcMapping = { code: number; reason: string; domain: string; message: string };

/** The `/a2a` answer for any thrown value (send it with HTTP 200; see `jsonRpcHttpStatus`). */
export function toJsonRpcError(
  error: unknown,
  id: JsonRpcId,
  options: MapperOptions = {},
): JsonRpcErrorResponse {
  if (isUnexpectedError(error)) {
    const spec = a2aErrorSpec(A2aErrorCode.Internal);
    const errorId = options.errorId ?? newErrorId();
    return envelope(
      id,
      { code: A2aErrorCode.Internal, reason: spec.reason, domain: A2A_ERROR_DOMAIN, message: spec.message },
      { errorId },
    );
  }
  const known = asKnownError(error)!;
  let mapping: RpcMapping;
  switch (known.family) {
    case 'a2a': {
      const spec = a2aErrorSpec(known.code);
      mapping = { code: known.code, reason: spec.reason, domain: A2A_ERROR_DOMAIN, message: known.message };
      break;
    }
    case 'runner':
      mapping = runnerRpc(known);
      break;
    case 'auth':
      mapping = authRpc(known);
      break;
    default:
      return unreachable(known);
  }
  const metadata: Record<string, string> = { ...known.details.metadata };
  if (known.details.retryAfterSeconds !== undefined) {
    metadata.retryAfterSeconds = String(known.details.retryAfterSeconds);
  }
  return envelope(id, mapping, metadata, known.details.issues);
}

/**
 * HTTP status for a JSON-RPC error response: 200 (the error is in the envelope), except that
 * A2A asks for a real 401/403 when credentials are missing or insufficient.
 */
export function jsonRpcHttpStatus(error: unknown): number {
  const known = asKnownError(error);
  if (known?.family === 'runner') {
    if (known.code === RunnerErrorCode.Unauthorized) return 401;
    if (known.code === RunnerErrorCode.Forbidden) return 403;
  }
  if (known?.family === 'auth' && known.code === AuthErrorCode.Unauthorized) return 401;
  return 200;
}

function envelope(
  id: JsonRpcId,
  mapping: RpcMapping,
  metadata: Record<string, string>,
  issues?: readonly ValidationIssue[],
): JsonRpcErrorResponse {
  const info: ErrorInfoDetail = { '@type': ERROR_INFO_TYPE, reason: mapping.reason, domain: mapping.domain };
  if (Object.keys(metadata).length) info.metadata = metadata;
  const data: (ErrorInfoDetail | BadRequestDetail)[] = [info];
  if (issues?.length) {
    data.push({
      '@type': BAD_REQUEST_TYPE,
      fieldViolations: issues.map((problem) => ({
        field: formatLoc(problem.loc),
        description: problem.msg,
        reason: problem.type,
      })),
    });
  }
  return { jsonrpc: '2.0', id, error: { code: mapping.code, message: mapping.message, data } };
}

function a2a(code: A2aErrorCode, message: string): RpcMapping {
  return { code, reason: a2aErrorSpec(code).reason, domain: A2A_ERROR_DOMAIN, message };
}

function suite(code: number, reason: string, message: string): RpcMapping {
  return { code, reason, domain: SUITE_ERROR_DOMAIN, message };
}

const upperSnake = (code: string): string => code.replace(/-/g, '_').toUpperCase();

function runnerRpc(error: RunnerError): RpcMapping {
  const { code, message } = error;
  switch (code) {
    case RunnerErrorCode.JobNotFound:
      return a2a(A2aErrorCode.TaskNotFound, message);
    case RunnerErrorCode.JobNotCancelable:
      return a2a(A2aErrorCode.TaskNotCancelable, message);
    case RunnerErrorCode.ValidationFailed:
      return a2a(A2aErrorCode.InvalidParams, message);
    case RunnerErrorCode.UnsupportedMediaType:
      return a2a(A2aErrorCode.ContentTypeNotSupported, message);
    // The request names something this deployment cannot serve: a parameter problem, with a
    // reason that says which.
    case RunnerErrorCode.ArtifactNotFound:
    case RunnerErrorCode.SuiteNotFound:
    case RunnerErrorCode.RouteNotFound:
    case RunnerErrorCode.ModelUnavailable:
    case RunnerErrorCode.EnvUnavailable:
      return suite(A2aErrorCode.InvalidParams, upperSnake(code), message);
    case RunnerErrorCode.PayloadTooLarge:
      return suite(A2aErrorCode.InvalidRequest, upperSnake(code), message);
    case RunnerErrorCode.Unauthorized:
    case RunnerErrorCode.Forbidden:
    case RunnerErrorCode.RateLimited:
    case RunnerErrorCode.ServiceUnavailable:
    case RunnerErrorCode.TemporarilyUnavailable:
      return suite(SERVER_ERROR_CODE, upperSnake(code), message);
    case RunnerErrorCode.Internal:
      return a2a(A2aErrorCode.Internal, a2aErrorSpec(A2aErrorCode.Internal).message);
    default:
      return unreachable(code);
  }
}

function authRpc(error: AuthError): RpcMapping {
  const { code, message } = error;
  switch (code) {
    case AuthErrorCode.InvalidRequest:
    case AuthErrorCode.NonceInvalid:
    case AuthErrorCode.CurrentPasswordRequired:
    case AuthErrorCode.InvalidRedirectUri:
    case AuthErrorCode.InvalidAuthHook:
      return suite(A2aErrorCode.InvalidParams, upperSnake(code), message);
    case AuthErrorCode.NotImplemented:
      return a2a(A2aErrorCode.UnsupportedOperation, message);
    case AuthErrorCode.InvalidCredentials:
    case AuthErrorCode.IdentityAlreadyExists:
    case AuthErrorCode.IdentityNotFound:
    case AuthErrorCode.AuthDisabled:
    case AuthErrorCode.EmailPasswordDisabled:
    case AuthErrorCode.SignupDisabled:
    case AuthErrorCode.IdpOauthDisabled:
    case AuthErrorCode.IdpOauthUnconfigured:
    case AuthErrorCode.ProjectCodeUnavailable:
    case AuthErrorCode.ProjectNotFound:
    case AuthErrorCode.Unauthorized:
    case AuthErrorCode.NotFound:
    case AuthErrorCode.RateLimited:
    case AuthErrorCode.PayloadTooLarge:
    case AuthErrorCode.UnsupportedMediaType:
      return suite(SERVER_ERROR_CODE, upperSnake(code), message);
    case AuthErrorCode.Internal:
      return a2a(A2aErrorCode.Internal, a2aErrorSpec(A2aErrorCode.Internal).message);
    default:
      return unreachable(code);
  }
}
