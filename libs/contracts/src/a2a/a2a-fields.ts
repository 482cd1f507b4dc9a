import {
  IsBoolean,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  MinLength,
  ValidateBy,
  type ValidationOptions,
} from 'class-validator';

/**
 * Field rules of A2A JSON-RPC params. Each message is what follows the field's path
 * (`params.id` + ` is required`); one marked absolute is the whole error message.
 */
const ABSOLUTE = { absolute: true };

export const absolute = (message: string): ValidationOptions => ({ message, context: ABSOLUTE });

/** A nested params object: its own rules run with its path (`params.authentication.scheme`). */
const NESTED = new Map<object, Map<string, () => new () => object>>();

/** The nested params fields of `dto` and of the classes it extends. */
export function nestedParams(dto: object): ReadonlyMap<string, () => new () => object> {
  const fields = new Map<string, () => new () => object>();
  for (
    let type: object | null = dto;
    type && type !== Function.prototype;
    type = Object.getPrototypeOf(type)
  ) {
    for (const [name, inner] of NESTED.get(type) ?? []) if (!fields.has(name)) fields.set(name, inner);
  }
  return fields;
}

/** A string that must be present and not empty. */
export function A2aRequiredString(): PropertyDecorator {
  return (target, key) => {
    IsDefined({ message: 'is required' })(target, key);
    IsString({ message: 'must be a string' })(target, key);
    MinLength(1, { message: 'is required' })(target, key);
  };
}

/** A string that may be left out (or null). */
export function A2aString(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsString({ message: 'must be a string' })(target, key);
  };
}

export function A2aBoolean(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsBoolean({ message: 'must be true or false' })(target, key);
  };
}

/** An integer in [min, max]; proto JSON allows an int32 as a string too (`"5"`). */
export function A2aInt(min: number, max: number): PropertyDecorator {
  const message = `must be an integer from ${min} to ${max}`;
  return (target, key) => {
    IsOptional()(target, key);
    IsInt({ message })(target, key);
    Min(min, { message })(target, key);
    Max(max, { message })(target, key);
  };
}

export const INT32_MAX = 2 ** 31 - 1;

/** A JSON object held as sent (metadata): its keys are never renamed. */
export function A2aJsonObject(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsJsonObject()(target, key);
  };
}

/** A nested params object that may be left out, checked by `dto`'s rules. */
export function A2aNested(dto: () => new () => object): PropertyDecorator {
  return (target, key) => {
    A2aJsonObject()(target, key);
    const fields = NESTED.get(target.constructor) ?? new Map<string, () => new () => object>();
    fields.set(String(key), dto);
    NESTED.set(target.constructor, fields);
  };
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

function IsJsonObject(): PropertyDecorator {
  return ValidateBy({
    name: 'isJsonObject',
    validator: { validate: isJsonObject, defaultMessage: () => 'must be an object' },
  });
}
