import { currentTraceIds } from '@suite/telemetry';
import type { Params } from 'nestjs-pino';
import type { LoggerOptions } from 'pino';

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

export function pinoOptions(options: LoggingOptions): LoggerOptions {
  return {
    level: options.level,
    base: { service: options.service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: () => currentTraceIds() ?? {},
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    ...(options.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { singleLine: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,service' },
          },
        }
      : {}),
  };
}

export function nestPinoParams(options: LoggingOptions): Params {
  return {
    pinoHttp: {
      ...pinoOptions(options),
      // Health probes every few seconds would drown the log.
      autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') },
      customProps: () => currentTraceIds() ?? {},
    },
  };
}
