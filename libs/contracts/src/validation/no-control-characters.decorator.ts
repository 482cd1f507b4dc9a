import { ValidateBy, type ValidationOptions } from 'class-validator';

export const NO_CONTROL_CHARACTERS = 'noControlCharacters';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** A string without C0 control characters or DEL: they would break a mail header or a log line. */
export function NoControlCharacters(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: NO_CONTROL_CHARACTERS,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !CONTROL_CHARACTER.test(value),
      },
    },
    options,
  );
}
