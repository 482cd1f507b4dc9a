import { defineAuthHook } from '@suite/platform-sdk';
import { describeUser } from './_describe.js';

/**
 * Runs after auth outcomes (fire-and-forget: it cannot slow down or fail sign-in). `console.log`
 * output appears in the `platform dev` terminal as `[project]` lines.
 */
export default defineAuthHook({
  blocking: false,
  timeoutMs: 5_000,
  onUserCreated: (ctx) => console.log(`[hook] user.created ${describeUser(ctx.event.user)}`),
  onUserSignedIn: (ctx) =>
    console.log(`[hook] user.signed_in ${describeUser(ctx.event.user)} via ${ctx.event.provider}`),
  onAuthFailed: (ctx) => console.log(`[hook] auth.failed ${ctx.event.reason ?? 'unknown'}`),
  // Fired by a deployed host when the dashboard deletes a user; never by `platform dev`.
  onUserDeleted: (ctx) => console.log(`[hook] user.deleted ${describeUser(ctx.event.user)}`),
});
