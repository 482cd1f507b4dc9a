export {
  AuthSecrets,
  looksLikeToken,
  randomToken,
  sha256Hex,
  type SecretPurpose,
} from './crypto/auth-secrets.js';
export { DOMAIN_TXT_PREFIX, domainTxtRecord } from './domains/domain-txt-record.js';
export { ActiveDeployments, type ActiveDeployment } from './deployments/active-deployments.js';
export {
  clampTimeout,
  DEFAULT_TIMEOUT_MS,
  MAX_TIMEOUT_MS,
  versionAtLeast,
  type DeployedHook,
  type DeployedJob,
  type DeployedMcpTool,
  type DeployedRoute,
  type DeploymentContent,
  type McpToolAuth,
  type ProjectFiles,
  type RouteAuth,
} from './deployments/deployment-record.js';
export { parseEnv } from './deployments/env-file.js';
export { CONNECTIONS_BUSY, failedForConnections } from './effects/connections-busy.js';
export { DATABASE_READ_ONLY, failedForReadOnly } from './effects/database-read-only.js';
export { EffectError } from './effects/effect-error.js';
export { RedisProjectMailBudget } from './effects/project-mail-budget.js';
export { ProjectEffects } from './effects/project-effects.js';
export { ProjectDatabase } from './effects/project-database.js';
export { ProjectDirectory, type ProjectDirectoryOptions } from './tenants/project-directory.js';
export {
  PROJECT_DIRECTORY_PROVIDER,
  PROJECT_RECORD_REPOSITORY_PROVIDER,
} from './tenants/project-directory.providers.js';
export { ProjectRecordRepository, type NewProjectRecord } from './tenants/project-record.repository.js';
export {
  CustomDomainRecordRepository,
  type NewCustomDomainRecord,
} from './tenants/custom-domain-record.repository.js';
export { type ProjectKey, type ProjectRecord } from './tenants/project-record.query.js';
export {
  announceProjectChange,
  announceTenantMove,
  ProjectChangeAnnouncer,
  subscribeProjectChanges,
  subscribeTenantMoves,
  type ProjectChange,
} from './tenants/tenant-moves.js';
export { ProjectJobs, MAX_DELAY_MS } from './effects/project-jobs.js';
export { ProjectJobsQueue, PROJECT_JOB_ATTEMPTS } from './effects/project-jobs.queue.js';
export { ProjectMail } from './effects/project-mail.js';
export { ProjectPush, type PushMessage } from './effects/project-push.js';
export { MAIL_ATTEMPTS, MAIL_BACKOFF_TYPE, mailJobOptions, mailRetryDelay } from './mail/mail-job.js';
export { MailLogRepository } from './mail/mail-log.repository.js';
export { MailOutbox, type MailKind, type OutgoingMail } from './mail/mail-outbox.js';
export { MAIL_OUTBOX_PROVIDERS } from './mail/mail-outbox.providers.js';
export {
  MailBudgets,
  mailClassOf,
  type MailBudgetSettings,
  type MailClass,
  type MailCounterFactory,
} from './mail/mail-budgets.js';
export { HIDDEN, MAIL_PREVIEW_MAX_LENGTH, mailPreview } from './mail/mail-preview.js';
export { deliverSmtpMail, type SmtpMail, type SmtpServer, type SmtpTimeouts } from './mail/smtp-delivery.js';
export { MailSealer, type MailBody } from './mail/mail-sealer.js';
export {
  connectionBudgetEnv,
  connectionBudgetOf,
  type ConnectionBudgetSettings,
} from './connection-budget.config.js';
export {
  platformSecretsEnv,
  PROJECT_RUNTIME_CONFIG,
  projectRuntimeEnv,
  requireAuthSecretInProduction,
  type ProjectRuntimeConfig,
} from './runtime.config.js';
export { PROJECT_RUNTIME_PROVIDERS } from './runtime.providers.js';
export { ProjectMailBudget, RuntimeResources } from './runtime.ports.js';
export { SandboxError, ProjectSandboxes, SandboxTimeoutError } from './sandbox/project-sandboxes.js';
export type * from './sandbox/sandbox-protocol.js';
