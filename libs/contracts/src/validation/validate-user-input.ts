import { AuthError, AuthErrorCode } from '@suite/errors';
import { toFieldProblems } from './field-problems.mapper.js';
import { type DtoClass, validateDto } from './validate-dto.js';

/**
 * Validates a `/api/user` request (`validateDto`) and words its problems for `{code,message}`:
 * every bad field is named (`email: is required; password: must not be empty`), and the DTO's
 * normalisation applies (trimmed before validation, lower-cased after).
 *
 * @throws AuthError invalid-request (400).
 */
export function validateUserInput<T extends object>(
  dto: DtoClass<T>,
  raw: unknown,
  where: 'body' | 'query',
): T {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new AuthError(
      AuthErrorCode.InvalidRequest,
      where === 'body' ? 'The body must be a JSON object.' : 'The query is missing.',
    );
  }
  if (where === 'query') {
    // A repeated query parameter arrives as an array: ambiguous, so refused.
    for (const [key, item] of Object.entries(raw)) {
      if (Array.isArray(item))
        throw new AuthError(AuthErrorCode.InvalidRequest, `${key}: must be given once`);
    }
  }
  const checked = validateDto(dto, raw as Record<string, unknown>, { normalise: true });
  if (!checked.ok) throw AuthError.invalidFields(toFieldProblems(checked.errors, checked.fields));
  return checked.value;
}
