import type { HookUser } from '@suite/platform-sdk';

/** Other files under hooks/ can be imported by hooks/auth.ts; only auth.ts is registered. */
export function describeUser(user: HookUser | null): string {
  return user ? `${user.email}${user.name ? ` (${user.name})` : ''}` : '(no user)';
}
