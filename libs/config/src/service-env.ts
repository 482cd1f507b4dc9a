import { z } from 'zod';
import { envFields } from './env-fields.js';

/** Variables every process of the suite reads. Apps spread these into their own schema. */
export const serviceEnv = {
  DATABASE_URL: envFields.postgresUrl(),
  /**
   * `pgbouncer`: DATABASE_URL names a transaction pooler (PgBouncer, pool_mode=transaction), so no
   * named statements and no session state go through it (libs/db/src/database-pooler.ts).
   */
  DATABASE_POOLER: z.enum(['none', 'pgbouncer'], { error: 'must be none or pgbouncer' }).default('none'),
  /** The main database without the pooler: migrations, advisory locks, tenant provisioning. */
  DIRECT_DATABASE_URL: envFields.postgresUrl().optional(),
  REDIS_URL: envFields.redisUrl(),
  HOST: envFields.host(),
  LOG_LEVEL: envFields.logLevel(),
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).default('json'),
  OTEL_EXPORTER_OTLP_ENDPOINT: envFields.httpUrl().optional(),
  /** GET /metrics (Prometheus text format) on the app's HTTP port; the worker serves it on HEALTH_PORT. */
  METRICS_ENABLED: envFields.bool(true),
  /**
   * The bearer token GET /metrics needs (Prometheus: `authorization: {credentials: ...}`); unset,
   * /metrics answers loopback clients only. Never through a proxy either way.
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
};

/** Secrets of serviceEnv: never repeated back by the config loader, masked in logged config. */
export const SERVICE_SENSITIVE: readonly string[] = ['METRICS_TOKEN'];

/** LLM providers (read by the jobs API, the gateway and the workers, so they agree on models). */
export const llmEnv = {
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: envFields.httpUrl().optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: envFields.httpUrl().optional(),
  /** "gpt-4.1-mini=openai,claude-sonnet-4-6=anthropic,llama3.1=openai" */
  LLM_MODELS: z.string().optional(),
  /** "llama3.1=0/0,gpt-4.1-mini=0.4/1.6" (USD per million input/output tokens) */
  LLM_MODEL_PRICES: z.string().optional(),
  LLM_DEFAULT_MODEL: z.string().optional(),
};
export const LLM_SENSITIVE = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'] as const;
