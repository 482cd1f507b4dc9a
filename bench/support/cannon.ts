import { createRequire } from 'node:module';
import { round } from './stats.ts';

/** autocannon (in the bench process) and the figures every HTTP load benchmark reports. */

export interface CannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  resets: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  latency: Record<string, number>;
  requests: { average: number; total: number; sent: number };
}

/** The part of autocannon's per-connection client that `setupClient` may use. */
export interface CannonClient {
  setRequests(requests: CannonRequest[]): void;
}

export interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called before every request but a connection's first; returns the request to send. */
  setupRequest?: (request: CannonRequest) => CannonRequest;
  /** Called with every response, before the next request of the same connection is built. */
  onResponse?: (status: number, body: string) => void;
}

export type Cannon = (options: Record<string, unknown>) => Promise<CannonResult>;

export const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

export interface LoadFigures {
  connections: number;
  durationS: number;
  /** Responses received (any status). */
  requests: number;
  rps: number;
  latencyMs: { avg: number; p50: number; p90: number; p99: number; max: number };
  /** Non-2xx responses + 2xx responses whose body failed the check + socket errors + timeouts. */
  errors: number;
  non2xx: number;
  badBodies: number;
  socketErrors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** The common figures of one autocannon run (latencies are those of 2xx responses). */
export function loadFigures(connections: number, r: CannonResult): LoadFigures {
  return {
    connections,
    durationS: r.duration,
    requests: r['2xx'] + r.non2xx,
    rps: round(r.requests.average, 0),
    latencyMs: {
      avg: round(r.latency.average ?? 0, 1),
      p50: round(r.latency.p50 ?? 0, 1),
      p90: round(r.latency.p90 ?? 0, 1),
      p99: round(r.latency.p99 ?? 0, 1),
      max: round(r.latency.max ?? 0, 1),
    },
    errors: r.non2xx + r.mismatches + r.errors + r.timeouts,
    non2xx: r.non2xx,
    badBodies: r.mismatches,
    socketErrors: r.errors,
    timeouts: r.timeouts,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

/** CPU ms per request of a process group (its percent of one core over the run, at `rps`). */
export const cpuMsPerRequest = (cpuPercent: number | undefined, rps: number): number =>
  round(((cpuPercent ?? 0) * 10) / Math.max(rps, 1), 2);
