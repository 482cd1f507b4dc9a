import { AuthError, AuthErrorCode } from '@suite/errors';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { fieldNames } from './dto-fields.js';
import type { DtoClass } from './validate-input.js';

/**
 * Validates a control-plane request against a DTO: fields in declaration order, each field's rules
 * in the order listed, and the first rule that fails is the answer (`slug is required`); types are
 * strict, unknown fields are ignored, a query parameter given twice counts by its last value.
 *
 * @throws AuthError invalid-request (400).
 */
export function validateAdminInput<T extends object>(
  dto: DtoClass<T>,
  raw: unknown,
  where: 'body' | 'query',
): T {
  const isObject = raw !== null && typeof raw === 'object' && !Array.isArray(raw);
  if (!isObject && where === 'body') {
    throw new AuthError(AuthErrorCode.InvalidRequest, 'The body must be a JSON object.');
  }
  const names = fieldNames(dto);
  const sent: Record<string, unknown> = {};
  for (const name of names) {
    if (isObject && Object.hasOwn(raw, name)) sent[name] = (raw as Record<string, unknown>)[name];
  }
  const candidate = plainToInstance(dto, sent);
  const errors = validateSync(candidate, { forbidUnknownValues: false, stopAtFirstError: true });
  const first = errors
    .filter((error) => Object.keys(error.constraints ?? {}).length > 0)
    .sort((a, b) => names.indexOf(a.property) - names.indexOf(b.property))[0];
  if (first) throw AuthError.invalidValue(first.property, Object.values(first.constraints!)[0]!);
  const value = new dto();
  for (const name of names) {
    const field = (candidate as Record<string, unknown>)[name];
    if (field !== undefined) (value as Record<string, unknown>)[name] = field;
  }
  return value;
}
