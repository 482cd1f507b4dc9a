import { ValidateBy, type ValidationOptions } from 'class-validator';

export const NO_NUL_CHARACTERS = 'noNulCharacters';

/** What every transport says about a NUL: the wording the runner's clients already see. */
export const NUL_MESSAGE = 'the text must not contain NUL (\\u0000) characters';

/** What a key holding U+0000 is told. */
export const NUL_KEY_MESSAGE = 'keys must not contain NUL (\\u0000) characters';

export interface NulProblem {
  /** Where under the field: `[]` for the field itself, `['note', 0]` for a nested value or key. */
  readonly path: readonly (string | number)[];
  readonly input: unknown;
  readonly message: string;
}

/** Every string and key holding U+0000, at its own place (a nested JSON value is reported where it is). */
export function nulProblems(value: unknown, path: (string | number)[] = []): NulProblem[] {
  if (typeof value === 'string')
    return value.includes('\u0000') ? [{ path, input: value, message: NUL_MESSAGE }] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nulProblems(item, [...path, i]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [
      ...(key.includes('\u0000') ? [{ path: [...path, key], input: key, message: NUL_KEY_MESSAGE }] : []),
      ...nulProblems(item, [...path, key]),
    ]);
  }
  return [];
}

/** True when a string, or any key or string inside an array or object, contains U+0000. */
export function containsNul(value: unknown): boolean {
  return nulProblems(value).length > 0;
}

/**
 * Postgres text and jsonb cannot hold U+0000: a value holding one (nested JSON included) is a
 * client error at the edge (pydantic would accept it; storing it is impossible), never a 500 later.
 */
export function NoNulCharacters(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: NO_NUL_CHARACTERS,
      validator: {
        validate: (value: unknown) => !containsNul(value),
        defaultMessage: () => NUL_MESSAGE,
      },
    },
    options,
  );
}
