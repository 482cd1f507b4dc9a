import { envFields, z } from '@suite/config';
import { ConnectionBudget } from '@suite/db';
import { observeConnectionBudget } from '@suite/telemetry';

/**
 * The connection budget of a process that touches tenant databases (project host, project worker):
 * its main-database pool and every tenant pool (auth, control plane, ctx.db) share it. The default
 * fits Postgres's default max_connections (100, 3 of them kept for superusers) with a project host
 * and a project worker at 20 each beside the other apps' own pools (jobs-api, agent-gateway,
 * push-worker and browser workers, 10 each at most) and room for the migrator and an operator's psql.
 * More replicas: keep (replicas × budget) + the other apps below max_connections, or put PgBouncer
 * in front (README: "Database connection budget").
 */
export const connectionBudgetEnv = {
  /** Postgres connections one process may hold at once, every database together (≥ 2). */
  DB_CONNECTION_BUDGET: envFields.positiveInt(20).pipe(z.number().min(2, 'must be at least 2')),
  /** Longest a request waits for a connection when the budget is full, before 503 temporarily_unavailable. */
  DB_CONNECTION_WAIT_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(100, 'must be between 100 and 60000')
    .max(60_000, 'must be between 100 and 60000 (milliseconds)')
    .default(5_000),
};

export interface ConnectionBudgetSettings {
  DB_CONNECTION_BUDGET: number;
  DB_CONNECTION_WAIT_MS: number;
}

/**
 * The process's one budget (make one per process and pass it to every client it creates). Its
 * connections are named `<app>:<pid>` in pg_stat_activity: which app and which process holds them.
 */
export function connectionBudgetOf(app: string, settings: ConnectionBudgetSettings): ConnectionBudget {
  const budget = new ConnectionBudget({
    size: settings.DB_CONNECTION_BUDGET,
    waitMs: settings.DB_CONNECTION_WAIT_MS,
    applicationName: `${app}:${process.pid}`,
  });
  // suite_db_connections{kind}, suite_db_connection_waiters, suite_db_connection_waits_timed_out_total.
  observeConnectionBudget(() => budget.stats());
  return budget;
}
