import { describe, expect, it } from '@jest/globals';
import { A2aError, A2aErrorCode } from './a2a-error.js';
import { AuthError, AuthErrorCode } from './auth-error.js';
import { jsonRpcHttpStatus, toJsonRpcError } from './json-rpc-error.mapper.js';
import { RunnerError, RunnerErrorCode } from './runner-error.js';
import { issue } from './validation-issue.js';

const a2aCodes = Object.values(A2aErrorCode).filter(
  (value): value is A2aErrorCode => typeof value === 'number',
);

describe('toJsonRpcError (/a2a)', () => {
  it('answers an unknown task with -32001 and an A2A ErrorInfo', () => {
    const response = toJsonRpcError(
      new RunnerError(RunnerErrorCode.JobNotFound, 'Task 7b1c not found', { metadata: { taskId: '7b1c' } }),
      'req-1',
    );
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 'req-1',
      error: {
        code: -32001,
        message: 'Task 7b1c not found',
        data: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'TASK_NOT_FOUND',
            domain: 'a2a-protocol.org',
            metadata: { taskId: '7b1c' },
          },
        ],
      },
    });
  });

  it.each([
    [A2aErrorCode.JsonParse, -32700, 'JSON_PARSE'],
    [A2aErrorCode.InvalidRequest, -32600, 'INVALID_REQUEST'],
    [A2aErrorCode.MethodNotFound, -32601, 'METHOD_NOT_FOUND'],
    [A2aErrorCode.InvalidParams, -32602, 'INVALID_PARAMS'],
    [A2aErrorCode.TaskNotFound, -32001, 'TASK_NOT_FOUND'],
    [A2aErrorCode.TaskNotCancelable, -32002, 'TASK_NOT_CANCELABLE'],
    [A2aErrorCode.PushNotificationNotSupported, -32003, 'PUSH_NOTIFICATION_NOT_SUPPORTED'],
    [A2aErrorCode.UnsupportedOperation, -32004, 'UNSUPPORTED_OPERATION'],
    [A2aErrorCode.ContentTypeNotSupported, -32005, 'CONTENT_TYPE_NOT_SUPPORTED'],
    [A2aErrorCode.InvalidAgentResponse, -32006, 'INVALID_AGENT_RESPONSE'],
    [A2aErrorCode.ExtendedAgentCardNotConfigured, -32007, 'EXTENDED_AGENT_CARD_NOT_CONFIGURED'],
    [A2aErrorCode.ExtensionSupportRequired, -32008, 'EXTENSION_SUPPORT_REQUIRED'],
    [A2aErrorCode.VersionNotSupported, -32009, 'VERSION_NOT_SUPPORTED'],
  ])('maps A2A error %i to code %i and reason %s', (code, wire, reason) => {
    const { error } = toJsonRpcError(new A2aError(code), 3);
    expect(error.code).toBe(wire);
    expect(error.data).toEqual([
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' },
    ]);
  });

  it('says which version is missing support (A2A-Version absent means 0.3)', () => {
    const response = toJsonRpcError(
      new A2aError(
        A2aErrorCode.VersionNotSupported,
        'A2A version 0.3 is not supported; send A2A-Version: 1.0',
        {
          metadata: { requestedVersion: '0.3', supportedVersions: '1.0' },
        },
      ),
      null,
    );
    expect(response.id).toBeNull();
    expect(response.error).toMatchObject({
      code: -32009,
      message: 'A2A version 0.3 is not supported; send A2A-Version: 1.0',
      data: [
        { reason: 'VERSION_NOT_SUPPORTED', metadata: { requestedVersion: '0.3', supportedVersions: '1.0' } },
      ],
    });
  });

  it('answers a validation failure with -32602 and one field violation per issue', () => {
    const response = toJsonRpcError(
      RunnerError.validation([
        issue.missing(['params', 'message'], {}),
        issue.stringType(['params', 'message', 'parts', 0, 'text'], 5),
      ]),
      9,
    );
    expect(response.error.code).toBe(-32602);
    expect(response.error.data).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'INVALID_PARAMS',
        domain: 'a2a-protocol.org',
      },
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [
          { field: 'params.message', description: 'Field required', reason: 'missing' },
          {
            field: 'params.message.parts.0.text',
            description: 'Input should be a valid string',
            reason: 'string_type',
          },
        ],
      },
    ]);
  });

  it('answers missing credentials with -32000 UNAUTHORIZED and HTTP 401', () => {
    const error = new RunnerError(RunnerErrorCode.Unauthorized, 'Missing or invalid API key');
    expect(toJsonRpcError(error, 1).error).toEqual({
      code: -32000,
      message: 'Missing or invalid API key',
      data: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'UNAUTHORIZED',
          domain: 'browser-test-runner',
        },
      ],
    });
    expect(jsonRpcHttpStatus(error)).toBe(401);
    expect(jsonRpcHttpStatus(new RunnerError(RunnerErrorCode.Forbidden, 'no'))).toBe(403);
    expect(jsonRpcHttpStatus(new A2aError(A2aErrorCode.TaskNotFound))).toBe(200);
  });

  it('carries retryAfterSeconds as ErrorInfo metadata', () => {
    const { error } = toJsonRpcError(
      new RunnerError(RunnerErrorCode.RateLimited, 'Too many tasks', { retryAfterSeconds: 30 }),
      1,
    );
    expect(error.data[0]).toMatchObject({ reason: 'RATE_LIMITED', metadata: { retryAfterSeconds: '30' } });
  });

  it('hides unexpected errors behind -32603 and the logged error id', () => {
    const response = toJsonRpcError(new Error('redis: connection refused'), 'x', { errorId: 'err-1' });
    expect(response.error).toEqual({
      code: -32603,
      message: 'Internal error',
      data: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'INTERNAL',
          domain: 'a2a-protocol.org',
          metadata: { errorId: 'err-1' },
        },
      ],
    });
  });

  it('maps every code of every family to a JSON-RPC error with an ErrorInfo', () => {
    const errors = [
      ...Object.values(RunnerErrorCode).map((code) => new RunnerError(code, 'x')),
      ...Object.values(AuthErrorCode).map((code) => new AuthError(code)),
      ...a2aCodes.map((code) => new A2aError(code)),
    ];
    for (const error of errors) {
      const response = toJsonRpcError(error, 1);
      expect(Number.isInteger(response.error.code)).toBe(true);
      expect(response.error.data[0]).toMatchObject({
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: expect.stringMatching(/^[A-Z_]+$/),
      });
    }
    expect(
      toJsonRpcError(new RunnerError(RunnerErrorCode.JobNotCancelable, 'done already'), 1).error.code,
    ).toBe(-32002);
    expect(toJsonRpcError(new AuthError(AuthErrorCode.NonceInvalid), 1).error).toMatchObject({
      code: -32602,
      data: [{ reason: 'NONCE_INVALID', domain: 'browser-test-runner' }],
    });
  });
});
