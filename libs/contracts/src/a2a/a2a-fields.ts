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

/** How a nested params field is checked: one object, or (`list`) each item of an array. */
export interface NestedField {
  dto: () => new () => object;
  list?: {
    /** The items are checked after this field (the order they were always read in). */
    after: string;
    /** A rule on the whole item, checked before its fields (`must have exactly one of …`). */
    itemRule?: (item: Record<string, unknown>) => string | undefined;
  };
}

const NESTED = new Map<object, Map<string, NestedField>>();
/** Fields where `null` is a value (checked, kept), not "left out". */
const KEEPS_NULL = new Map<object, Set<string>>();

function inherited<V>(registry: Map<object, V>, dto: object): V[] {
  const found: V[] = [];
  for (
    let type: object | null = dto;
    type && type !== Function.prototype;
    type = Object.getPrototypeOf(type)
  ) {
    const entry = registry.get(type);
    if (entry) found.push(entry);
  }
  return found;
}

/** The nested params fields of `dto` and of the classes it extends. */
export function nestedParams(dto: object): ReadonlyMap<string, NestedField> {
  const fields = new Map<string, NestedField>();
  for (const own of inherited(NESTED, dto)) {
    for (const [name, field] of own) if (!fields.has(name)) fields.set(name, field);
  }
  return fields;
}

/** The fields of `dto` (and its bases) where `null` is a value. */
export function nullableParams(dto: object): ReadonlySet<string> {
  return new Set(inherited(KEEPS_NULL, dto).flatMap((own) => [...own]));
}

function addNested(target: object, key: string | symbol, field: NestedField): void {
  const fields = NESTED.get(target.constructor) ?? new Map<string, NestedField>();
  fields.set(String(key), field);
  NESTED.set(target.constructor, fields);
}

/** `null` is a value of this field: only a field left out is absent (Part's `text`, `data`, …). */
export function KeepsNull(): PropertyDecorator {
  return (target, key) => {
    const fields = KEEPS_NULL.get(target.constructor) ?? new Set<string>();
    fields.add(String(key));
    KEEPS_NULL.set(target.constructor, fields);
  };
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

/** A nested params object, checked by `dto`'s rules; `required`: it must be sent. */
export function A2aNested(
  dto: () => new () => object,
  options: { required?: boolean } = {},
): PropertyDecorator {
  return (target, key) => {
    if (options.required) IsDefined({ message: 'is required' })(target, key);
    else IsOptional()(target, key);
    IsJsonObject()(target, key);
    addNested(target, key, { dto });
  };
}

/**
 * A non-empty array of nested params objects (`message.parts`): the array at the field's place,
 * each item (`parts[0]` …) after the field `after`; `message` is the whole error message.
 */
export function A2aNestedList(
  dto: () => new () => object,
  list: NonNullable<NestedField['list']> & { message: string },
): PropertyDecorator {
  return (target, key) => {
    ValidateBy(
      {
        name: 'isNonEmptyArray',
        validator: { validate: (value: unknown) => Array.isArray(value) && value.length > 0 },
      },
      absolute(list.message),
    )(target, key);
    addNested(target, key, { dto, list: { after: list.after, itemRule: list.itemRule } });
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
