import { defineApi } from '@suite/platform-sdk';

/** GET /api/hello: public (`auth: false` is the default; written out here to show it). */
export default defineApi({
  auth: false,
  methods: ['GET'],
  handler: ({ env }) => ({ message: `Hello from ${env.BOARD_TITLE ?? 'Boards'}` }),
});
