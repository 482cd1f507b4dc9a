/**
 * What ctx.db.query throws when the project's database refuses writes for a moment: it is moving
 * to another tenant database server (POST /v1/projects/{id}/move), and reads go on meanwhile.
 */
export const DATABASE_READ_ONLY =
  "ctx.db.query: the project's database is read-only for a moment (it is moving to another server); try again shortly";

/**
 * True when project code failed with that error uncaught: its API answers 503
 * temporarily_unavailable with Retry-After (a forged message only gets the 503 the code could have
 * sent itself), and a hook or job is retried like any failure.
 */
export function failedForReadOnly(error: unknown): boolean {
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && message.includes(DATABASE_READ_ONLY);
}
