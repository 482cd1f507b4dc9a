import { describe, expect, it } from '@jest/globals';
import { expectedOneOf, formatLoc, issue, jsonInvalidIssue } from './validation-issue.js';

// Serialised, as a client receives them: key order and absent keys matter.
const json = (value: unknown) => JSON.stringify(value);

describe('issue builders produce pydantic v2 / FastAPI entries', () => {
  it('missing: "Field required", input defaults to null', () => {
    expect(json(issue.missing(['body', 'query']))).toBe(
      '{"type":"missing","loc":["body","query"],"msg":"Field required","input":null}',
    );
    expect(issue.missing(['body', 'query'], {})).toEqual({
      type: 'missing',
      loc: ['body', 'query'],
      msg: 'Field required',
      input: {},
    });
  });

  it('string length messages use the singular for one character', () => {
    expect(issue.stringTooShort(['body', 'query'], '', 1)).toEqual({
      type: 'string_too_short',
      loc: ['body', 'query'],
      msg: 'String should have at least 1 character',
      input: '',
      ctx: { min_length: 1 },
    });
    expect(issue.stringTooShort(['body', 'password'], 'short', 12).msg).toBe(
      'String should have at least 12 characters',
    );
    expect(issue.stringTooLong(['body', 'query'], 'x', 20000)).toMatchObject({
      type: 'string_too_long',
      msg: 'String should have at most 20000 characters',
      ctx: { max_length: 20000 },
    });
  });

  it('pattern, type and number messages match pydantic word for word', () => {
    expect(
      json(issue.stringPatternMismatch(['body', 'env'], 'firefox', '^(local_browser|hosted_browser)$')),
    ).toBe(
      '{"type":"string_pattern_mismatch","loc":["body","env"],' +
        '"msg":"String should match pattern \'^(local_browser|hosted_browser)$\'","input":"firefox",' +
        '"ctx":{"pattern":"^(local_browser|hosted_browser)$"}}',
    );
    expect(issue.stringType(['body', 'query'], 5).msg).toBe('Input should be a valid string');
    expect(issue.boolType(['body', 'highlight_mouse'], 'yes').msg).toBe('Input should be a valid boolean');
    expect(issue.boolParsing(['query', 'x'], 'maybe').msg).toBe(
      'Input should be a valid boolean, unable to interpret input',
    );
    expect(issue.dictType(['body', 'metadata'], [1]).msg).toBe('Input should be a valid dictionary');
    expect(issue.intType(['query', 'limit'], true).msg).toBe('Input should be a valid integer');
    expect(issue.intParsing(['query', 'limit'], 'abc').msg).toBe(
      'Input should be a valid integer, unable to parse string as an integer',
    );
    expect(issue.intFromFloat(['body', 'n'], 1.5).msg).toBe(
      'Input should be a valid integer, got a number with a fractional part',
    );
    expect(issue.greaterThanEqual(['query', 'limit'], '0', 1)).toEqual({
      type: 'greater_than_equal',
      loc: ['query', 'limit'],
      msg: 'Input should be greater than or equal to 1',
      input: '0',
      ctx: { ge: 1 },
    });
    expect(issue.lessThanEqual(['query', 'limit'], '201', 200)).toMatchObject({
      msg: 'Input should be less than or equal to 200',
      ctx: { le: 200 },
    });
    expect(issue.modelAttributesType(['body'], 'text').msg).toBe(
      'Input should be a valid dictionary or object to extract fields from',
    );
  });

  it('enum lists the allowed values the way pydantic does', () => {
    expect(
      issue.enum(['query', 'status'], 'done', ['queued', 'running', 'succeeded', 'failed', 'cancelled']),
    ).toEqual({
      type: 'enum',
      loc: ['query', 'status'],
      msg: "Input should be 'queued', 'running', 'succeeded', 'failed' or 'cancelled'",
      input: 'done',
      ctx: { expected: "'queued', 'running', 'succeeded', 'failed' or 'cancelled'" },
    });
    expect(issue.literalError(['body', 'kind'], 'x', ['a', 'b'])).toEqual({
      type: 'literal_error',
      loc: ['body', 'kind'],
      msg: "Input should be 'a' or 'b'",
      input: 'x',
      ctx: { expected: "'a' or 'b'" },
    });
    expect(expectedOneOf(['a'])).toBe("'a'");
    expect(expectedOneOf(['a', 'b'])).toBe("'a' or 'b'");
    expect(expectedOneOf([1, 2, 3])).toBe('1, 2 or 3');
  });

  it('json_invalid points at the character position with an empty input', () => {
    expect(json(issue.jsonInvalid(12, 'Expecting value'))).toBe(
      '{"type":"json_invalid","loc":["body",12],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}',
    );
  });

  it('builds json_invalid from the error JSON.parse throws', () => {
    const parse = (text: string) => {
      try {
        JSON.parse(text);
      } catch (error) {
        return jsonInvalidIssue(error, text);
      }
      throw new Error('expected invalid JSON');
    };
    expect(parse('{"query": "a",}')).toMatchObject({ type: 'json_invalid', loc: ['body', 14], input: {} });
    expect(parse('{"query": ')).toMatchObject({ loc: ['body', 10], msg: 'JSON decode error' });
    expect(parse('{"query": ').ctx).toEqual({ error: expect.any(String) });
  });

  it('url and value errors carry their reason in ctx', () => {
    expect(issue.urlParsing(['body', 'url'], 'nope', 'relative URL without a base')).toEqual({
      type: 'url_parsing',
      loc: ['body', 'url'],
      msg: 'Input should be a valid URL, relative URL without a base',
      input: 'nope',
      ctx: { error: 'relative URL without a base' },
    });
    expect(issue.urlScheme(['body', 'url'], 'ftp://x', ['http', 'https'])).toMatchObject({
      msg: "URL scheme should be 'http' or 'https'",
      ctx: { expected_schemes: "'http' or 'https'" },
    });
    expect(issue.valueError(['body', 'metadata'], {}, 'too big')).toMatchObject({
      type: 'value_error',
      msg: 'Value error, too big',
      ctx: { error: 'too big' },
    });
  });

  it('formats a location with dots, indexes included', () => {
    expect(formatLoc(['body', 'steps', 0, 'text'])).toBe('body.steps.0.text');
  });

  it('copies the location so later changes to the caller array do not leak in', () => {
    const loc = ['body', 'query'];
    const built = issue.missing(loc);
    loc.push('x');
    expect(built.loc).toEqual(['body', 'query']);
  });
});
