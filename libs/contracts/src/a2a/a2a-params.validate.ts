import { A2aError, A2aErrorCode } from '@suite/errors';
import { getMetadataStorage, type ValidationError } from 'class-validator';
import { fieldNames } from '../validation/dto-fields.js';
import { validateDto } from '../validation/validate-dto.js';
import { isJsonObject, nestedParams, nullableParams } from './a2a-fields.js';

type Dto<T extends object> = new () => T;

/** Keys whose values belong to the client: never renamed (A2A v1.0 §5.5). */
const OPAQUE_KEYS = new Set(['metadata', 'data', 'params']);

const camel = (key: string): string => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Accepts the proto snake_case names as well as camelCase; values of opaque keys stay as sent. */
export function toCamelCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toCamelCase);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const name = camel(key);
    out[name] = OPAQUE_KEYS.has(name) ? item : toCamelCase(item);
  }
  return out;
}

export const invalidParams = (message: string): A2aError => new A2aError(A2aErrorCode.InvalidParams, message);

/** A field's first problem, as the -32602 message a client reads. */
interface Problem {
  field: string;
  message: string;
}

/** Which rule's message a field reports when several failed: presence, then type, then value. */
const RULE_ORDER = ['isDefined', 'isString', 'isBoolean', 'isInt', 'isJsonObject', 'minLength', 'min', 'max'];

/**
 * Validates A2A JSON-RPC params against a DTO: snake_case names are read as camelCase, an int32
 * may be sent as a string, absent params are `{}`. Fields are checked in declaration order and
 * the first problem is the error (-32602), named by its path (`params.message.messageId`).
 */
export function readA2aParams<T extends object>(dto: Dto<T>, raw: unknown): T {
  const { value, problem } = checkParams(dto, raw);
  if (problem) throw invalidParams(problem.message);
  return value;
}

/** Params read in two stages: `first` now, the rest once the service did what comes between. */
export interface StagedParams<T> {
  /** The params; only the `lead` fields are known to be valid. */
  readonly first: T;
  /** The params; throws the first problem of the other fields. */
  rest(): T;
}

/**
 * Validates params once, reporting a problem with a `lead` field now and one with another field
 * only from `rest()`: the service calls it after the step that always came between (finding the
 * task, checking the message's media types), so a client sees the same first error as when each
 * field was read in turn.
 */
export function readStagedParams<T extends object>(
  dto: Dto<T>,
  raw: unknown,
  lead: readonly string[],
): StagedParams<T> {
  const { value, problem } = checkParams(dto, raw, lead);
  if (problem && lead.includes(problem.field)) throw invalidParams(problem.message);
  return {
    first: value,
    rest: () => {
      if (problem) throw invalidParams(problem.message);
      return value;
    },
  };
}

/** Params of a method on one task: its id is read first, the rest once the task was found. */
export interface TaskScopedParams<T> {
  readonly taskId: string;
  /** The params; throws their first problem (so an unknown task is reported before it). */
  rest(): T;
}

/** `readStagedParams` with `taskId` first: the push-config methods. */
export function readTaskScopedParams<T extends { taskId: string }>(
  dto: Dto<T>,
  raw: unknown,
): TaskScopedParams<T> {
  const staged = readStagedParams(dto, raw, ['taskId']);
  return { taskId: staged.first.taskId, rest: staged.rest };
}

function checkParams<T extends object>(
  dto: Dto<T>,
  raw: unknown,
  lead: readonly string[] = [],
): { value: T; problem?: Problem } {
  if (raw !== undefined && raw !== null && !isJsonObject(raw))
    throw invalidParams('params must be an object');
  const sent = (raw === undefined || raw === null ? {} : toCamelCase(raw)) as Record<string, unknown>;
  return check(dto, sent, 'params', lead);
}

type Checked<T> = { value: T; problem?: Problem };

function check<T extends object>(
  dto: Dto<T>,
  sent: Record<string, unknown>,
  path: string,
  lead: readonly string[] = [],
): Checked<T> {
  // Fields in declaration order (a base class's first), the `lead` ones before the others.
  const declared = fieldNames(dto);
  const names = [
    ...lead.filter((name) => declared.includes(name)),
    ...declared.filter((n) => !lead.includes(n)),
  ];
  const nullable = nullableParams(dto);
  const given: Record<string, unknown> = {};
  for (const name of names) {
    if (!Object.hasOwn(sent, name) || sent[name] === undefined) continue;
    if (sent[name] !== null || nullable.has(name)) given[name] = sent[name];
  }
  for (const name of intFields(dto)) {
    const v = given[name];
    if (typeof v === 'string' && /^-?\d+$/.test(v)) given[name] = Number(v);
  }
  const checked = validateDto(dto, given);
  const errors = new Map(checked.ok ? [] : checked.errors.map((error) => [error.property, error]));
  const nested = nestedParams(dto);
  const value = Object.assign(new dto(), given) as Record<string, unknown>;
  const fail = (field: string, message: string): Checked<T> => ({
    value: value as T,
    problem: { field, message },
  });
  for (const name of names) {
    const error = errors.get(name);
    if (error) return fail(name, messageOf(error, path));
    const inner = nested.get(name);
    if (inner && !inner.list && isJsonObject(given[name])) {
      const result = check(inner.dto(), given[name], `${path}.${name}`);
      if (result.problem) return fail(name, result.problem.message);
      value[name] = result.value;
    }
    // The items of a list whose turn comes after this field.
    for (const [list, field] of nested) {
      if (field.list?.after !== name || !Array.isArray(given[list])) continue;
      const items: unknown[] = [];
      for (const [i, item] of (given[list] as unknown[]).entries()) {
        const where = `${path}.${list}[${i}]`;
        if (!isJsonObject(item)) return fail(list, `${where} must be an object`);
        const ruled = field.list.itemRule?.(item);
        if (ruled) return fail(list, `${where} ${ruled}`);
        const result = check(field.dto(), item, where);
        if (result.problem) return fail(list, result.problem.message);
        items.push(result.value);
      }
      value[list] = items;
    }
  }
  return { value: value as T };
}

function messageOf(error: ValidationError, path: string): string {
  const constraints = error.constraints ?? {};
  const failed = Object.keys(constraints);
  const rule = RULE_ORDER.find((name) => failed.includes(name)) ?? failed[0]!;
  const context = error.contexts?.[rule] as { absolute?: boolean } | undefined;
  return context?.absolute ? constraints[rule]! : `${path}.${error.property} ${constraints[rule]}`;
}

function intFields(dto: Dto<object>): string[] {
  return getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .filter((metadata) => metadata.name === 'isInt')
    .map((metadata) => metadata.propertyName);
}
