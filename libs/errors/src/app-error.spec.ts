import { describe, expect, it } from '@jest/globals';
import { A2aError, A2aErrorCode } from './a2a-error.js';
import { AppError } from './app-error.js';
import { AuthError, AuthErrorCode } from './auth-error.js';
import { isUnexpectedError } from './known-error.js';
import { RunnerError, RunnerErrorCode } from './runner-error.js';
import { issue } from './validation-issue.js';

describe('AppError', () => {
  it('carries code, message, details and cause, and is an Error', () => {
    const cause = new Error('connection reset');
    const error = new RunnerError(RunnerErrorCode.ServiceUnavailable, 'Queue unreachable', {
      cause,
      retryAfterSeconds: 5,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(AppError);
    expect(error.name).toBe('RunnerError');
    expect(error.family).toBe('runner');
    expect(error.code).toBe('service_unavailable');
    expect(error.message).toBe('Queue unreachable');
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ retryAfterSeconds: 5 });
  });

  it('RunnerError.validation lists every problem in its message', () => {
    const error = RunnerError.validation([
      issue.missing(['body', 'query'], {}),
      issue.boolType(['body', 'highlight_mouse'], 'yes'),
    ]);
    expect(error.code).toBe(RunnerErrorCode.ValidationFailed);
    expect(error.message).toBe(
      'Validation failed: body.query: Field required; body.highlight_mouse: Input should be a valid boolean',
    );
    expect(error.details.issues).toHaveLength(2);
  });

  it('auth and A2A errors have default messages', () => {
    expect(new AuthError(AuthErrorCode.SignupDisabled).message).toBe(
      'Sign-ups are disabled for this project',
    );
    expect(new A2aError(A2aErrorCode.TaskNotFound).message).toBe('Task not found');
    expect(
      new AuthError(AuthErrorCode.InvalidCredentials, 'Wrong current password', { status: 403 }).status,
    ).toBe(403);
  });

  it('treats non-AppErrors and the internal codes as unexpected', () => {
    expect(isUnexpectedError(new TypeError('x is undefined'))).toBe(true);
    expect(isUnexpectedError('a string was thrown')).toBe(true);
    expect(isUnexpectedError(new RunnerError(RunnerErrorCode.Internal, 'bug'))).toBe(true);
    expect(isUnexpectedError(new AuthError(AuthErrorCode.Internal))).toBe(true);
    expect(isUnexpectedError(new A2aError(A2aErrorCode.Internal))).toBe(true);
    expect(isUnexpectedError(new RunnerError(RunnerErrorCode.JobNotFound, 'Job x not found'))).toBe(false);
  });
});
