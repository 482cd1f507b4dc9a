import { defineApi } from '@suite/platform-sdk';
import { boardsOf } from './_boards.js';

/** GET /api/boards/list: signed-in users only. Without a valid Bearer the host answers 401. */
export default defineApi({
  auth: 'required',
  methods: ['GET'],
  handler: ({ user }) => ({ owner: user.email, boards: boardsOf(user.id) }),
});
