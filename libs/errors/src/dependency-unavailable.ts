import { RunnerError, RunnerErrorCode } from './runner-error.js';
import { asKnownError, isUnexpectedError, newErrorId } from './known-error.js';

// Postgres or Redis going away surfaces as a driver error (pg, Prisma's adapter, ioredis) deep in
// a request. It is not a bug: the caller should retry, so transports answer 503 instead of 500.

/** Node socket errors, Postgres SQLSTATEs and Prisma codes that mean "the server is not there". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up or shutting down)
  '08000',
  '08001',
  '08003',
  '08006',
  'P1001', // can't reach database server
  'P1002', // database server timed out
  'P1008', // operation timed out
  'P1017', // server closed the connection
  'P2024', // timed out fetching a connection from the pool
]);

const UNAVAILABLE_NAMES = new Set(['PrismaClientInitializationError', 'MaxRetriesPerRequestError']);

const UNAVAILABLE_MESSAGE =
  /Connection terminated|Can't reach database server|Server has closed the connection|Connection is closed|enableOfflineQueue options is false|timeout exceeded when trying to connect|the database system is (starting up|shutting down)|connect ECONNREFUSED/i;

/**
 * Every connection is taken: @suite/db's ConnectionBudgetError (which Prisma rethrows with its code),
 * or Postgres's too_many_connections (SQLSTATE 53300, from a connection outside the budget).
 */
const CONNECTIONS_EXHAUSTED_CODES = new Set(['CONNECTION_BUDGET_EXHAUSTED', '53300']);
const CONNECTIONS_EXHAUSTED_MESSAGE = /too many clients already|too many connections for/i;
/** Retry-After of a 503 temporarily_unavailable. */
const CONNECTIONS_RETRY_AFTER_SECONDS = 2;

/** True when `error` (or anything in its cause chain) says every database connection is taken. */
export function isConnectionsExhausted(error: unknown): boolean {
  return someInChain(
    error,
    (code, message) =>
      (typeof code === 'string' && CONNECTIONS_EXHAUSTED_CODES.has(code)) ||
      (typeof message === 'string' && CONNECTIONS_EXHAUSTED_MESSAGE.test(message)),
  );
}

/**
 * The database is briefly read-only (SQLSTATE 25006: a tenant database moving to another server)
 * or just gone from under a stale connection (3D000: it moved and the old copy was dropped).
 */
const READ_ONLY_CODES = new Set(['25006', '3D000']);
const READ_ONLY_MESSAGE = /in a read-only transaction/i;

/** True when `error` (or anything in its cause chain) says the database refuses writes for now. */
export function isDatabaseReadOnly(error: unknown): boolean {
  return someInChain(
    error,
    (code, message) =>
      (typeof code === 'string' && READ_ONLY_CODES.has(code)) ||
      (typeof message === 'string' && READ_ONLY_MESSAGE.test(message)),
  );
}

/** True when `error` (or anything in its cause chain) says Postgres or Redis cannot be reached. */
export function isDependencyUnavailable(error: unknown): boolean {
  return someInChain(
    error,
    (code, message, name) =>
      (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) ||
      (typeof name === 'string' && UNAVAILABLE_NAMES.has(name)) ||
      (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)),
  );
}

/** Walks the error, its causes and what Prisma wraps (driver adapter errors, AggregateError parts). */
function someInChain(
  error: unknown,
  test: (code: unknown, message: unknown, name: unknown) => boolean,
): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, name, message, cause, errors, meta } = current as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
      meta?: { driverAdapterError?: unknown; cause?: unknown };
    };
    if (test(code, message, name)) return true;
    const original = (meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause;
    if (test(original?.originalCode, undefined, undefined)) return true;
    queue.push(cause, meta?.driverAdapterError, meta?.cause);
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]));
  }
  return false;
}

/**
 * The runner's 503 for a lost dependency (`service_unavailable`) or for database connections all
 * taken (`temporarily_unavailable`), or undefined for any other error. Every transport maps it in
 * its own contract (`/v1` problem, `{code, message}`, JSON-RPC, MCP tool error).
 */
export function asDependencyUnavailable(error: unknown): RunnerError | undefined {
  if (isConnectionsExhausted(error)) {
    return new RunnerError(
      RunnerErrorCode.TemporarilyUnavailable,
      'Every database connection of this server is in use; try again shortly.',
      { cause: error, retryAfterSeconds: CONNECTIONS_RETRY_AFTER_SECONDS },
    );
  }
  if (isDatabaseReadOnly(error)) {
    return new RunnerError(
      RunnerErrorCode.TemporarilyUnavailable,
      'This project is read-only for a moment while its data moves; try again shortly.',
      { cause: error, retryAfterSeconds: 5 },
    );
  }
  if (!isDependencyUnavailable(error)) return undefined;
  return new RunnerError(
    RunnerErrorCode.ServiceUnavailable,
    'A service this API depends on is unavailable; try again shortly.',
    { cause: error, retryAfterSeconds: 5 },
  );
}

/**
 * What an app's exception filter needs of the error model (nest-core's createExceptionFilter):
 * a known error stays as thrown, an outage of Postgres or Redis becomes the 503 above.
 */
export const APP_ERROR_MODEL = {
  fromDependency: (error: unknown): RunnerError | undefined =>
    asKnownError(error) ? undefined : asDependencyUnavailable(error),
  isUnexpected: isUnexpectedError,
  newErrorId,
} as const;
