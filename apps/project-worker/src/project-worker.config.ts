import { envFields, loadConfigOrExit, serviceEnv, z } from '@suite/config';
import { platformSecretsEnv, projectRuntimeEnv, requireAuthSecretInProduction } from '@suite/project-runtime';
import { domainChecksEnv } from './domains/domain-checks.config.js';
import { mailDeliveryEnv } from './mail/mail-delivery.config.js';

export const projectWorkerEnv = z
  .object({
    ...serviceEnv,
    NODE_ENV: z.string().optional(),
    /** PLATFORM_ADMIN_TOKEN, AUTH_SECRET, TENANT_ADMIN_DATABASE_URL: the project host's values. */
    ...platformSecretsEnv,
    /** Project code's sandboxes and context limits: the project host's values. */
    ...projectRuntimeEnv,
    /** MAIL_RETRY_DELAY_MS, MAIL_SMTP_TIMEOUT_MS, MAIL_CONCURRENCY. */
    ...mailDeliveryEnv.shape,
    /** DOMAIN_DNS_SERVERS, DOMAIN_RECHECK_INTERVAL_MS, DOMAIN_VERIFIED_BY_ADMIN. */
    ...domainChecksEnv.shape,
    /**
     * At boot, ask for a sweep bringing platform_auth of every tenant database behind up to date
     * (one sweep at a time across replicas, resumable; GET /v1/tenant-servers shows it). Off:
     * tenants are still migrated on first use, and POST /v1/tenant-servers/upgrade asks for one.
     */
    TENANT_UPGRADES_ON_BOOT: envFields.bool(true),
    /** Health/metrics listener; 0 disables it. */
    HEALTH_PORT: envFields.port(8084),
  })
  .superRefine(requireAuthSecretInProduction);
export type ProjectWorkerConfig = z.infer<typeof projectWorkerEnv>;

export const PROJECT_WORKER_CONFIG = Symbol('PROJECT_WORKER_CONFIG');

export const loadProjectWorkerConfig = (env: NodeJS.ProcessEnv = process.env): ProjectWorkerConfig =>
  loadConfigOrExit('project-worker', projectWorkerEnv, env, {
    sensitive: ['PLATFORM_ADMIN_TOKEN', 'AUTH_SECRET', 'TENANT_DATABASE_SERVERS'],
  });
