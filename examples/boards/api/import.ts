import { defineApi } from '@suite/platform-sdk';
import { serviceKeyVerifier } from './_service-key.js';

/** POST /api/import: a custom verifier decides who calls (null → 401 before the handler runs). */
export default defineApi({
  auth: serviceKeyVerifier,
  methods: ['POST'],
  handler: ({ user, request }) => ({ importedBy: user.name, received: request.body ?? null }),
});
