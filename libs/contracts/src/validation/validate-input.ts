import { issue, RunnerError, type ValidationIssue, type ValidationLoc } from '@suite/errors';
import { getMetadataStorage } from 'class-validator';
import { fieldNames } from './dto-fields.js';
import { type DtoClass, validateDto } from './validate-dto.js';
import { toValidationIssues, type InputMode } from './validation-detail.mapper.js';

export interface Validated<T> {
  /** A DTO instance holding the fields that were sent, with the class's defaults for the rest. */
  readonly value: T;
}

/**
 * Validates a parsed JSON body against a DTO the way FastAPI/pydantic v2 would: every problem is
 * reported (not just the first) with pydantic's `type`, `msg`, `ctx` and `loc`, types are strict
 * as in pydantic's JSON mode (`"true"` is not a boolean, `5` is not a string), unknown fields are
 * ignored, and the DTO's defaults fill what was left out.
 *
 * @throws RunnerError `validation_failed` with `details.issues`.
 */
export function validateBody<T extends object>(dto: DtoClass<T>, raw: unknown, loc = 'body'): Validated<T> {
  if (raw === undefined || raw === null) throw RunnerError.validation([issue.missing([loc], null)]);
  if (!isPlainObject(raw)) throw RunnerError.validation([issue.modelAttributesType([loc], raw)]);
  return validateFields(dto, raw, raw, [loc], 'json');
}

/**
 * As `validateBody`, for one object inside a body (an item of a list): problems carry the full
 * location, e.g. `["body", "tests", 2, "title"]`.
 *
 * @throws RunnerError `validation_failed` with `details.issues`.
 */
export function validateItem<T extends object>(
  dto: DtoClass<T>,
  raw: unknown,
  loc: ValidationLoc,
): Validated<T> {
  if (raw === undefined || raw === null) throw RunnerError.validation([issue.missing(loc, null)]);
  if (!isPlainObject(raw)) throw RunnerError.validation([issue.modelAttributesType(loc, raw)]);
  return validateFields(dto, raw, raw, loc, 'json');
}

/**
 * Validates query-string (or path) parameters: strings are parsed as pydantic parses them
 * (`"abc"` for an integer is `int_parsing`, `"0"` below a minimum of 1 is `greater_than_equal`
 * with input `"0"`), a repeated scalar parameter counts by its last value, as in FastAPI.
 *
 * @throws RunnerError `validation_failed` with `details.issues`.
 */
export function validateQuery<T extends object>(dto: DtoClass<T>, raw: unknown, loc = 'query'): Validated<T> {
  const params = isPlainObject(raw) ? raw : {};
  const sent: Record<string, unknown> = {};
  for (const name of fieldNames(dto)) {
    if (!Object.hasOwn(params, name)) continue;
    const value = params[name];
    sent[name] = Array.isArray(value) ? value.at(-1) : value;
  }
  return validateFields(dto, sent, coerceQueryValues(dto, sent), [loc], 'query');
}

function validateFields<T extends object>(
  dto: DtoClass<T>,
  sent: Record<string, unknown>,
  values: Record<string, unknown>,
  loc: ValidationLoc,
  mode: InputMode,
): Validated<T> {
  const checked = validateDto(dto, values);
  if (checked.ok) return { value: checked.value };
  const issues = toValidationIssues(checked.errors, loc, sent, { mode, sent });
  throw RunnerError.validation(issues.sort(byFieldOrder(checked.fields, loc)));
}

function byFieldOrder(names: readonly string[], loc: ValidationLoc) {
  const rank = (problem: ValidationIssue) => {
    const inside = loc.every((part, i) => problem.loc[i] === part);
    const field = inside ? problem.loc[loc.length] : undefined;
    const index = typeof field === 'string' ? names.indexOf(field) : -1;
    return index === -1 ? names.length : index;
  };
  return (a: ValidationIssue, b: ValidationIssue) => rank(a) - rank(b);
}

const INTEGER = /^\s*[+-]?\d+\s*$/;
// pydantic's lax boolean words (case-insensitive).
const TRUE_WORDS = new Set(['1', 'true', 't', 'yes', 'y', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'f', 'no', 'n', 'off']);

/**
 * Parses the strings of integer and boolean fields; anything unparseable stays a string so the
 * validator rejects it and the mapper reports the pydantic `*_parsing` type.
 */
function coerceQueryValues(dto: DtoClass<object>, sent: Record<string, unknown>): Record<string, unknown> {
  const kinds = new Map<string, 'int' | 'bool'>();
  for (const metadata of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    if (metadata.name === 'isInt') kinds.set(metadata.propertyName, 'int');
    if (metadata.name === 'isBoolean') kinds.set(metadata.propertyName, 'bool');
  }
  const values: Record<string, unknown> = { ...sent };
  for (const [name, kind] of kinds) {
    const value = sent[name];
    if (typeof value !== 'string') continue;
    if (kind === 'int' && INTEGER.test(value)) values[name] = Number(value.trim());
    if (kind === 'bool') {
      const word = value.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) values[name] = true;
      if (FALSE_WORDS.has(word)) values[name] = false;
    }
  }
  return values;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
