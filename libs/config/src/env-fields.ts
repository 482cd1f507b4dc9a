import { z } from 'zod';

/**
 * Reusable env fields. Each one parses the raw string once at boot, so services work with typed
 * values and a bad value is reported by variable name.
 */
export const envFields = {
  port: (fallback: number) =>
    z.coerce
      .number({ error: 'must be a port number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 65535')
      .max(65535, 'must be between 0 and 65535')
      .default(fallback),

  host: (fallback = '0.0.0.0') => z.string().min(1).default(fallback),

  postgresUrl: () =>
    z
      .string({ error: 'is required (a postgres:// URL)' })
      .refine((v) => /^postgres(ql)?:\/\/.+/.test(v) && URL.canParse(v), 'must be a postgres:// URL'),

  redisUrl: () =>
    z
      .string({ error: 'is required (a redis:// URL)' })
      .refine((v) => /^rediss?:\/\/.*/.test(v) && URL.canParse(v), 'must be a redis:// or rediss:// URL'),

  httpUrl: () =>
    z.string().refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), 'must be an http(s) URL'),

  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),

  positiveInt: (fallback: number) =>
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .positive('must be > 0')
      .default(fallback),

  /** Comma-separated list; empty entries are dropped. */
  list: () =>
    z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
};
