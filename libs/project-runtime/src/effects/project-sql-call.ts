import type { FieldDef, PoolClient, Query, QueryConfig, QueryResult } from 'pg';
import type { Duplex } from 'node:stream';
import { EffectError } from './effect-error.js';
import { DATABASE_READ_ONLY } from './database-read-only.js';
import { cancelBackend, type CancelTarget } from './postgres-cancel.js';
import type { ProjectStatement } from './sql-statement.js';
import { jsonTypeParser, type DefaultParsers } from './sql-values.js';

/** Limits of one ctx.db call, from the host's configuration. */
export interface SqlCallLimits {
  statementTimeoutMs: number;
  maxRows: number;
  /** Size of the result as JSON. */
  maxResultBytes: number;
  /** pg_database_size of the project's database that committed writes may not exceed. */
  quotaBytes: number;
}

export interface SqlCallResult {
  rows: Record<string, unknown>[];
  rowCount: number;
}

/** How far past the statement timeout the host waits before it cancels the statement itself. */
const CANCEL_GRACE_MS = 1_000;
/** ...and after that before it closes the connection. */
const CLOSE_GRACE_MS = 3_000;
/**
 * Over the quota, what a DELETE, TRUNCATE or DROP may add: the new empty files of a TRUNCATE, and
 * its updates of pg_class rows (one per relation it empties). Rows inserted or updated anywhere
 * else (say by a trigger) make it a write like any other.
 */
const FREES_SLACK_BYTES = 1024 * 1024;
const FREES_MAX_CATALOG_UPDATES = 100;
/** Tables the host vacuums after a refused write, to give back the space the rolled-back rows took. */
const MAX_VACUUMED_TABLES = 20;

// The host's own statements on a project's session: everything schema-qualified, operators too,
// so nothing the project's statement defined or set (search_path, functions, operators) can stand
// in for them.
const DATABASE_SIZE = 'pg_catalog.pg_database_size(pg_catalog.current_database())';
/** Runs deferred triggers and checks now (not at COMMIT, after the quota check). */
const CONSTRAINTS_NOW = 'SET CONSTRAINTS ALL IMMEDIATE';
const SIZE_IF_WRITTEN = `SELECT CASE WHEN pg_catalog.pg_current_xact_id_if_assigned() IS NULL THEN NULL ELSE ${DATABASE_SIZE} END AS size`;
/**
 * Size, and the session's counts of rows inserted or updated: outside pg_class, and in pg_class.
 * (The counts include earlier transactions not yet reported to the statistics: only their
 * difference within one transaction means anything.)
 */
const PG_CLASS = "'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid";
const SIZE_AND_WRITES = `SELECT ${DATABASE_SIZE} AS size,
  (SELECT pg_catalog.sum(n_tup_ins OPERATOR(pg_catalog.+) n_tup_upd) FROM pg_catalog.pg_stat_xact_all_tables
    WHERE relid OPERATOR(pg_catalog.<>) ${PG_CLASS}) AS writes,
  (SELECT pg_catalog.sum(n_tup_upd) FROM pg_catalog.pg_stat_xact_all_tables
    WHERE relid OPERATOR(pg_catalog.=) ${PG_CLASS}) AS catalog_updates`;
const TOUCHED_TABLES = `SELECT pg_catalog.format('%I.%I', schemaname, relname) AS name
  FROM pg_catalog.pg_stat_xact_user_tables
  WHERE n_tup_ins OPERATOR(pg_catalog.+) n_tup_upd OPERATOR(pg_catalog.>) 0 LIMIT ${MAX_VACUUMED_TABLES}`;

interface Measure {
  size: number;
  writes: number;
  catalogUpdates: number;
}

/**
 * One ctx.db call on a connection of the project's pool, as the project's role:
 * - the statement runs in a transaction of its own whose statement_timeout the host sets (SET
 *   LOCAL), over any SET an earlier call made (the pool also DISCARDs ALL between calls); should
 *   the statement outlive it anyway, the host cancels it and, failing that, closes the connection;
 * - rows stream in and stop at the row or byte cap (the statement is cancelled: the host never
 *   holds more than the caps);
 * - a statement that wrote is checked against the storage quota before COMMIT: past it, the
 *   transaction is rolled back (a DELETE, TRUNCATE or DROP that writes no rows and does not grow
 *   the database passes, so a project over its quota can free space);
 * - VACUUM, which cannot run in a transaction, runs in a read-only session instead.
 * Refusals and Postgres's errors are EffectErrors; anything else is the host's trouble.
 * `connection.reusable` turns false when the connection must not go back to the pool.
 */
