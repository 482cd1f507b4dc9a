import { describe, expect, it } from '@jest/globals';
import { A2aError, A2aErrorCode } from './a2a-error.js';
import { AuthError, AuthErrorCode } from './auth-error.js';
import { RunnerError, RunnerErrorCode } from './runner-error.js';
import { toUserErrorBody } from './user-error-body.mapper.js';
import { issue } from './validation-issue.js';

describe('toUserErrorBody (/api/user)', () => {
  // The spec's error table, plus the statuses this suite chose where the spec shows none.
  it.each([
    [AuthErrorCode.InvalidCredentials, 401],
    [AuthErrorCode.IdentityAlreadyExists, 409],
    [AuthErrorCode.IdentityNotFound, 401],
    [AuthErrorCode.NonceInvalid, 400],
    [AuthErrorCode.CurrentPasswordRequired, 400],
    [AuthErrorCode.InvalidRequest, 400],
    [AuthErrorCode.AuthDisabled, 404],
    [AuthErrorCode.EmailPasswordDisabled, 403],
    [AuthErrorCode.SignupDisabled, 403],
    [AuthErrorCode.IdpOauthDisabled, 503],
    [AuthErrorCode.IdpOauthUnconfigured, 503],
    [AuthErrorCode.NotImplemented, 503],
    [AuthErrorCode.InvalidRedirectUri, 400],
    [AuthErrorCode.InvalidAuthHook, 400],
    [AuthErrorCode.ProjectNotFound, 404],
    [AuthErrorCode.Unauthorized, 401],
  ])('answers %s with %i and { code, message }', (code, status) => {
    const response = toUserErrorBody(new AuthError(code, 'Specific message'));
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ code, message: 'Specific message' });
  });

  it('uses the wire strings of the spec verbatim', () => {
    expect(Object.values(AuthErrorCode).sort()).toEqual(
      [
        'invalid-credentials',
        'identity-already-exists',
        'identity-not-found',
        'nonce-invalid',
        'current-password-required',
        'invalid-request',
        'auth_disabled',
        'email_password_disabled',
        'signup_disabled',
        'idp_oauth_disabled',
        'idp_oauth_unconfigured',
        'not_implemented',
        'invalid_redirect_uri',
        'invalid_auth_hook',
        'project_not_found',
        'unauthorized',
        // transport-level answers of the project host, beyond the spec's table
        'not_found',
        'rate_limited',
        'payload_too_large',
        'unsupported_media_type',
        'internal',
        // the project's own routes and deploys when no sandbox can run its code
        'project_code_unavailable',
      ].sort(),
    );
  });

  it('lets the throw site answer invalid-credentials with 403 (wrong current password)', () => {
    const response = toUserErrorBody(
      new AuthError(AuthErrorCode.InvalidCredentials, 'Current password is incorrect', { status: 403 }),
    );
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'invalid-credentials', message: 'Current password is incorrect' });
    expect(toUserErrorBody(new AuthError(AuthErrorCode.InvalidCredentials)).status).toBe(401);
  });

  it('sends WWW-Authenticate with a 401', () => {
    expect(toUserErrorBody(new AuthError(AuthErrorCode.IdentityNotFound)).headers).toEqual({
      'WWW-Authenticate': 'Bearer',
    });
  });

  it('turns a DTO validation failure into 400 invalid-request naming each field', () => {
    const response = toUserErrorBody(
      RunnerError.validation([
        issue.missing(['body', 'email'], {}),
        issue.stringTooShort(['body', 'password'], 'short', 12),
      ]),
    );
    expect(response).toEqual({
      status: 400,
      headers: {},
      body: {
        code: 'invalid-request',
        message: 'body.email: Field required; body.password: String should have at least 12 characters',
      },
    });
  });

  it('answers unexpected errors with 500, a generic message and the logged error id', () => {
    const response = toUserErrorBody(new Error('SMTP down'), { errorId: 'id-7' });
    expect(response).toEqual({
      status: 500,
      headers: {},
      body: { code: 'internal', message: 'Internal server error', errorId: 'id-7' },
      errorId: 'id-7',
    });
    expect(toUserErrorBody(new AuthError(AuthErrorCode.Internal, 'db password wrong')).body.message).toBe(
      'Internal server error',
    );
  });

  it('covers every code of every family', () => {
    for (const code of Object.values(AuthErrorCode)) {
      expect(toUserErrorBody(new AuthError(code)).body.code).toBe(code);
    }
    for (const code of Object.values(RunnerErrorCode)) {
      const { status, body } = toUserErrorBody(new RunnerError(code, 'x'));
      expect(status).toBeGreaterThanOrEqual(400);
      expect(typeof body.code).toBe('string');
    }
    for (const code of Object.values(A2aErrorCode).filter((value) => typeof value === 'number')) {
      expect(toUserErrorBody(new A2aError(code)).status).toBeGreaterThanOrEqual(400);
    }
    expect(toUserErrorBody(new RunnerError(RunnerErrorCode.JobNotFound, 'Job 1 not found'))).toMatchObject({
      status: 404,
      body: { code: 'job_not_found', message: 'Job 1 not found' },
    });
  });
});
