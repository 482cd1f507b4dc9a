import { defineApi } from '@suite/platform-sdk';

/** GET /api/whoami: anyone; `user` is the caller when the Bearer is valid, else null. */
export default defineApi({
  auth: 'optional',
  methods: ['GET'],
  handler: ({ user }) => ({ signedIn: user !== null, email: user?.email ?? null }),
});
