import { issue, type ValidationIssue, type ValidationLoc } from '@suite/errors';
import { getMetadataStorage, type ValidationError } from 'class-validator';
import { jsonByteLength, MAX_JSON_BYTES } from './max-json-bytes.decorator.js';
import { NO_NUL_CHARACTERS, nulProblems } from './no-nul-characters.decorator.js';

export type InputMode = 'json' | 'query';

export interface DetailContext {
  /** Query values arrive as strings, so their parse failures get pydantic's `*_parsing` types. */
  readonly mode: InputMode;
  /**
   * What the client sent for each top-level field, before any query-string coercion: pydantic
   * echoes the original (`"0"`, not `0`).
   */
  readonly sent: Readonly<Record<string, unknown>>;
}

/**
 * pydantic reports one problem per field, the type before the constraints; class-validator
 * reports every failed constraint, so the first of these that failed is the one shown.
 */
const PRECEDENCE = [
  'isString',
  'isBoolean',
  'isInt',
  'isObject',
  'isEnum',
  'isIn',
  'minLength',
  'maxLength',
  'matches',
  'min',
  'max',
  MAX_JSON_BYTES,
];

/** class-validator's errors as pydantic v2 issues, in field order, every field reported. */
export function toValidationIssues(
  errors: readonly ValidationError[],
  loc: ValidationLoc,
  container: unknown,
  context: DetailContext,
): ValidationIssue[] {
  return errors.flatMap((error) => mapError(error, loc, container, context, true));
}

function mapError(
  error: ValidationError,
  loc: ValidationLoc,
  container: unknown,
  context: DetailContext,
  topLevel: boolean,
): ValidationIssue[] {
  const key = Array.isArray(container) ? Number(error.property) : error.property;
  const here = [...loc, key];
  const value: unknown = error.value;
  if (value === undefined) {
    // pydantic echoes the enclosing object for a missing body field; FastAPI sends null for
    // a missing query parameter.
    return [issue.missing(here, context.mode === 'query' ? null : container)];
  }
  const failed = Object.keys(error.constraints ?? {}).filter((name) => name !== 'isDefined');
  if (!failed.length) {
    return (error.children ?? []).flatMap((child) => mapError(child, here, value, context, false));
  }
  const input =
    topLevel && Object.hasOwn(context.sent, error.property) ? context.sent[error.property] : value;
  const name = PRECEDENCE.find((candidate) => failed.includes(candidate)) ?? failed[0]!;
  // Each NUL where it is (a metadata value at body.metadata.note, a key at its own place).
  if (name === NO_NUL_CHARACTERS)
    return nulProblems(value).map((problem) =>
      issue.valueError([...here, ...problem.path], problem.input, problem.message),
    );
  const constraints = constraintsOf(error, name);
  return [toIssue(name, constraints, here, input, value, context, error.constraints?.[name] ?? 'is invalid')];
}

function constraintsOf(error: ValidationError, name: string): unknown[] {
  const target = error.target?.constructor;
  if (!target) return [];
  const metadata = getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .find((entry) => entry.propertyName === error.property && entry.name === name);
  return metadata?.constraints ?? [];
}

function toIssue(
  name: string,
  constraints: unknown[],
  loc: ValidationLoc,
  input: unknown,
  value: unknown,
  context: DetailContext,
  fallbackMessage: string,
): ValidationIssue {
  switch (name) {
    case 'isString':
      return issue.stringType(loc, input);
    case 'isBoolean':
      return context.mode === 'query' && typeof value === 'string'
        ? issue.boolParsing(loc, input)
        : issue.boolType(loc, input);
    case 'isInt':
      if (typeof value === 'string') return issue.intParsing(loc, input);
      if (typeof value === 'number' && Number.isFinite(value)) return issue.intFromFloat(loc, input);
      return issue.intType(loc, input);
    case 'isObject':
      return issue.dictType(loc, input);
    case 'isEnum':
      return issue.enum(
        loc,
        input,
        (constraints[1] as unknown[] | undefined) ?? Object.values(constraints[0] ?? {}),
      );
    case 'isIn':
      return issue.literalError(loc, input, (constraints[0] as unknown[] | undefined) ?? []);
    case 'minLength':
      return issue.stringTooShort(loc, input, Number(constraints[0]));
    case 'maxLength':
      return issue.stringTooLong(loc, input, Number(constraints[0]));
    case 'matches': {
      const pattern = constraints[0];
      return issue.stringPatternMismatch(
        loc,
        input,
        pattern instanceof RegExp ? pattern.source : String(pattern),
      );
    }
    case 'min':
      return issue.greaterThanEqual(loc, input, Number(constraints[0]));
    case 'max':
      return issue.lessThanEqual(loc, input, Number(constraints[0]));
    case MAX_JSON_BYTES: {
      const limit = Number(constraints[0]);
      return issue.valueError(
        loc,
        input,
        `must be at most ${limit} bytes (${formatKiB(limit)}) when serialized as JSON, got ${jsonByteLength(value)} bytes`,
      );
    }
    default:
      // A decorator without a pydantic counterpart: keep class-validator's own words.
      return issue.valueError(loc, input, fallbackMessage);
  }
}

function formatKiB(bytes: number): string {
  return `${Math.round((bytes / 1024) * 100) / 100} KiB`;
}
