import { randomUUID } from 'node:crypto';
import { A2aError, A2aErrorCode } from './a2a-error.js';
import { AuthError, AuthErrorCode } from './auth-error.js';
import { RunnerError, RunnerErrorCode } from './runner-error.js';
import { unreachable } from './unreachable.js';

/** Every AppError subclass; mappers narrow it on `family`. */
export type KnownError = RunnerError | AuthError | A2aError;

export function asKnownError(error: unknown): KnownError | undefined {
  return error instanceof RunnerError || error instanceof AuthError || error instanceof A2aError
    ? error
    : undefined;
}

/**
 * True for what deserves a stack trace in the logs: anything that is not an AppError (a bug,
 * a dependency throwing) and the explicit "internal" codes. The mappers answer those with a
 * generic message and an error id the caller logs next to the stack.
 */
export function isUnexpectedError(error: unknown): boolean {
  const known = asKnownError(error);
  if (!known) return true;
  switch (known.family) {
    case 'runner':
      return known.code === RunnerErrorCode.Internal;
    case 'auth':
      return known.code === AuthErrorCode.Internal;
    case 'a2a':
      return known.code === A2aErrorCode.Internal;
    default:
      return unreachable(known);
  }
}

/** A fresh id that ties a 500 answer to its log line. */
export function newErrorId(): string {
  return randomUUID();
}

export interface MapperOptions {
  /**
   * Used when the error is unexpected, so the caller can log the same id it returns; a new one is
   * made when absent (read it back from the mapper's result).
   */
  readonly errorId?: string;
}
