import type { TenantDb } from '@suite/db';
import type { UserSnapshot } from '../events/auth-events.publisher.js';

/** The profile the API shows and hooks receive: never a hash, a token, a code or an idp subject. */
export function snapshotOf(user: Pick<TenantDb.User, 'id' | 'email' | 'name' | 'picture'>): UserSnapshot {
  return { id: user.id, email: user.email, name: user.name, picture: user.picture };
}

/** What an access token says of its user: the profile and whether the address was proven. */
export interface TokenUser extends UserSnapshot {
  emailVerified: boolean;
}

export function tokenUserOf(
  user: Pick<TenantDb.User, 'id' | 'email' | 'name' | 'picture' | 'emailVerified'>,
): TokenUser {
  return { ...snapshotOf(user), emailVerified: user.emailVerified };
}
