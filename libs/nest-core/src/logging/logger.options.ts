import { currentTraceIds, httpSpanIds } from '@suite/telemetry';
import type { Params } from 'nestjs-pino';
import { createRequire } from 'node:module';
import type { LoggerOptions } from 'pino';

/**
 * pino resolves a transport's name from the files that called it (nestjs-pino and pino-http inside
 * pnpm's store), where `pino-pretty` is not always reachable: resolve it here, where it is a
 * dependency, and hand pino the file.
 */
const prettyTarget = (): string => createRequire(import.meta.url).resolve('pino-pretty');

/** Secrets that must never reach a log line, wherever they appear in a request. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.refreshToken',
  '*.accessToken',
  '*.token',
  '*.pass',
];

export interface LoggingOptions {
  service: string;
  level: string;
  /** Human-readable lines (make start); JSON otherwise. */
  pretty?: boolean;
}

/**
 * `trace_id` and `span_id` of the active span (OpenTelemetry's log field names), so a log line can
 * be found from its trace and back. The access-log line is written after the handler's context is
 * gone; it carries the ids of its request's server span instead.
 */
export function traceFields(merge: object = {}): { trace_id?: string; span_id?: string } {
  const res = (merge as { res?: { req?: object } }).res;
  const ids = currentTraceIds() ?? httpSpanIds(res?.req);
  return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

export function pinoOptions(options: LoggingOptions): LoggerOptions {
  return {
    level: options.level,
    base: { service: options.service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: traceFields,
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    ...(options.pretty
      ? {
          transport: {
            target: prettyTarget(),
            options: { singleLine: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,service' },
          },
        }
      : {}),
  };
}

/**
 * A request URL fit for logs: query values can be secrets (magic-link codes, emails), so only the
 * parameter names are kept.
 */
export function loggableUrl(url: string | undefined): string {
  if (!url) return '';
  const at = url.indexOf('?');
  if (at < 0) return url;
  const names = [...new URLSearchParams(url.slice(at + 1)).keys()];
  return `${url.slice(0, at)}?${names.map((name) => `${name}=[redacted]`).join('&')}`;
}

export function nestPinoParams(options: LoggingOptions): Params {
  return {
    pinoHttp: {
      ...pinoOptions(options),
      serializers: {
        // Method, path and caller only: headers may carry keys, query strings codes.
        req: (req: { id?: unknown; method?: string; url?: string; remoteAddress?: string }) => ({
          id: req.id,
          method: req.method,
          url: loggableUrl(req.url),
          remoteAddress: req.remoteAddress,
        }),
      },
      // Health probes every few seconds would drown the log.
      autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') },
    },
  };
}
