import { AuthError } from '@suite/errors';

/** 400 invalid-request worded `<field> <problem>`, for checks only the host can make. */
export function invalid(field: string, problem: string): AuthError {
  return AuthError.invalidValue(field, problem);
}
