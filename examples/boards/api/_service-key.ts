import type { AuthUser, AuthVerifier } from '@suite/platform-sdk';

/**
 * A demo key for machine callers. Verifiers see only the request headers (not `.env`), so a real
 * project would check a signature or ask its identity service here instead of a constant.
 */
export const DEMO_SERVICE_KEY = 'boards-demo-service-key';

const importer: AuthUser = {
  id: 'service:importer',
  email: 'importer@boards.invalid',
  name: 'Importer',
  picture: null,
};

/** A custom verifier: the caller it returns becomes `ctx.user`; null gives 401. */
export const serviceKeyVerifier: AuthVerifier = async ({ headers }) =>
  headers['x-service-key'] === DEMO_SERVICE_KEY ? importer : null;
