import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus registry and every metric the suite defines. Labels are closed sets
 * (states, outcomes, error codes, route templates): never ids, emails or URLs.
 */
export const metricsRegistry = new Registry();

let defaultsCollected = false;

/** Node process metrics (CPU, memory, event-loop lag, GC, handles); idempotent. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** The text exposition body and its content type, for a GET /metrics handler. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const jobSeconds = [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800];

// --- HTTP (every app) --------------------------------------------------------------------------

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by method, route template and status code.',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: seconds,
  registers: [metricsRegistry],
});

// --- Runner (jobs-api, browser-worker) ----------------------------------------------------------

export const jobQueueWait = new Histogram({
  name: 'suite_job_queue_wait_seconds',
  help: 'Time from job creation to a worker claiming it.',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

export const jobDuration = new Histogram({
  name: 'suite_job_duration_seconds',
  help: 'Time from claim to the final status, by final status (succeeded, failed).',
  labelNames: ['status'] as const,
  buckets: jobSeconds,
  registers: [metricsRegistry],
});

export const jobSteps = new Counter({
  name: 'suite_job_steps_total',
  help: 'Browser steps run, by outcome (passed, failed, skipped).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const browserRestarts = new Counter({
  name: 'suite_browser_restarts_total',
  help: 'Browsers opened again after the previous one crashed or disconnected.',
  registers: [metricsRegistry],
});

export const browserRequestsBlocked = new Counter({
  name: 'suite_browser_requests_blocked_total',
  help: 'Requests and navigations of job browsers refused by the network policy, by rule.',
  labelNames: ['rule'] as const,
  registers: [metricsRegistry],
});

/** A source read on scrape, at most once per `ttlMs`; a failed read keeps the last good values. */
function cachedSource<T>(read: () => Promise<T>, ttlMs: number): () => Promise<T | undefined> {
  let value: T | undefined;
  let until = 0;
  let pending: Promise<T | undefined> | undefined;
  return () => {
    if (Date.now() < until) return Promise.resolve(value);
    pending ??= read()
      .then(
        (fresh) => {
          value = fresh;
          until = Date.now() + ttlMs;
          return fresh;
        },
        () => value,
      )
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
}

type Counts = Record<string, number>;
let jobStateSource: (() => Promise<Counts | undefined>) | undefined;
let queueStateSource: (() => Promise<Record<string, Counts> | undefined>) | undefined;

new Gauge({
  name: 'suite_jobs',
  help: 'Jobs by state in Postgres (read on scrape, cached a few seconds).',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  async collect() {
    const counts = await jobStateSource?.();
    this.reset();
    for (const [state, count] of Object.entries(counts ?? {})) this.set({ state }, count);
  },
});

new Gauge({
  name: 'suite_queue_jobs',
  help: 'BullMQ jobs by queue and state (waiting, active, delayed, failed, ...; read on scrape).',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
  async collect() {
    const queues = await queueStateSource?.();
    this.reset();
    for (const [queue, counts] of Object.entries(queues ?? {}))
      for (const [state, count] of Object.entries(counts)) this.set({ queue, state }, count);
  },
});

/** Feeds `suite_jobs{state}`: a grouped count, read on scrape at most every `ttlMs`. */
export function observeJobStates(read: () => Promise<Counts>, ttlMs = 5_000): void {
  jobStateSource = cachedSource(read, ttlMs);
}

/** Feeds `suite_queue_jobs{queue,state}`: BullMQ job counts per queue, read on scrape. */
export function observeQueueStates(read: () => Promise<Record<string, Counts>>, ttlMs = 2_000): void {
  queueStateSource = cachedSource(read, ttlMs);
}

// --- Database connections (project host, project worker) -------------------------------------

/** What a process's connection budget reports (ConnectionBudget.stats() of @suite/db). */
export interface ConnectionBudgetStats {
  size: number;
  main: number;
  tenant: number;
  waiting: number;
  timedOut: number;
}

let connectionBudgetSource: (() => ConnectionBudgetStats) | undefined;

new Gauge({
  name: 'suite_db_connections',
  help: 'Postgres connections the process holds in its connection budget, by database (main, tenant), and the budget itself (budget).',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
  collect() {
    const stats = connectionBudgetSource?.();
    this.reset();
    if (!stats) return;
    this.set({ kind: 'main' }, stats.main);
    this.set({ kind: 'tenant' }, stats.tenant);
    this.set({ kind: 'budget' }, stats.size);
  },
});

new Gauge({
  name: 'suite_db_connection_waiters',
  help: 'Callers waiting for a slot of the connection budget right now.',
  registers: [metricsRegistry],
  collect() {
    this.set(connectionBudgetSource?.().waiting ?? 0);
  },
});

let timedOutSeen = 0;
new Counter({
  name: 'suite_db_connection_waits_timed_out_total',
  help: 'Waits for a database connection that ran out (DB_CONNECTION_WAIT_MS) or that Postgres kept refusing: each ended in 503 temporarily_unavailable.',
  registers: [metricsRegistry],
  collect() {
    const timedOut = connectionBudgetSource?.().timedOut ?? 0;
    if (timedOut > timedOutSeen) this.inc(timedOut - timedOutSeen);
    timedOutSeen = timedOut;
  },
});

/** Feeds the `suite_db_connection*` metrics from the process's connection budget, read on scrape. */
export function observeConnectionBudget(read: () => ConnectionBudgetStats): void {
  connectionBudgetSource = read;
  timedOutSeen = 0;
}

// --- Auth (project-host) ------------------------------------------------------------------------

export const authOutcomes = new Counter({
  name: 'suite_auth_outcomes_total',
  help: 'End-user auth requests by action and outcome (success or the error code).',
  labelNames: ['action', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const mailOutcomes = new Counter({
  name: 'suite_mail_outcomes_total',
  help: 'Mail delivery attempts by mail kind and outcome (sent, retry, failed, skipped).',
  labelNames: ['kind', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const hookDuration = new Histogram({
  name: 'suite_auth_hook_duration_seconds',
  help: "Auth hook batches run in a project's sandbox, by event kind and outcome.",
  labelNames: ['event', 'outcome'] as const,
  buckets: seconds,
  registers: [metricsRegistry],
});
