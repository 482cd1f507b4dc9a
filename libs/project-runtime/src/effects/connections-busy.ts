/**
 * What ctx.db.query throws when every database connection of the process stayed taken for the
 * whole wait (DB_CONNECTION_BUDGET, DB_CONNECTION_WAIT_MS).
 */
export const CONNECTIONS_BUSY =
  'ctx.db.query: every database connection of this host is in use; try again shortly';

/**
 * True when project code failed with that error uncaught: its API answers 503
 * temporarily_unavailable (the code could have answered anything itself, so a forged message only
 * gets it the 503 it could have sent), and a job or hook is retried like any failure.
 */
export function failedForConnections(error: unknown): boolean {
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && message.includes(CONNECTIONS_BUSY);
}
