import { describe, expect, it } from '@jest/globals';
import { A2aError, A2aErrorCode } from './a2a-error.js';
import { AuthError, AuthErrorCode } from './auth-error.js';
import { toHttpProblem } from './http-problem.mapper.js';
import { RunnerError, RunnerErrorCode } from './runner-error.js';
import { issue } from './validation-issue.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('toHttpProblem (/v1, FastAPI-compatible)', () => {
  it('answers a validation failure with 422 and the detail array, nothing else', () => {
    const problem = toHttpProblem(
      RunnerError.validation([
        issue.missing(['body', 'query'], {}),
        issue.stringPatternMismatch(['body', 'env'], 'firefox', '^(local_browser|hosted_browser)$'),
      ]),
    );
    expect(problem.status).toBe(422);
    expect(problem.errorId).toBeUndefined();
    expect(JSON.stringify(problem.body)).toBe(
      '{"detail":[' +
        '{"type":"missing","loc":["body","query"],"msg":"Field required","input":{}},' +
        '{"type":"string_pattern_mismatch","loc":["body","env"],' +
        '"msg":"String should match pattern \'^(local_browser|hosted_browser)$\'","input":"firefox",' +
        '"ctx":{"pattern":"^(local_browser|hosted_browser)$"}}]}',
    );
  });

  it('reports an unavailable model as a 422 on body.model', () => {
    const problem = toHttpProblem(
      new RunnerError(
        RunnerErrorCode.ModelUnavailable,
        "model 'gpt-x' is not available here; see GET /v1/models",
        {
          metadata: { model: 'gpt-x' },
        },
      ),
    );
    expect(problem).toEqual({
      status: 422,
      headers: {},
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'model'],
            msg: "Value error, model 'gpt-x' is not available here; see GET /v1/models",
            input: 'gpt-x',
            ctx: { error: "model 'gpt-x' is not available here; see GET /v1/models" },
          },
        ],
      },
    });
  });

  it('answers an unknown job with 404, a sentence and a code', () => {
    expect(toHttpProblem(new RunnerError(RunnerErrorCode.JobNotFound, 'Job 42 not found'))).toEqual({
      status: 404,
      headers: {},
      body: { detail: 'Job 42 not found', code: 'job_not_found' },
    });
  });

  it.each([
    [RunnerErrorCode.JobNotFound, 404],
    [RunnerErrorCode.JobNotCancelable, 409],
    [RunnerErrorCode.ArtifactNotFound, 404],
    [RunnerErrorCode.ValidationFailed, 422],
    [RunnerErrorCode.Unauthorized, 401],
    [RunnerErrorCode.Forbidden, 403],
    [RunnerErrorCode.ModelUnavailable, 422],
    [RunnerErrorCode.EnvUnavailable, 422],
    [RunnerErrorCode.PayloadTooLarge, 413],
    [RunnerErrorCode.UnsupportedMediaType, 415],
    [RunnerErrorCode.RateLimited, 429],
    [RunnerErrorCode.ServiceUnavailable, 503],
    [RunnerErrorCode.Internal, 500],
  ])('maps runner code %s to %i', (code, status) => {
    const problem = toHttpProblem(new RunnerError(code, 'something specific'));
    expect(problem.status).toBe(status);
    if (status === 422) expect(Array.isArray((problem.body as { detail: unknown }).detail)).toBe(true);
    else if (status !== 500) expect(problem.body).toEqual({ detail: 'something specific', code });
  });

  it('covers every runner code', () => {
    for (const code of Object.values(RunnerErrorCode)) {
      expect(toHttpProblem(new RunnerError(code, 'x')).status).toBeGreaterThanOrEqual(400);
    }
  });

  it('hides the message of unexpected errors behind an error id the caller logs', () => {
    const problem = toHttpProblem(new Error('relation "jobs" does not exist'));
    expect(problem.status).toBe(500);
    expect(problem.errorId).toMatch(UUID);
    expect(problem.body).toEqual({
      detail: 'Internal Server Error',
      code: 'internal',
      errorId: problem.errorId,
    });

    const explicit = toHttpProblem(new RunnerError(RunnerErrorCode.Internal, 'secret detail'), {
      errorId: 'e-1',
    });
    expect(explicit).toEqual({
      status: 500,
      headers: {},
      body: { detail: 'Internal Server Error', code: 'internal', errorId: 'e-1' },
      errorId: 'e-1',
    });
    expect(toHttpProblem('thrown string').status).toBe(500);
    expect(toHttpProblem(undefined).status).toBe(500);
  });

  it('adds WWW-Authenticate on 401 and Retry-After when the error says when', () => {
    expect(toHttpProblem(new RunnerError(RunnerErrorCode.Unauthorized, 'Missing API key')).headers).toEqual({
      'WWW-Authenticate': 'Bearer',
    });
    expect(
      toHttpProblem(new RunnerError(RunnerErrorCode.RateLimited, 'Slow down', { retryAfterSeconds: 2.5 }))
        .headers,
    ).toEqual({ 'Retry-After': '3' });
  });

  it('maps every auth code with its spec status', () => {
    for (const code of Object.values(AuthErrorCode)) {
      const problem = toHttpProblem(new AuthError(code));
      expect(problem.status).toBeGreaterThanOrEqual(400);
      if (code !== AuthErrorCode.Internal) expect(problem.body).toMatchObject({ code });
    }
    expect(toHttpProblem(new AuthError(AuthErrorCode.AuthDisabled)).status).toBe(404);
  });

  it('maps every A2A code with the status of the A2A HTTP binding', () => {
    for (const code of Object.values(A2aErrorCode).filter((value) => typeof value === 'number')) {
      expect(toHttpProblem(new A2aError(code)).status).toBeGreaterThanOrEqual(400);
    }
    expect(toHttpProblem(new A2aError(A2aErrorCode.TaskNotFound))).toEqual({
      status: 404,
      headers: {},
      body: { detail: 'Task not found', code: 'task_not_found' },
    });
    expect(toHttpProblem(new A2aError(A2aErrorCode.ContentTypeNotSupported)).status).toBe(415);
  });
});
