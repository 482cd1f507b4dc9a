import type { FieldProblem } from '@suite/errors';
import type { ValidationError } from 'class-validator';

/**
 * The control plane's answer to a bad request: the first field in declaration order that failed,
 * with the message of its first failed rule (`slug` / `is required`).
 */
export function toFirstFieldProblem(
  errors: readonly ValidationError[],
  order: readonly string[],
): FieldProblem | undefined {
  const first = errors
    .filter((error) => Object.keys(error.constraints ?? {}).length > 0)
    .sort((a, b) => order.indexOf(a.property) - order.indexOf(b.property))[0];
  return first && { field: first.property, problem: Object.values(first.constraints!)[0]! };
}
