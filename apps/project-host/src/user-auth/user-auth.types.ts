import type { UserSnapshot } from '../events/auth-events.publisher.js';

/** The generic acknowledgement of /api/user (magic-link and forgot-password requests, sign-out, password reset). */
export interface StatusResponse {
  status: 'ok';
  message: string;
}

/** GET /api/user/me and the 200 of PUT /api/user/me. */
export type Profile = UserSnapshot;

/** The 202 of PUT /api/user/me when an email change waits for its code. */
export interface PendingEmailChange {
  id: string;
  name: string | null;
  email: string;
  pendingEmail: string;
}

/** The email-change callback: the user with the new address. */
export interface ConfirmedEmail {
  id: string;
  name: string | null;
  email: string;
}
