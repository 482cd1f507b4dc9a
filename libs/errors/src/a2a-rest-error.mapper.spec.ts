import { describe, expect, it } from '@jest/globals';
import { A2aError, A2aErrorCode } from './a2a-error.js';
import { toA2aRestError } from './a2a-rest-error.mapper.js';
import { RunnerError, RunnerErrorCode } from './runner-error.js';

describe('toA2aRestError (/a2a/rest)', () => {
  it('answers an unknown task with 404 and the ErrorInfo the JSON-RPC binding sends', () => {
    expect(toA2aRestError(new RunnerError(RunnerErrorCode.JobNotFound, 'Task 7b1c not found'))).toEqual({
      status: 404,
      headers: {},
      body: {
        error: {
          code: 404,
          status: 'NOT_FOUND',
          message: 'Task 7b1c not found',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'TASK_NOT_FOUND',
              domain: 'a2a-protocol.org',
            },
          ],
        },
      },
    });
  });

  it('gives A2A errors their HTTP status, validation 400, keys 401 and surprises 500 with an error id', () => {
    expect(toA2aRestError(new A2aError(A2aErrorCode.ContentTypeNotSupported)).status).toBe(415);
    expect(toA2aRestError(new A2aError(A2aErrorCode.TaskNotCancelable)).body.error.status).toBe(
      'FAILED_PRECONDITION',
    );
    expect(toA2aRestError(new RunnerError(RunnerErrorCode.ValidationFailed, 'bad')).status).toBe(400);
    const unauthorized = toA2aRestError(new RunnerError(RunnerErrorCode.Unauthorized, 'no key'));
    expect(unauthorized).toMatchObject({ status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
    const surprise = toA2aRestError(new Error('boom'), { errorId: 'e-1' });
    expect(surprise.status).toBe(500);
    expect(surprise.body.error).toMatchObject({
      message: 'Internal error',
      details: [{ metadata: { errorId: 'e-1' } }],
    });
  });
});