export async function runSqlCall(
  client: PoolClient,
  statement: ProjectStatement,
  limits: SqlCallLimits,
  connection: { reusable: boolean },
): Promise<SqlCallResult> {
  const watchdog = new Watchdog(client, limits.statementTimeoutMs, connection);
  try {
    if (statement.kind === 'vacuum') {
      await client.query(
        `SET statement_timeout = ${limits.statementTimeoutMs}; SET default_transaction_read_only = on`,
      );
      return await execute(client, statement, limits, watchdog);
    }
    return await inTransaction(client, statement, limits, watchdog, connection);
  } catch (error) {
    throw projectError(error, watchdog, limits);
  } finally {
    watchdog.stop();
  }
}

async function inTransaction(
  client: PoolClient,
  statement: ProjectStatement,
  limits: SqlCallLimits,
  watchdog: Watchdog,
  connection: { reusable: boolean },
): Promise<SqlCallResult> {
  const frees = statement.kind === 'frees';
  const prelude = await client.query(
    `BEGIN; SET LOCAL statement_timeout = ${limits.statementTimeoutMs}${frees ? `; ${SIZE_AND_WRITES}` : ''}`,
  );
  const before = frees ? measureOf(prelude) : undefined;
  let refusal: QuotaRefusal | undefined;
  try {
    const result = await execute(client, statement, limits, watchdog);
    // The checks share what is left of the statement's time (the project's statement may have
    // changed statement_timeout for the rest of the transaction).
    const remaining = Math.max(1_000, watchdog.remainingMs());
    const checked = await client.query(
      `SET LOCAL statement_timeout = ${remaining}; ${CONSTRAINTS_NOW}; ${frees ? SIZE_AND_WRITES : SIZE_IF_WRITTEN}`,
    );
    const after = measureOf(checked);
    if (after && after.size > limits.quotaBytes && !(before && onlyFrees(before, after))) {
      const touched = await client.query<{ name: string }>(TOUCHED_TABLES);
      refusal = new QuotaRefusal(
        limits.quotaBytes,
        after.size,
        touched.rows.map((row) => row.name),
      );
      throw refusal;
    }
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
      if (refusal) await vacuum(client, refusal.tables, limits.statementTimeoutMs);
    } catch {
      connection.reusable = false;
    }
    throw error;
  }
}

/**
 * The rows of a refused write are rolled back, but the pages they filled stay in the table's
 * files (and count in pg_database_size) until a VACUUM cuts them off: done at once, best effort.
 */
async function vacuum(client: PoolClient, tables: string[], timeoutMs: number): Promise<void> {
  if (tables.length === 0) return;
  try {
    // Two queries: VACUUM refuses to run in a string of several statements.
    await client.query(`SET statement_timeout = ${timeoutMs}`);
    await client.query(`VACUUM ${tables.join(', ')}`);
  } catch {
    // The space comes back with autovacuum.
  }
}

/** The project's statement, its rows streamed under the caps. */
function execute(
  client: PoolClient,
  statement: ProjectStatement,
  limits: SqlCallLimits,
  watchdog: Watchdog,
): Promise<SqlCallResult> {
  const defaults: DefaultParsers = (oid) => client.getTypeParser(oid, 'text') as (text: string) => unknown;
  const parser = jsonTypeParser(defaults);
  const config = {
    text: statement.sql,
    values: statement.params,
    // Extended protocol even without parameters: Postgres then refuses a second statement itself.
    queryMode: 'extended',
    types: { getTypeParser: parser },
  } as QueryConfig;
  const query = new (queryClass(client))(config);
  const rows: Record<string, unknown>[] = [];
  let bytes = 2;
  let refusal: EffectError | undefined;
  const refuse = (error: EffectError): void => {
    refusal = error;
    rows.length = 0;
    watchdog.cancelNow();
  };
  query.on('row', (row: Record<string, unknown>) => {
    if (refusal) return;
    if (rows.length >= limits.maxRows) {
      refuse(new EffectError(`ctx.db.query: more than ${limits.maxRows} rows; add a LIMIT`));
      return;
    }
    bytes += Buffer.byteLength(JSON.stringify(row)) + 1;
    if (bytes > limits.maxResultBytes) {
      refuse(resultTooLarge(limits));
      return;
    }
    rows.push(row);
  });
  // A single huge value arrives as one message that node-postgres buffers whole: past twice the
  // cap (text on the wire is at most about twice its JSON), the host drops the connection.
  const stream = socketOf(client);
  let received = 0;
  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    if (received > 2 * limits.maxResultBytes + 1024 * 1024 && !refusal) {
      refusal = resultTooLarge(limits);
      rows.length = 0;
      watchdog.close();
    }
  };
  stream.on('data', onData);
  return new Promise<SqlCallResult>((resolve, reject) => {
    query.on('end', (result: QueryResult) => {
      if (refusal) return reject(refusal);
      const returnsRows = (result.fields as FieldDef[] | undefined)?.length;
      resolve({ rows, rowCount: returnsRows ? rows.length : (result.rowCount ?? 0) });
    });
    query.on('error', (error: Error) => reject(refusal ?? error));
    client.query(query);
  }).finally(() => stream.off('data', onData));
}

