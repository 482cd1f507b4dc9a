import { a2aErrorSpec } from './a2a-error.js';
import { AuthErrorCode } from './auth-error.js';
import { httpHeadersOf, httpStatusOf, runnerHttpStatus } from './http-status.js';
import { asKnownError, isUnexpectedError, newErrorId, type MapperOptions } from './known-error.js';
import { RunnerErrorCode, type RunnerError } from './runner-error.js';
import { unreachable } from './unreachable.js';
import { formatLoc } from './validation-issue.js';

/** The project-host error body: top-level `code` and `message` (500s add the logged `errorId`). */
export type UserErrorBody = { code: string; message: string; errorId?: string };

export type UserErrorResponse = {
  status: number;
  body: UserErrorBody;
  headers: Record<string, string>;
  /** Set on 500s: log it with the stack. */
  errorId?: string;
};

/** The `/api/user` (and defineApi) answer for any thrown value. */
export function toUserErrorBody(error: unknown, options: MapperOptions = {}): UserErrorResponse {
  const status = httpStatusOf(error);
  const headers = httpHeadersOf(error, status);
  if (isUnexpectedError(error)) {
    const errorId = options.errorId ?? newErrorId();
    return {
      status: 500,
      body: { code: AuthErrorCode.Internal, message: 'Internal server error', errorId },
      headers,
      errorId,
    };
  }
  const known = asKnownError(error)!;
  switch (known.family) {
    case 'auth':
      return { status, body: { code: known.code, message: known.message }, headers };
    case 'runner':
      return { status: runnerStatus(known), body: runnerBody(known), headers };
    case 'a2a':
      return {
        status,
        body: { code: a2aErrorSpec(known.code).reason.toLowerCase(), message: known.message },
        headers,
      };
    default:
      return unreachable(known);
  }
}

/**
 * Shared DTOs throw runner validation errors. The auth spec's word for a malformed request is
 * invalid-request with status 400 (the 422 of /v1 is FastAPI's convention, not this API's).
 */
function isInvalidRequest(code: RunnerErrorCode): boolean {
  switch (code) {
    case RunnerErrorCode.ValidationFailed:
    case RunnerErrorCode.ModelUnavailable:
    case RunnerErrorCode.EnvUnavailable:
      return true;
    case RunnerErrorCode.JobNotFound:
    case RunnerErrorCode.JobNotCancelable:
    case RunnerErrorCode.ArtifactNotFound:
    case RunnerErrorCode.SuiteNotFound:
    case RunnerErrorCode.RouteNotFound:
    case RunnerErrorCode.Unauthorized:
    case RunnerErrorCode.Forbidden:
    case RunnerErrorCode.PayloadTooLarge:
    case RunnerErrorCode.UnsupportedMediaType:
    case RunnerErrorCode.RateLimited:
    case RunnerErrorCode.ServiceUnavailable:
    case RunnerErrorCode.TemporarilyUnavailable:
    case RunnerErrorCode.Internal:
      return false;
    default:
      return unreachable(code);
  }
}

function runnerStatus(error: RunnerError): number {
  return isInvalidRequest(error.code) ? 400 : runnerHttpStatus(error.code);
}

function runnerBody(error: RunnerError): UserErrorBody {
  if (!isInvalidRequest(error.code)) return { code: error.code, message: error.message };
  const issues = error.details.issues ?? [];
  const message = issues.length
    ? issues.map((problem) => `${formatLoc(problem.loc)}: ${problem.msg}`).join('; ')
    : error.message;
  return { code: AuthErrorCode.InvalidRequest, message };
}
