import { ValidateBy, type ValidationOptions } from 'class-validator';

export const NO_NUL_CHARACTERS = 'noNulCharacters';

/** What every transport says about a NUL: the wording the runner's clients already see. */
export const NUL_MESSAGE = 'the text must not contain NUL (\\u0000) characters';

/** True when a string, or any key or string inside an array or object, contains U+0000. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item));
  }
  return false;
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
