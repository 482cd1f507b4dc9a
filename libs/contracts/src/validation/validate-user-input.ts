import { AuthError, AuthErrorCode } from '@suite/errors';
import { instanceToPlain, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { fieldNames } from './dto-fields.js';
import { toFieldProblems } from './field-problems.mapper.js';
import type { DtoClass } from './validate-input.js';

/**
 * Validates a `{code,message}` request (the project host's /api/user and control-plane inputs)
 * against a DTO: every bad field is named (`email: is required; password: must not be empty`),
 * types are strict (`"true"` is not a boolean), unknown fields are ignored, and the DTO's
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
  const names = fieldNames(dto);
  const sent: Record<string, unknown> = {};
  for (const name of names) if (Object.hasOwn(raw, name)) sent[name] = (raw as Record<string, unknown>)[name];
  const candidate = plainToInstance(dto, sent);
  const errors = validateSync(candidate, { forbidUnknownValues: false });
  if (errors.length) throw AuthError.invalidFields(toFieldProblems(errors, names));
  const normalised = instanceToPlain(candidate);
  const value = new dto();
  for (const name of names) {
    if (normalised[name] !== undefined) (value as Record<string, unknown>)[name] = normalised[name];
  }
  return value;
}
