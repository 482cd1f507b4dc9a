import { AppError, type AppErrorOptions } from './app-error.js';
import { unreachable } from './unreachable.js';

/** Project-host end-user auth errors; the values are the spec's wire codes, verbatim. */
export enum AuthErrorCode {
  InvalidCredentials = 'invalid-credentials',
  IdentityAlreadyExists = 'identity-already-exists',
  IdentityNotFound = 'identity-not-found',
  NonceInvalid = 'nonce-invalid',
  CurrentPasswordRequired = 'current-password-required',
  InvalidRequest = 'invalid-request',
  AuthDisabled = 'auth_disabled',
  EmailPasswordDisabled = 'email_password_disabled',
  SignupDisabled = 'signup_disabled',
  IdpOauthDisabled = 'idp_oauth_disabled',
  IdpOauthUnconfigured = 'idp_oauth_unconfigured',
  /** Project code cannot run here now: no sandbox could start, or every sandbox is busy. */
  ProjectCodeUnavailable = 'project_code_unavailable',
  NotImplemented = 'not_implemented',
  InvalidRedirectUri = 'invalid_redirect_uri',
  InvalidAuthHook = 'invalid_auth_hook',
  ProjectNotFound = 'project_not_found',
  /** defineApi `auth: 'required'` (or a custom verifier) rejected the request. */
  Unauthorized = 'unauthorized',
  /** No such route on this host. */
  NotFound = 'not_found',
  /** Too many attempts; `retryAfterSeconds` says when to try again. */
  RateLimited = 'rate_limited',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  Internal = 'internal',
}

export interface AuthErrorOptions extends AppErrorOptions {
  /**
   * The spec gives one code two statuses (invalid-credentials: 401 on login, 403 when the current
   * password of a signed-in user is wrong), so the throw site may pick; otherwise the code's usual
   * status applies.
   */
  readonly status?: number;
}

/** One bad field of a request: its name (or `body`/`query`) and what is wrong with it. */
export interface FieldProblem {
  readonly field: string;
  readonly problem: string;
}

export class AuthError extends AppError<AuthErrorCode> {
  readonly family = 'auth' as const;
  readonly status: number | undefined;

  /** 400 invalid-request naming every bad field: `email: is required; password: must not be empty`. */
  static invalidFields(problems: readonly FieldProblem[]): AuthError {
    const message = problems.map(({ field, problem }) => `${field}: ${problem}`).join('; ');
    return new AuthError(AuthErrorCode.InvalidRequest, message);
  }

  /** 400 invalid-request for one bad field, in the control plane's words: `slug is required`. */
  static invalidValue(field: string, problem: string): AuthError {
    return new AuthError(AuthErrorCode.InvalidRequest, `${field} ${problem}`);
  }

  constructor(
    code: AuthErrorCode,
    message: string = defaultAuthMessage(code),
    options: AuthErrorOptions = {},
  ) {
    const { status, ...rest } = options;
    super(code, message, rest);
    this.status = status;
  }
}

/** Messages an end user may read; the throw site can say something more specific. */
export function defaultAuthMessage(code: AuthErrorCode): string {
  switch (code) {
    case AuthErrorCode.InvalidCredentials:
      return 'Email or password is incorrect';
    case AuthErrorCode.IdentityAlreadyExists:
      return 'An account with this email already exists';
    case AuthErrorCode.IdentityNotFound:
      return 'The session is no longer valid; sign in again';
    case AuthErrorCode.NonceInvalid:
      return 'The code is invalid or has expired';
    case AuthErrorCode.CurrentPasswordRequired:
      return 'Changing the email requires the current password';
    case AuthErrorCode.InvalidRequest:
      return 'The request is invalid';
    case AuthErrorCode.AuthDisabled:
      return 'Authentication is disabled for this project';
    case AuthErrorCode.EmailPasswordDisabled:
      return 'Email and password sign-in is disabled for this project';
    case AuthErrorCode.SignupDisabled:
      return 'Sign-ups are disabled for this project';
    case AuthErrorCode.IdpOauthDisabled:
      return 'Identity-provider sign-in is disabled for this project';
    case AuthErrorCode.IdpOauthUnconfigured:
      return 'Identity-provider sign-in is not configured (client id and secret missing)';
    case AuthErrorCode.NotImplemented:
      return 'This sign-in method is not implemented';
    case AuthErrorCode.InvalidRedirectUri:
      return 'redirect_uri is not allowed for this project';
    case AuthErrorCode.InvalidAuthHook:
      return 'hooks/auth.ts: blocking must be true or false';
    case AuthErrorCode.ProjectNotFound:
      return 'No project is served at this address';
    case AuthErrorCode.Unauthorized:
      return 'Authentication required';
    case AuthErrorCode.NotFound:
      return 'Not Found';
    case AuthErrorCode.RateLimited:
      return 'Too many requests; try again later';
    case AuthErrorCode.ProjectCodeUnavailable:
      return 'Project code cannot run on this host right now; try again later';
    case AuthErrorCode.PayloadTooLarge:
      return 'The request body is too large';
    case AuthErrorCode.UnsupportedMediaType:
      return 'Send the body as JSON with Content-Type: application/json';
    case AuthErrorCode.Internal:
      return 'Internal server error';
    default:
      return unreachable(code);
  }
}
