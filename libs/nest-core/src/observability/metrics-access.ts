import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** What a /metrics request gets: the metrics, or the status that refuses them and why. */
export type MetricsAccess = { ok: true } | { ok: false; status: 401 | 403 | 404; message: string };

export interface MetricsRequest {
  /** The TCP peer (never a forwarded header). */
  socketAddress: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Who may read /metrics (every HTTP app's port and the workers' health port):
 * - never through a proxy (a request carrying X-Forwarded-For or Forwarded: 404), so a catch-all
 *   ingress rule cannot publish them;
 * - with METRICS_TOKEN set: a scraper sending `Authorization: Bearer <METRICS_TOKEN>`, from any
 *   address (Prometheus in the cluster);
 * - without it: loopback peers only (a scraper on the same machine or in the pod), so a port that
 *   is reachable from elsewhere (a published container port, a node port) shows nothing.
 */
export function metricsAccess(request: MetricsRequest, token: string | undefined): MetricsAccess {
  if (request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined) {
    return { ok: false, status: 404, message: 'Not Found' };
  }
  if (token) {
    const header = request.headers.authorization;
    const presented = typeof header === 'string' ? /^Bearer +(\S+) *$/i.exec(header)?.[1] : undefined;
    return presented !== undefined && sameSecret(presented, token)
      ? { ok: true }
      : { ok: false, status: 401, message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.' };
  }
  return isLoopback(request.socketAddress)
    ? { ok: true }
    : {
        ok: false,
        status: 403,
        message: 'GET /metrics answers loopback clients only; set METRICS_TOKEN to scrape from elsewhere.',
      };
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Equal-length digests compared in constant time: neither the token nor its length leaks. */
function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.replace(/^::ffff:/i, '');
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}
