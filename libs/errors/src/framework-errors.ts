import { AuthError, AuthErrorCode } from './auth-error.js';
import { RunnerError, RunnerErrorCode } from './runner-error.js';

// What the HTTP framework refuses before any handler runs, in each contract's words. The keys are
// nest-core's FrameworkFailure names (createExceptionFilter); a failure left out passes as thrown.

/** The runner's HTTP surface (/v1 and the gateway's non-JSON-RPC routes). */
export const RUNNER_FRAMEWORK_ERRORS = {
  'body-too-large': () => new RunnerError(RunnerErrorCode.PayloadTooLarge, 'The request body is too large.'),
  'unsupported-media-type': () =>
    new RunnerError(
      RunnerErrorCode.UnsupportedMediaType,
      'Unsupported Content-Type: send the body as JSON with "Content-Type: application/json".',
    ),
  'not-found': () => new RunnerError(RunnerErrorCode.RouteNotFound, 'Not Found'),
  'method-not-allowed': () => new RunnerError(RunnerErrorCode.RouteNotFound, 'Method Not Allowed'),
} as const;

/** The project host (`{code, message}`). */
export const USER_FRAMEWORK_ERRORS = {
  'malformed-json': () => new AuthError(AuthErrorCode.InvalidRequest, 'The body must be a JSON object.'),
  'body-too-large': () => new AuthError(AuthErrorCode.PayloadTooLarge),
  'unsupported-media-type': () => new AuthError(AuthErrorCode.UnsupportedMediaType),
  'not-found': () => new AuthError(AuthErrorCode.NotFound),
  'method-not-allowed': () => new AuthError(AuthErrorCode.NotFound),
} as const;