function resultTooLarge(limits: SqlCallLimits): EffectError {
  return new EffectError(
    `ctx.db.query: the result is over ${formatBytes(limits.maxResultBytes)} of JSON; select fewer rows or columns`,
  );
}

/** A write refused for the storage quota; the tables it wrote to, for the VACUUM after ROLLBACK. */
class QuotaRefusal extends EffectError {
  constructor(
    quotaBytes: number,
    usedBytes: number,
    readonly tables: string[],
  ) {
    super(
      `ctx.db.query: storage quota of ${formatBytes(quotaBytes)} exceeded (the database would use ` +
        `${formatBytes(usedBytes)}); the statement was rolled back. Free space with TRUNCATE, DROP, ` +
        'or DELETE then VACUUM FULL',
    );
  }
}

/**
 * Ends a call that outlives its statement timeout: Postgres's own timeout should have stopped it;
 * if not (the host never learns why), a CancelRequest, then the connection is closed. A
 * connection that was sent a cancel never goes back to the pool: the cancel could land on the
 * next call's statement.
 */
class Watchdog {
  private readonly startedAt = Date.now();
  private readonly timers: NodeJS.Timeout[];
  timedOut = false;

  constructor(
    private readonly client: PoolClient,
    private readonly timeoutMs: number,
    private readonly connection: { reusable: boolean },
  ) {
    this.timers = [
      setTimeout(() => {
        this.timedOut = true;
        this.cancelNow();
      }, timeoutMs + CANCEL_GRACE_MS),
      setTimeout(() => this.close(), timeoutMs + CANCEL_GRACE_MS + CLOSE_GRACE_MS),
    ];
  }

  remainingMs(): number {
    return this.timeoutMs - (Date.now() - this.startedAt);
  }

  cancelNow(): void {
    this.connection.reusable = false;
    void cancelBackend(this.client as unknown as CancelTarget);
  }

  /** Drops the connection under the call (its query fails at once). */
  close(): void {
    this.connection.reusable = false;
    socketOf(this.client).destroy();
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
  }
}

/** Postgres's own words for project code, limits named; other failures stay the host's. */
function projectError(error: unknown, watchdog: Watchdog, limits: SqlCallLimits): unknown {
  if (error instanceof EffectError) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (watchdog.timedOut || (code === '57014' && /statement timeout/.test(String(message)))) {
    return new EffectError(
      `ctx.db.query: the statement was stopped at the limit of ${limits.statementTimeoutMs} ms per statement`,
    );
  }
  if (!isPostgresError(error)) return error;
  // read_only_sql_transaction: the database is moving to another server (see setTenantReadOnly).
  if (code === '25006') return new EffectError(DATABASE_READ_ONLY);
  const text = String(message).slice(0, 500);
  if (code === '25001') {
    // "VACUUM cannot run inside a transaction block", CREATE INDEX CONCURRENTLY...
    return new EffectError(`ctx.db.query: ${text} (each call runs in a transaction of its own)`);
  }
  return new EffectError(`ctx.db.query: ${text}`);
}

/** An error Postgres sent (node-postgres's DatabaseError): a SQLSTATE code and a severity. */
function isPostgresError(error: unknown): boolean {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}

/** A DELETE, TRUNCATE or DROP that wrote no rows and did not grow the database beyond its slack. */
function onlyFrees(before: Measure, after: Measure): boolean {
  return (
    after.writes === before.writes &&
    after.catalogUpdates - before.catalogUpdates <= FREES_MAX_CATALOG_UPDATES &&
    after.size <= before.size + FREES_SLACK_BYTES
  );
}

/** The last result's measure, or undefined when nothing was measured (the statement wrote nothing). */
function measureOf(results: QueryResult | QueryResult[]): Measure | undefined {
  const last = Array.isArray(results) ? results[results.length - 1] : results;
  const row = last?.rows[0] as { size?: unknown; writes?: unknown; catalog_updates?: unknown } | undefined;
  if (row?.size === null || row?.size === undefined) return undefined;
  return {
    size: Number(row.size),
    writes: Number(row.writes ?? 0),
    catalogUpdates: Number(row.catalog_updates ?? 0),
  };
}

function socketOf(client: PoolClient): Duplex {
  return (client as unknown as { connection: { stream: Duplex } }).connection.stream;
}

/**
 * node-postgres's Query class, for streaming rows: the pool's client class carries it
 * (`Client.Query`); the host reaches node-postgres through @suite/db only.
 */
function queryClass(client: PoolClient): typeof Query {
  return (client.constructor as unknown as { Query: typeof Query }).Query;
}

export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}
