import { AuthError, AuthErrorCode } from '@suite/errors';
import { toFirstFieldProblem } from './first-field-problem.mapper.js';
import { type DtoClass, validateDto } from './validate-dto.js';

/**
 * Validates a control-plane request (`validateDto`, each field's rules in the order listed) and
 * answers its first problem, worded `<field> <problem>` (`slug is required`); a query parameter
 * given twice counts by its last value (the DTO's `QueryValue`).
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
  const input = isObject ? (raw as Record<string, unknown>) : {};
  const checked = validateDto(dto, input, { normalise: true, stopAtFirstError: true });
  if (checked.ok) return checked.value;
  const first = toFirstFieldProblem(checked.errors, checked.fields);
  // Every failed field carries a constraint; a DTO whose rules report nothing is a bug here.
  if (!first) throw new Error(`${dto.name} failed validation without a message`);
  throw AuthError.invalidValue(first.field, first.problem);
}
