import { a2aErrorSpec } from './a2a-error.js';
import { httpHeadersOf, httpStatusOf } from './http-status.js';
import { asKnownError, isUnexpectedError, newErrorId, type MapperOptions } from './known-error.js';
import { RunnerErrorCode, type RunnerError } from './runner-error.js';
import { unreachable } from './unreachable.js';
import { issue, type ValidationIssue } from './validation-issue.js';

/** The FastAPI 422 body. */
export type HttpValidationErrorBody = { detail: ValidationIssue[] };

/** Every other /v1 error: a sentence for people and a stable code for programs. */
export type HttpErrorBody = { detail: string; code: string; errorId?: string };

export type HttpProblem = {
  status: number;
  body: HttpValidationErrorBody | HttpErrorBody;
  headers: Record<string, string>;
  /** Set on 500s: log it with the stack; the client got the same id. */
  errorId?: string;
};

export const INTERNAL_SERVER_ERROR = 'Internal Server Error';

/** The `/v1` (FastAPI-compatible) answer for any thrown value. */
export function toHttpProblem(error: unknown, options: MapperOptions = {}): HttpProblem {
  const status = httpStatusOf(error);
  const headers = httpHeadersOf(error, status);
  if (isUnexpectedError(error)) {
    const errorId = options.errorId ?? newErrorId();
    return {
      status: 500,
      body: { detail: INTERNAL_SERVER_ERROR, code: 'internal', errorId },
      headers,
      errorId,
    };
  }
  const known = asKnownError(error)!;
  switch (known.family) {
    case 'runner': {
      const detail = validationDetail(known);
      return { status, body: detail ? { detail } : { detail: known.message, code: known.code }, headers };
    }
    case 'auth':
      return { status, body: { detail: known.message, code: known.code }, headers };
    case 'a2a':
      return {
        status,
        body: { detail: known.message, code: a2aErrorSpec(known.code).reason.toLowerCase() },
        headers,
      };
    default:
      return unreachable(known);
  }
}

/**
 * The 422 `detail` array for validation-like runner errors, undefined for the others. A model or
 * env this deployment cannot run is reported where the client put it, as pydantic reports a
 * custom validator's failure.
 */
function validationDetail(error: RunnerError): ValidationIssue[] | undefined {
  const given = error.details.issues;
  switch (error.code) {
    case RunnerErrorCode.ValidationFailed:
      return given?.length ? [...given] : [issue.valueError(['body'], null, error.message)];
    case RunnerErrorCode.ModelUnavailable:
      return given?.length
        ? [...given]
        : [issue.valueError(['body', 'model'], error.details.metadata?.model ?? null, error.message)];
    case RunnerErrorCode.EnvUnavailable:
      return given?.length
        ? [...given]
        : [issue.valueError(['body', 'env'], error.details.metadata?.env ?? null, error.message)];
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
      return undefined;
    default:
      return unreachable(error.code);
  }
}
