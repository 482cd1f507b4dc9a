import { ValidateBy, type ValidationOptions } from 'class-validator';

export const MAX_JSON_BYTES = 'maxJsonBytes';

const encoder = new TextEncoder();

/** Size of the value as the UTF-8 JSON it is stored and sent as. */
export function jsonByteLength(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 0 : encoder.encode(text).length;
}

/** Caps a free-form value by its serialised size, since its shape cannot be limited field by field. */
export function MaxJsonBytes(limit: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: MAX_JSON_BYTES,
      constraints: [limit],
      validator: {
        validate: (value: unknown) => jsonByteLength(value) <= limit,
        defaultMessage: () => `$property must be at most ${limit} bytes as JSON`,
      },
    },
    options,
  );
}
