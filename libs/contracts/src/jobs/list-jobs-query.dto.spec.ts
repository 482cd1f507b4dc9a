import { describe, expect, it } from '@jest/globals';
import { toHttpProblem, type ValidationIssue } from '@suite/errors';
import { validateQuery } from '../validation/validate-input.js';
import { JobStatus } from './job-status.enum.js';
import { ListJobsQueryDto } from './list-jobs-query.dto.js';

function rejection(query: Record<string, unknown>): ValidationIssue[] {
  try {
    validateQuery(ListJobsQueryDto, query);
  } catch (error) {
    const problem = toHttpProblem(error);
    expect(problem.status).toBe(422);
    return JSON.parse(JSON.stringify(problem.body)).detail;
  }
  throw new Error('expected the query to be rejected');
}

describe('ListJobsQueryDto validation (query strings parsed like pydantic)', () => {
  it('defaults limit to 50 and leaves status unset', () => {
    const { value } = validateQuery(ListJobsQueryDto, {});
    expect({ ...value }).toEqual({ limit: 50 });
    expect(validateQuery(ListJobsQueryDto, undefined).value.limit).toBe(50);
  });

  it('parses limit and status from strings', () => {
    expect({ ...validateQuery(ListJobsQueryDto, { limit: '200', status: 'failed' }).value }).toEqual({
      limit: 200,
      status: JobStatus.Failed,
    });
    expect(validateQuery(ListJobsQueryDto, { limit: ' 7 ' }).value.limit).toBe(7);
  });

  it('rejects a limit that is not an integer with int_parsing and echoes the string', () => {
    expect(rejection({ limit: 'abc' })).toEqual([
      {
        type: 'int_parsing',
        loc: ['query', 'limit'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'abc',
      },
    ]);
    expect(rejection({ limit: '1.5' })[0]!.type).toBe('int_parsing');
    expect(rejection({ limit: '' })[0]!.type).toBe('int_parsing');
  });

  it('rejects limits out of 1..200 with the bound in ctx and the original string as input', () => {
    expect(rejection({ limit: '0' })).toEqual([
      {
        type: 'greater_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
    ]);
    expect(rejection({ limit: '201' })).toEqual([
      {
        type: 'less_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be less than or equal to 200',
        input: '201',
        ctx: { le: 200 },
      },
    ]);
  });

  it('rejects an unknown status with enum, listing the five statuses', () => {
    expect(rejection({ status: 'done' })).toEqual([
      {
        type: 'enum',
        loc: ['query', 'status'],
        msg: "Input should be 'queued', 'running', 'succeeded', 'failed' or 'cancelled'",
        input: 'done',
        ctx: { expected: "'queued', 'running', 'succeeded', 'failed' or 'cancelled'" },
      },
    ]);
  });

  it('reports both parameters at once and takes the last value of a repeated one', () => {
    expect(rejection({ limit: ['5', 'abc'], status: 'nope' }).map((problem) => problem.type)).toEqual([
      'int_parsing',
      'enum',
    ]);
    expect(validateQuery(ListJobsQueryDto, { limit: ['abc', '5'] }).value.limit).toBe(5);
  });
});
