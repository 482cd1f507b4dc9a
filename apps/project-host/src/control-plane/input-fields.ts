import { AuthError, AuthErrorCode } from '@suite/errors';

/**
 * Readers for control-plane bodies and query strings. Each problem is a 400 invalid-request whose
 * message starts with the field's name; types are strict (`"true"` is not a boolean, `"25"` is
 * not a port). Unknown fields are ignored.
 */
export type Fields = Record<string, unknown>;

export function invalid(field: string, problem: string): AuthError {
  return new AuthError(AuthErrorCode.InvalidRequest, `${field} ${problem}`);
}

export function bodyObject(raw: unknown): Fields {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new AuthError(AuthErrorCode.InvalidRequest, 'The body must be a JSON object.');
  }
  return raw as Fields;
}

/** Control characters would let a value break out of a mail header or a log line. */
const hasControlCharacter = (text: string): boolean =>
  [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

interface StringRule {
  max?: number;
  /** Trim surrounding white space first (names, hosts); secrets are kept as sent. */
  trim?: boolean;
}

function checkString(fields: Fields, name: string, rule: StringRule): string {
  const value = fields[name];
  if (typeof value !== 'string') throw invalid(name, 'must be a string');
  const text = rule.trim ? value.trim() : value;
  if (!text) throw invalid(name, 'must not be empty');
  if (hasControlCharacter(text)) throw invalid(name, 'must not contain control characters');
  const max = rule.max ?? 255;
  if (text.length > max) throw invalid(name, `must be at most ${max} characters`);
  return text;
}

export function requiredString(fields: Fields, name: string, rule: StringRule = {}): string {
  if (fields[name] === undefined || fields[name] === null) throw invalid(name, 'is required');
  return checkString(fields, name, rule);
}

/** undefined when left out, null when sent as null (clear it), the string otherwise. */
export function optionalString(
  fields: Fields,
  name: string,
  rule: StringRule = {},
): string | null | undefined {
  if (fields[name] === undefined) return undefined;
  if (fields[name] === null) return null;
  return checkString(fields, name, rule);
}

export function requiredBoolean(fields: Fields, name: string): boolean {
  const value = fields[name];
  if (value === undefined || value === null) throw invalid(name, 'is required');
  if (typeof value !== 'boolean') throw invalid(name, 'must be true or false');
  return value;
}

export function optionalBoolean(fields: Fields, name: string): boolean | undefined {
  return fields[name] === undefined ? undefined : requiredBoolean(fields, name);
}

export function requiredInteger(fields: Fields, name: string, min: number, max: number): number {
  const value = fields[name];
  if (value === undefined || value === null) throw invalid(name, 'is required');
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(name, `must be a whole number from ${min} to ${max}`);
  }
  return value;
}

export function requiredOneOf<T extends string>(fields: Fields, name: string, choices: readonly T[]): T {
  const value = fields[name];
  if (value === undefined || value === null) throw invalid(name, 'is required');
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw invalid(name, `must be one of ${choices.map((c) => `"${c}"`).join(', ')}`);
  }
  return value as T;
}

/** A query-string integer (`?page=2`); the last value counts when a parameter is repeated. */
export function queryInteger(
  query: Fields,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = queryString(query, name);
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw invalid(name, `must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

export function queryString(query: Fields, name: string): string | undefined {
  const value = query[name];
  const last = Array.isArray(value) ? value.at(-1) : value;
  return typeof last === 'string' ? last : undefined;
}
