import { AuthError, AuthErrorCode } from '@suite/errors';
import type { IdpRedirectError } from '../../user-auth/idp/idp-sign-in.service.js';

/** What the consent page says for a refused sign-in. */
export function authMessage(error: AuthError): string {
  switch (error.code) {
    case AuthErrorCode.InvalidCredentials:
      return 'The email or password is wrong.';
    case AuthErrorCode.IdentityAlreadyExists:
      return 'An account with this email exists already: sign in instead.';
    case AuthErrorCode.SignupDisabled:
      return 'This project does not take new accounts.';
    case AuthErrorCode.EmailPasswordDisabled:
      return 'Sign-in with email and password is off for this project.';
    default:
      return error.message;
  }
}

/** What the consent page says when the identity provider's callback came back with `error`. */
export function idpMessage(error: string): string {
  switch (error as IdpRedirectError) {
    case 'signup_disabled':
      return 'This project does not take new accounts.';
    case 'identity_not_linked':
      return 'An account with this email exists already, and the provider did not confirm the address: sign in another way.';
    case 'invalid_state':
      return 'Finish signing in in the browser where you started.';
    case 'idp_oauth_disabled':
    case 'idp_oauth_unconfigured':
      return 'Sign-in with the identity provider is off for this project.';
    case 'auth_disabled':
      return 'Sign-in is off for this project.';
    default:
      return 'Signing in with the identity provider did not work. Try again, or sign in another way.';
  }
}

export const EXPIRED = 'This sign-in expired. Start again from your application.';
export const FORGED = 'This form expired or did not come from this page. Start again from your application.';
export const SIGN_IN_OFF = 'Sign-in is off for this project.';
export const MAGIC_ELSEWHERE =
  'Open this sign-in link in the browser where you asked for it, within 15 minutes. Or start again from your application.';
export const IDP_ELSEWHERE =
  'Finish signing in in the browser where you started, within 15 minutes. Or start again from your application.';
export const MAGIC_BAD = 'This sign-in link is wrong, used or expired. Ask for a new one below.';
export const IDP_BAD =
  'This sign-in was used already, expired, or started in another browser. Sign in again below.';
