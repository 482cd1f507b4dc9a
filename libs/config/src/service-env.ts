import { z } from 'zod';
import { envFields } from './env-fields.js';

/** Variables every process of the suite reads. Apps spread these into their own schema. */
export const serviceEnv = {
  DATABASE_URL: envFields.postgresUrl(),
  REDIS_URL: envFields.redisUrl(),
  HOST: envFields.host(),
  LOG_LEVEL: envFields.logLevel(),
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).default('json'),
  OTEL_EXPORTER_OTLP_ENDPOINT: envFields.httpUrl().optional(),
};
