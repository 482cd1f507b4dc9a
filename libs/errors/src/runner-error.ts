import { AppError, type AppErrorOptions } from './app-error.js';
import { formatLoc, type ValidationIssue } from './validation-issue.js';

/** Failures of the browser test runner (jobs over /v1, A2A and MCP). */
export enum RunnerErrorCode {
  JobNotFound = 'job_not_found',
  /** The job is finished; only queued jobs can be cancelled (A2A CancelTask). */
  JobNotCancelable = 'job_not_cancelable',
  /** The job exists but has no such artifact yet (e.g. no video was recorded). */
  ArtifactNotFound = 'artifact_not_found',
  /** No suite of the caller's has this id (another owner's suite is not found either). */
  SuiteNotFound = 'suite_not_found',
  /** No such path or method on this service. */
  RouteNotFound = 'not_found',
  /** `details.issues` says what is wrong. */
  ValidationFailed = 'validation_failed',
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  /** The requested `model` is not one this deployment can run; put it in `metadata.model`. */
  ModelUnavailable = 'model_unavailable',
  /** The requested `env` is not configured here (e.g. no hosted browser); put it in `metadata.env`. */
  EnvUnavailable = 'env_unavailable',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  RateLimited = 'rate_limited',
  ServiceUnavailable = 'service_unavailable',
  /**
   * Every database connection this process may hold is in use (its connection budget, or Postgres's
   * max_connections) for longer than it waits: retry after `retryAfterSeconds`.
   */
  TemporarilyUnavailable = 'temporarily_unavailable',
  /** A bug or a broken dependency; its message is never shown to clients. */
  Internal = 'internal',
}

export class RunnerError extends AppError<RunnerErrorCode> {
  readonly family = 'runner' as const;

  constructor(code: RunnerErrorCode, message: string, options?: AppErrorOptions) {
    super(code, message, options);
  }

  /** A validation failure whose message already lists every problem (handy in logs). */
  static validation(issues: readonly ValidationIssue[], options: Omit<AppErrorOptions, 'issues'> = {}) {
    const summary = issues.map((problem) => `${formatLoc(problem.loc)}: ${problem.msg}`).join('; ');
    return new RunnerError(RunnerErrorCode.ValidationFailed, `Validation failed: ${summary}`, {
      ...options,
      issues,
    });
  }
}
