/**
 * A refusal project code reads: the message travels back over IPC and rejects the promise of
 * ctx.db.query, ctx.email.send or ctx.jobs.enqueue. It says what to fix, never host internals.
 */
export class EffectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EffectError';
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
