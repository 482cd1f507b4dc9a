/** Where a problem is: `['body', 'query']`, `['query', 'limit']`, `['body', 'steps', 0, 'text']`. */
export type ValidationLoc = (string | number)[];

/**
 * One validation problem in the shape pydantic v2 / FastAPI return in a 422 `detail` array, so
 * clients written against FastAPI services read ours unchanged.
 */
export type ValidationIssue = {
  type: string;
  loc: ValidationLoc;
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
};

/** `body.steps.0.text`: pydantic's own way of printing a location. */
export function formatLoc(loc: readonly (string | number)[]): string {
  return loc.join('.');
}

/** pydantic's wording for a set of allowed literals: `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`. */
export function expectedOneOf(values: readonly unknown[]): string {
  const shown = values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value)));
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

// Key order matches pydantic's (type, loc, msg, input, ctx) so bodies compare equal byte for byte.
function make(
  type: string,
  loc: readonly (string | number)[],
  msg: string,
  input: unknown,
  ctx?: Record<string, unknown>,
): ValidationIssue {
  const result: ValidationIssue = { type, loc: [...loc], msg, input };
  if (ctx) result.ctx = ctx;
  return result;
}

const characters = (n: number): string => `${n} character${n === 1 ? '' : 's'}`;

type Loc = readonly (string | number)[];

/** Builders with pydantic v2's exact `type`, `msg` and `ctx` for the checks this suite performs. */
export const issue = {
  /** A required field is absent. pydantic echoes the enclosing object as `input` (null for query). */
  missing: (loc: Loc, input: unknown = null) => make('missing', loc, 'Field required', input),
  modelAttributesType: (loc: Loc, input: unknown) =>
    make(
      'model_attributes_type',
      loc,
      'Input should be a valid dictionary or object to extract fields from',
      input,
    ),
  /** The body is not JSON; FastAPI reports the character position and an empty `input`. */
  jsonInvalid: (position: number, error: string, loc: Loc = ['body', position]) =>
    make('json_invalid', loc, 'JSON decode error', {}, { error }),
  stringType: (loc: Loc, input: unknown) => make('string_type', loc, 'Input should be a valid string', input),
  stringTooShort: (loc: Loc, input: unknown, minLength: number) =>
    make('string_too_short', loc, `String should have at least ${characters(minLength)}`, input, {
      min_length: minLength,
    }),
  stringTooLong: (loc: Loc, input: unknown, maxLength: number) =>
    make('string_too_long', loc, `String should have at most ${characters(maxLength)}`, input, {
      max_length: maxLength,
    }),
  stringPatternMismatch: (loc: Loc, input: unknown, pattern: string) =>
    make('string_pattern_mismatch', loc, `String should match pattern '${pattern}'`, input, { pattern }),
  boolType: (loc: Loc, input: unknown) => make('bool_type', loc, 'Input should be a valid boolean', input),
  boolParsing: (loc: Loc, input: unknown) =>
    make('bool_parsing', loc, 'Input should be a valid boolean, unable to interpret input', input),
  dictType: (loc: Loc, input: unknown) => make('dict_type', loc, 'Input should be a valid dictionary', input),
  intType: (loc: Loc, input: unknown) => make('int_type', loc, 'Input should be a valid integer', input),
  intParsing: (loc: Loc, input: unknown) =>
    make('int_parsing', loc, 'Input should be a valid integer, unable to parse string as an integer', input),
  intFromFloat: (loc: Loc, input: unknown) =>
    make(
      'int_from_float',
      loc,
      'Input should be a valid integer, got a number with a fractional part',
      input,
    ),
  greaterThanEqual: (loc: Loc, input: unknown, ge: number) =>
    make('greater_than_equal', loc, `Input should be greater than or equal to ${ge}`, input, { ge }),
  lessThanEqual: (loc: Loc, input: unknown, le: number) =>
    make('less_than_equal', loc, `Input should be less than or equal to ${le}`, input, { le }),
  enum: (loc: Loc, input: unknown, allowed: readonly unknown[]) => {
    const expected = expectedOneOf(allowed);
    return make('enum', loc, `Input should be ${expected}`, input, { expected });
  },
  /** A `Literal[...]` field (class-validator's `@IsIn`) got another value. */
  literalError: (loc: Loc, input: unknown, allowed: readonly unknown[]) => {
    const expected = expectedOneOf(allowed);
    return make('literal_error', loc, `Input should be ${expected}`, input, { expected });
  },
  urlParsing: (loc: Loc, input: unknown, error: string) =>
    make('url_parsing', loc, `Input should be a valid URL, ${error}`, input, { error }),
  urlScheme: (loc: Loc, input: unknown, schemes: readonly string[]) => {
    const expected = expectedOneOf(schemes);
    return make('url_scheme', loc, `URL scheme should be ${expected}`, input, { expected_schemes: expected });
  },
  /** A rule of our own (size limits, cross-field checks); pydantic prefixes the text the same way. */
  valueError: (loc: Loc, input: unknown, error: string) =>
    make('value_error', loc, `Value error, ${error}`, input, { error }),
} as const;

/**
 * FastAPI's `json_invalid` entry for a body that JSON.parse rejected. V8 names the position in
 * most messages; a truncated body is reported at its end when the text is given.
 */
export function jsonInvalidIssue(error: unknown, text?: string): ValidationIssue {
  const message = error instanceof Error ? error.message : String(error);
  const at = /at position (\d+)/.exec(message);
  let position = 0;
  if (at) position = Number(at[1]);
  else if (text !== undefined && /end of JSON input/i.test(message)) position = text.length;
  return issue.jsonInvalid(position, message);
}
