import { describe, expect, it } from '@jest/globals';
import { AppError, RunnerErrorCode, toHttpProblem, type ValidationIssue } from '@suite/errors';
import { validateBody } from '../validation/validate-input.js';
import { CreateJobDto } from './create-job.dto.js';
import { DEFAULT_START_URL } from './job-limits.js';

/** What a client of POST /v1/jobs receives for a body: the 422 status and the JSON detail. */
function rejection(body: unknown): { status: number; detail: ValidationIssue[] } {
  try {
    validateBody(CreateJobDto, body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(RunnerErrorCode.ValidationFailed);
    const problem = toHttpProblem(error);
    // Round-trip through JSON: the assertion is on the bytes a client parses.
    return { status: problem.status, detail: JSON.parse(JSON.stringify(problem.body)).detail };
  }
  throw new Error('expected the body to be rejected');
}

describe('CreateJobDto validation (pydantic-compatible 422s)', () => {
  it('reports a missing query at body.query with the whole body as input', () => {
    expect(rejection({})).toEqual({
      status: 422,
      detail: [{ type: 'missing', loc: ['body', 'query'], msg: 'Field required', input: {} }],
    });
    expect(rejection({ env: 'local_browser', extra: 1 }).detail).toEqual([
      {
        type: 'missing',
        loc: ['body', 'query'],
        msg: 'Field required',
        input: { env: 'local_browser', extra: 1 },
      },
    ]);
  });

  it('rejects an empty query with string_too_short', () => {
    expect(rejection({ query: '' }).detail).toEqual([
      {
        type: 'string_too_short',
        loc: ['body', 'query'],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
    ]);
  });

  it('rejects a query over 20,000 characters with string_too_long', () => {
    const query = 'x'.repeat(20_001);
    expect(rejection({ query }).detail).toEqual([
      {
        type: 'string_too_long',
        loc: ['body', 'query'],
        msg: 'String should have at most 20000 characters',
        input: query,
        ctx: { max_length: 20000 },
      },
    ]);
    expect(validateBody(CreateJobDto, { query: 'x'.repeat(20_000) }).value.query).toHaveLength(20_000);
  });

  it('rejects an unknown env with the pattern of the spec', () => {
    expect(rejection({ query: 'open example.com', env: 'firefox' }).detail).toEqual([
      {
        type: 'string_pattern_mismatch',
        loc: ['body', 'env'],
        msg: "String should match pattern '^(local_browser|hosted_browser)$'",
        input: 'firefox',
        ctx: { pattern: '^(local_browser|hosted_browser)$' },
      },
    ]);
  });

  it('is strict like pydantic JSON mode: "yes" and "true" are not booleans, numbers are not strings', () => {
    expect(rejection({ query: 'q', highlight_mouse: 'yes' }).detail).toEqual([
      {
        type: 'bool_type',
        loc: ['body', 'highlight_mouse'],
        msg: 'Input should be a valid boolean',
        input: 'yes',
      },
    ]);
    expect(rejection({ query: 'q', highlight_mouse: 'true' }).detail[0]!.type).toBe('bool_type');
    expect(rejection({ query: 42 }).detail).toEqual([
      { type: 'string_type', loc: ['body', 'query'], msg: 'Input should be a valid string', input: 42 },
    ]);
  });

  it('reports one problem per field, the type before the length', () => {
    expect(rejection({ query: 5 }).detail).toHaveLength(1);
    expect(rejection({ query: ['a'] }).detail[0]!.type).toBe('string_type');
  });

  it('rejects metadata that is not an object with dict_type', () => {
    expect(rejection({ query: 'q', metadata: [1] }).detail).toEqual([
      { type: 'dict_type', loc: ['body', 'metadata'], msg: 'Input should be a valid dictionary', input: [1] },
    ]);
    expect(rejection({ query: 'q', metadata: 'tag' }).detail[0]!.type).toBe('dict_type');
  });

  it('rejects metadata over 64 KiB of JSON with a value_error that names the limit', () => {
    const metadata = { blob: 'é'.repeat(33_000) }; // 66,000 bytes of UTF-8 in 33,000 characters
    const [problem] = rejection({ query: 'q', metadata }).detail;
    expect(problem).toEqual({
      type: 'value_error',
      loc: ['body', 'metadata'],
      msg: 'Value error, must be at most 65536 bytes (64 KiB) when serialized as JSON, got 66011 bytes',
      input: metadata,
      ctx: { error: 'must be at most 65536 bytes (64 KiB) when serialized as JSON, got 66011 bytes' },
    });
  });

  it('reports every problem at once, in field order', () => {
    const { detail } = rejection({
      metadata: [1],
      highlight_mouse: 'yes',
      env: 'firefox',
      model: 7,
      initial_url: false,
    });
    expect(detail.map((problem) => [problem.loc.join('.'), problem.type])).toEqual([
      ['body.query', 'missing'],
      ['body.initial_url', 'string_type'],
      ['body.model', 'string_type'],
      ['body.env', 'string_pattern_mismatch'],
      ['body.highlight_mouse', 'bool_type'],
      ['body.metadata', 'dict_type'],
    ]);
  });

  it('treats null as a value, not as "left out" (except for metadata, which is nullable)', () => {
    expect(rejection({ query: 'q', env: null }).detail).toEqual([
      { type: 'string_type', loc: ['body', 'env'], msg: 'Input should be a valid string', input: null },
    ]);
    expect(rejection({ query: null }).detail[0]).toMatchObject({ type: 'string_type', input: null });
    expect(validateBody(CreateJobDto, { query: 'q', metadata: null }).value.metadata).toBeNull();
  });

  it('rejects a body that is not an object, and a missing body', () => {
    expect(rejection([{ query: 'q' }]).detail).toEqual([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: [{ query: 'q' }],
      },
    ]);
    expect(rejection('query=q').detail[0]).toMatchObject({ type: 'model_attributes_type', input: 'query=q' });
    expect(rejection(undefined).detail).toEqual([
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
  });

  it('applies the defaults of the spec after validation, keeping snake_case names', () => {
    const { value } = validateBody(CreateJobDto, { query: 'Open the home page' });
    expect(value).toBeInstanceOf(CreateJobDto);
    expect({ ...value }).toEqual({
      query: 'Open the home page',
      initial_url: DEFAULT_START_URL,
      env: 'local_browser',
      highlight_mouse: true,
    });
    expect(DEFAULT_START_URL).toBe('https://duckduckgo.com/');
    expect(value.model).toBeUndefined();
  });

  it('keeps what the client sent and ignores unknown fields', () => {
    const body = {
      query: 'check the title',
      initial_url: 'http://localhost:3000/',
      model: 'claude-haiku',
      env: 'hosted_browser',
      highlight_mouse: false,
      metadata: { nested: { keys: ['kept', 'as', 'sent'] }, camelCase: 1 },
      unknown_field: 'ignored',
    };
    // JSON.parse makes "__proto__" an own key, as a body parser would.
    const raw = JSON.parse(JSON.stringify(body).replace(/}$/, ',"__proto__":{"polluted":true}}'));
    const { value } = validateBody(CreateJobDto, raw);
    expect(JSON.parse(JSON.stringify(value))).toEqual({
      query: 'check the title',
      initial_url: 'http://localhost:3000/',
      model: 'claude-haiku',
      env: 'hosted_browser',
      highlight_mouse: false,
      metadata: { nested: { keys: ['kept', 'as', 'sent'] }, camelCase: 1 },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((value as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('uses the location root it is given (A2A params, MCP arguments)', () => {
    try {
      validateBody(CreateJobDto, {}, 'arguments');
      throw new Error('expected a rejection');
    } catch (error) {
      expect((error as AppError).details.issues).toEqual([
        { type: 'missing', loc: ['arguments', 'query'], msg: 'Field required', input: {} },
      ]);
    }
  });
});

describe('CreateJobDto: NUL characters (Postgres cannot store them)', () => {
  it.each([
    ['query', { query: 'a\u0000b' }, 'a\u0000b'],
    ['initial_url', { query: 'x', initial_url: 'https://example.com/\u0000' }, 'https://example.com/\u0000'],
    ['model', { query: 'x', model: 'm\u0000' }, 'm\u0000'],
  ])('refuses one in %s with a 422 value_error naming it', (field, body, input) => {
    expect(rejection(body)).toEqual({
      status: 422,
      detail: [
        {
          type: 'value_error',
          loc: ['body', field],
          msg: 'Value error, the text must not contain NUL (\\u0000) characters',
          input,
          ctx: { error: 'the text must not contain NUL (\\u0000) characters' },
        },
      ],
    });
  });

  it('refuses one in a nested metadata value or key at its own place, as before', () => {
    expect(
      rejection({ query: 'x', metadata: { note: { deep: ['a\u0000b'] }, 'k\u0000': 1 } }).detail,
    ).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'metadata', 'note', 'deep', 0],
        msg: 'Value error, the text must not contain NUL (\\u0000) characters',
        input: 'a\u0000b',
        ctx: { error: 'the text must not contain NUL (\\u0000) characters' },
      },
      {
        type: 'value_error',
        loc: ['body', 'metadata', 'k\u0000'],
        msg: 'Value error, keys must not contain NUL (\\u0000) characters',
        input: 'k\u0000',
        ctx: { error: 'keys must not contain NUL (\\u0000) characters' },
      },
    ]);
  });
});
