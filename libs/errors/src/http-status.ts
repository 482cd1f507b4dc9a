import { a2aErrorSpec } from './a2a-error.js';
import { AuthErrorCode } from './auth-error.js';
import { asKnownError } from './known-error.js';
import { RunnerErrorCode } from './runner-error.js';
import { unreachable } from './unreachable.js';

export function runnerHttpStatus(code: RunnerErrorCode): number {
  switch (code) {
    case RunnerErrorCode.JobNotFound:
    case RunnerErrorCode.ArtifactNotFound:
    case RunnerErrorCode.SuiteNotFound:
    case RunnerErrorCode.RouteNotFound:
      return 404;
    case RunnerErrorCode.JobNotCancelable:
      return 409;
    // Validation-like codes answer 422 with a `detail` array, like FastAPI.
    case RunnerErrorCode.ValidationFailed:
    case RunnerErrorCode.ModelUnavailable:
    case RunnerErrorCode.EnvUnavailable:
      return 422;
    case RunnerErrorCode.Unauthorized:
      return 401;
    case RunnerErrorCode.Forbidden:
      return 403;
    case RunnerErrorCode.PayloadTooLarge:
      return 413;
    case RunnerErrorCode.UnsupportedMediaType:
      return 415;
    case RunnerErrorCode.RateLimited:
      return 429;
    case RunnerErrorCode.ServiceUnavailable:
    case RunnerErrorCode.TemporarilyUnavailable:
      return 503;
    case RunnerErrorCode.Internal:
      return 500;
    default:
      return unreachable(code);
  }
}

/** The spec's statuses; where it shows none (invalid-request, invalid_redirect_uri) 400 is ours. */
export function authHttpStatus(code: AuthErrorCode): number {
  switch (code) {
    case AuthErrorCode.InvalidCredentials:
    case AuthErrorCode.IdentityNotFound:
    case AuthErrorCode.Unauthorized:
      return 401;
    case AuthErrorCode.IdentityAlreadyExists:
      return 409;
    case AuthErrorCode.NonceInvalid:
    case AuthErrorCode.CurrentPasswordRequired:
    case AuthErrorCode.InvalidRequest:
    case AuthErrorCode.InvalidRedirectUri:
    case AuthErrorCode.InvalidAuthHook:
      return 400;
    case AuthErrorCode.AuthDisabled:
    case AuthErrorCode.ProjectNotFound:
    case AuthErrorCode.NotFound:
      return 404;
    case AuthErrorCode.RateLimited:
      return 429;
    case AuthErrorCode.PayloadTooLarge:
      return 413;
    case AuthErrorCode.UnsupportedMediaType:
      return 415;
    case AuthErrorCode.EmailPasswordDisabled:
    case AuthErrorCode.SignupDisabled:
      return 403;
    case AuthErrorCode.IdpOauthDisabled:
    case AuthErrorCode.IdpOauthUnconfigured:
    case AuthErrorCode.NotImplemented:
    case AuthErrorCode.ProjectCodeUnavailable:
      return 503;
    case AuthErrorCode.Internal:
      return 500;
    default:
      return unreachable(code);
  }
}

/** The HTTP status of any error; everything that is not an AppError is a 500. */
export function httpStatusOf(error: unknown): number {
  const known = asKnownError(error);
  if (!known) return 500;
  switch (known.family) {
    case 'runner':
      return runnerHttpStatus(known.code);
    case 'auth':
      return known.status ?? authHttpStatus(known.code);
    case 'a2a':
      return a2aErrorSpec(known.code).httpStatus;
    default:
      return unreachable(known);
  }
}

/** Headers a status implies: a 401 names the scheme, a 429/503 may say when to come back. */
export function httpHeadersOf(error: unknown, status: number): Record<string, string> {
  const headers: Record<string, string> = {};
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
  const retryAfter = asKnownError(error)?.details.retryAfterSeconds;
  if (retryAfter !== undefined && (status === 429 || status === 503)) {
    headers['Retry-After'] = String(Math.max(0, Math.ceil(retryAfter)));
  }
  return headers;
}
