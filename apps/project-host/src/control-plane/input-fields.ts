import { AuthError } from '@suite/errors';

/** A request body or query string before validation (unknown fields are ignored). */
export type Fields = object;

/** 400 invalid-request worded `<field> <problem>`, for checks only the host can make. */
export function invalid(field: string, problem: string): AuthError {
  return AuthError.invalidValue(field, problem);
}
