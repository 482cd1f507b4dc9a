import type { FieldProblem } from '@suite/errors';
import { getMetadataStorage, type ValidationError } from 'class-validator';
import { NO_CONTROL_CHARACTERS } from './no-control-characters.decorator.js';

/** A wrong type is the only problem reported for a field: its other rules say nothing useful. */
const TYPE_RULES = ['isString', 'isBoolean'];

/** Rules of a well-typed value, reported in this order (every one that failed). */
const VALUE_RULES = ['minLength', 'maxLength', 'isEmailAddress', NO_CONTROL_CHARACTERS];

/** A shape check of a value that is already too long says nothing more: only the length is reported. */
const SHAPE_RULES = new Set(['isEmailAddress']);

/**
 * class-validator's errors as `{code,message}` field problems, in field order: a field left out
 * "is required"; otherwise the message each rule carries (the contract's wording).
 */
export function toFieldProblems(
  errors: readonly ValidationError[],
  order: readonly string[],
): FieldProblem[] {
  const rank = (error: ValidationError) => {
    const index = order.indexOf(error.property);
    return index === -1 ? order.length : index;
  };
  return [...errors].sort((a, b) => rank(a) - rank(b)).flatMap(problemsOf);
}

function problemsOf(error: ValidationError): FieldProblem[] {
  const field = error.property;
  if (error.value === undefined) return [{ field, problem: 'is required' }];
  const constraints = error.constraints ?? {};
  const failed = Object.keys(constraints);
  const type = TYPE_RULES.find((name) => failed.includes(name));
  if (type) {
    // A list has a length too, and its length rules have always been reported with the type
    // (`password: must be a string; password: must not be empty` for `[]`).
    const lengthRules = Array.isArray(error.value) ? failedLengthRules(error, error.value.length) : [];
    return [type, ...lengthRules].map((name) => ({ field, problem: constraints[name]! }));
  }
  const tooLong = failed.includes('maxLength');
  const ordered = [
    ...VALUE_RULES.filter((name) => failed.includes(name)),
    ...failed.filter((name) => !VALUE_RULES.includes(name)),
  ];
  return ordered
    .filter((name) => !(tooLong && SHAPE_RULES.has(name)))
    .map((name) => ({ field, problem: constraints[name]! }));
}

function failedLengthRules(error: ValidationError, length: number): string[] {
  const target = error.target?.constructor;
  if (!target) return [];
  const limits = getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .filter((metadata) => metadata.propertyName === error.property);
  const limit = (name: string) => limits.find((metadata) => metadata.name === name)?.constraints[0] as number;
  return ['minLength', 'maxLength'].filter(
    (name) =>
      name in (error.constraints ?? {}) &&
      (name === 'minLength' ? length < limit(name) : length > limit(name)),
  );
}
