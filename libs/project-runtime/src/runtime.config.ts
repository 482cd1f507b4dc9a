import { envFields, serviceEnv, z } from '@suite/config';
import { parseTenantServerList } from '@suite/db';
import { sandboxEnv } from '@suite/sandbox';
import { connectionBudgetEnv } from './connection-budget.config.js';

/**
 * What the project host and the project worker both need of their environment: the control-plane
 * token and the auth secret (mail bodies are sealed with it, and tenant roles' passwords derived
 * from it), and where tenant databases live.
 */
export const platformSecretsEnv = {
  PLATFORM_ADMIN_TOKEN: z
    .string({ error: 'is required (the control-plane bearer token)' })
    .min(16, 'must be at least 16 characters'),
  /**
   * Server secret of end-user auth: keys the HMAC of mailed codes and seals signing keys and the
   * refresh grace cache. Required when NODE_ENV=production. Elsewhere, when unset, a development
   * secret is derived from PLATFORM_ADMIN_TOKEN (so changing that token then invalidates mailed
   * codes and makes the host mint new signing keys).
   */
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 48)').optional(),
  /** Server URL with rights to CREATE DATABASE, for tenant databases (defaults to DATABASE_URL's server). */
  TENANT_ADMIN_DATABASE_URL: envFields.postgresUrl().optional(),
  /** DB_CONNECTION_BUDGET, DB_CONNECTION_WAIT_MS: the Postgres connections of one process. */
  ...connectionBudgetEnv,
  /**
   * The servers tenant databases are placed on: `name[:capacity]=<admin URL>` entries separated by
   * spaces or commas; a new project goes to the one with the fewest projects relative to its
   * capacity. Unset: one server, `default` (TENANT_ADMIN_DATABASE_URL or DATABASE_URL's server).
   */
  TENANT_DATABASE_SERVERS: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (!value?.trim()) return;
      try {
        parseTenantServerList(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
};

/** Project code on the host and the worker: the sandboxes it runs in and the limits of its context. */
export const projectRuntimeEnv = {
  /**
   * Sign-in and recovery mails per hour of one project (magic link, password reset, email-change
   * code, email-changed notice). Welcome and project mails have a budget of their own, so a burst
   * of sign-ups cannot silence sign-in mail.
   */
  AUTH_MAIL_PER_PROJECT_PER_HOUR: envFields.positiveInt(500),
  /** Welcome mails and ctx.email.send mails per hour of one project, together. */
  MAIL_BULK_PER_PROJECT_PER_HOUR: envFields.positiveInt(500),
  /** Welcome and ctx.email.send mails per hour to one address of a project (against mail-bombing). */
  MAIL_BULK_PER_ADDRESS_PER_HOUR: envFields.positiveInt(10),
  // Project code's context (ctx.db, ctx.jobs, ctx.email, ctx.push): limits it cannot lift
  /** Longest a ctx.db statement runs: set by the host on every call, which cancels one that overruns. */
  PROJECT_DB_STATEMENT_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(100, 'must be between 100 and 60000')
    .max(60_000, 'must be between 100 and 60000 (milliseconds)')
    .default(10_000),
  /** Rows one ctx.db call may return (more is refused: add a LIMIT). */
  PROJECT_DB_MAX_ROWS: envFields.positiveInt(1_000),
  /** Size of one ctx.db result as JSON, in KB (below the sandbox's 8 MB per message). */
  PROJECT_DB_MAX_RESULT_KB: envFields
    .positiveInt(4_096)
    .pipe(z.number().max(6_144, 'must be ≤ 6144 (a message to a sandbox is at most 8 MB)')),
  /**
   * Storage quota of a project's database, in MB: pg_database_size, so its tables and indexes,
   * the platform's users and sessions, and Postgres's own catalogs (about 8 MB) count.
   */
  PROJECT_DB_QUOTA_MB: envFields.positiveInt(256),
  /** Temporary files (sorts, hashes) one statement of project SQL may write, in MB (the role's temp_file_limit). */
  PROJECT_DB_TEMP_FILE_LIMIT_MB: envFields.positiveInt(256),
  /** ctx.jobs.enqueue calls per minute of one project, every host together. */
  PROJECT_JOBS_PER_MINUTE: envFields.positiveInt(600),
  /** Jobs of one project queued, delayed or running at once. */
  PROJECT_JOBS_MAX_PENDING: envFields.positiveInt(10_000),
  /** JSON payload of one job, in KB. */
  PROJECT_JOB_PAYLOAD_KB: envFields.positiveInt(64),
  /** ctx.email.send calls per minute of one project (its mails also count in MAIL_BULK_PER_PROJECT_PER_HOUR). */
  PROJECT_EMAIL_PER_MINUTE: envFields.positiveInt(30),
  /** Text and HTML of one ctx.email.send together, in KB. */
  PROJECT_EMAIL_BODY_KB: envFields.positiveInt(256),
  /** ctx.push.send calls per minute of one project. */
  PROJECT_PUSH_PER_MINUTE: envFields.positiveInt(600),
  // Sandboxes (see @suite/sandbox)
  ...sandboxEnv,
};

const _runtimeEnv = z.object({
  DATABASE_URL: serviceEnv.DATABASE_URL,
  REDIS_URL: serviceEnv.REDIS_URL,
  ...platformSecretsEnv,
  ...projectRuntimeEnv,
});

/** The settings the runtime reads: both apps' configs hold them (they spread the two objects above). */
export type ProjectRuntimeConfig = z.infer<typeof _runtimeEnv> & { NODE_ENV?: string | undefined };

/** AUTH_SECRET is required in production (the apps' schemas refine with this). */
export function requireAuthSecretInProduction(
  env: { NODE_ENV?: string | undefined; AUTH_SECRET?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (env.NODE_ENV === 'production' && !env.AUTH_SECRET) {
    ctx.addIssue({
      code: 'custom',
      path: ['AUTH_SECRET'],
      message: 'is required when NODE_ENV=production (32+ random characters, e.g. openssl rand -base64 48)',
    });
  }
}

export const PROJECT_RUNTIME_CONFIG = Symbol('PROJECT_RUNTIME_CONFIG');
