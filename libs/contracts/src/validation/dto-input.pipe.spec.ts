import { describe, expect, it } from '@jest/globals';
import { toHttpProblem } from '@suite/errors';
import { CreateJobDto } from '../jobs/create-job.dto.js';
import { ListJobsQueryDto } from '../jobs/list-jobs-query.dto.js';
import { RUNNER_INPUT } from './dto-input.pipe.js';

const body = { type: 'body', metatype: CreateJobDto } as const;
const query = { type: 'query', metatype: ListJobsQueryDto } as const;

function problemOf(run: () => unknown): { status: number; body: unknown } {
  try {
    run();
  } catch (error) {
    return toHttpProblem(error);
  }
  throw new Error('accepted');
}

describe('RUNNER_INPUT (the /v1 edge)', () => {
  it('hands the controller the typed DTO with its defaults', () => {
    const value = RUNNER_INPUT.transform({ query: 'Open /', extra: 1 }, body) as CreateJobDto;
    expect(value).toBeInstanceOf(CreateJobDto);
    expect(value).toMatchObject({ query: 'Open /', env: 'local_browser', highlight_mouse: true });
    expect(value).not.toHaveProperty('extra');
    expect(RUNNER_INPUT.transform({ limit: '5' }, query)).toMatchObject({ limit: 5 });
  });

  it.each([
    ['no body', undefined, [{ type: 'missing', loc: ['body'] }]],
    ['a list', [1], [{ type: 'model_attributes_type', loc: ['body'] }]],
    ['a NUL', { query: 'a\u0000' }, [{ type: 'value_error', loc: ['body', 'query'] }]],
  ])('answers %s with /v1’s 422 detail, never a 500', (_what, raw, detail) => {
    const problem = problemOf(() => RUNNER_INPUT.transform(raw, body));
    expect(problem.status).toBe(422);
    expect(problem.body).toEqual({ detail: detail.map((entry) => expect.objectContaining(entry)) });
  });

  it('answers a bad query string with the query’s 422 detail', () => {
    const problem = problemOf(() => RUNNER_INPUT.transform({ limit: 'abc', status: 'nope' }, query));
    expect(problem.status).toBe(422);
    expect(problem.body).toEqual({
      detail: [
        expect.objectContaining({ type: 'int_parsing', loc: ['query', 'limit'], input: 'abc' }),
        expect.objectContaining({ type: 'enum', loc: ['query', 'status'], input: 'nope' }),
      ],
    });
  });

  it('leaves path parameters and untyped values alone', () => {
    expect(RUNNER_INPUT.transform('abc', { type: 'param', metatype: String })).toBe('abc');
    expect(RUNNER_INPUT.transform({ any: 1 }, { type: 'body', metatype: Object })).toEqual({ any: 1 });
  });
});
