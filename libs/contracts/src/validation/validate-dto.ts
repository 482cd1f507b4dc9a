import { instanceToPlain, plainToClassFromExist } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { fieldNames } from './dto-fields.js';

export type DtoClass<T extends object> = new () => T;

export interface DtoOptions {
  /**
   * Runs the DTO's class-transformer decorators: trimming on the way in, lower-casing on the way
   * out. Left off, every value (nested JSON included) is validated and kept exactly as sent.
   */
  readonly normalise?: boolean;
  /** Each field's rules in the order listed, the first that fails only. */
  readonly stopAtFirstError?: boolean;
}

/** The typed, valid DTO, or class-validator's problems for a transport's mapper to word. */
export type DtoCheck<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly errors: readonly ValidationError[];
      /** The DTO's fields in declaration order: the order the mappers report problems in. */
      readonly fields: readonly string[];
    };

/**
 * The one class-validator entry point: checks the DTO's fields of `input` (unknown fields are
 * ignored, types are strict) and answers the DTO with its defaults for what was left out, or every
 * problem. It throws nothing: each transport maps the problems to its own error (`/v1` 422
 * `detail`, `/api/user` and the control plane `{code,message}`, A2A JSON-RPC, MCP `isError`).
 */
export function validateDto<T extends object>(
  dto: DtoClass<T>,
  input: Readonly<Record<string, unknown>>,
  options: DtoOptions = {},
): DtoCheck<T> {
  const fields = fieldNames(dto);
  const given: Record<string, unknown> = {};
  for (const name of fields) {
    if (Object.hasOwn(input, name) && input[name] !== undefined) given[name] = input[name];
  }
  // Validated without running the constructor, so a default never hides a missing field.
  const bare = Object.create(dto.prototype) as T;
  const candidate = options.normalise ? plainToClassFromExist(bare, given) : Object.assign(bare, given);
  const errors = validateSync(candidate, {
    forbidUnknownValues: false,
    stopAtFirstError: options.stopAtFirstError,
  });
  if (errors.length) return { ok: false, errors, fields };
  const values = (options.normalise ? instanceToPlain(candidate) : candidate) as Record<string, unknown>;
  const value = new dto();
  for (const name of fields) {
    if (values[name] !== undefined) (value as Record<string, unknown>)[name] = values[name];
  }
  return { ok: true, value };
}
