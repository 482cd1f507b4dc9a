import type { TraceCarrier } from '@suite/telemetry';

/** Every queue of the suite, by name. Producers and consumers import these, never string literals. */
export const QueueName = {
  BrowserJobs: 'browser-jobs',
  AuthHooks: 'auth-hooks',
  Mail: 'mail',
  PushNotifications: 'push-notifications',
  PushFollows: 'push-follows',
  ProjectJobs: 'project-jobs',
  SuiteSchedules: 'suite-schedules',
  DomainChecks: 'domain-checks',
  DomainRechecks: 'domain-rechecks',
  TenantUpgrades: 'tenant-upgrades',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

/**
 * The job names each queue carries. Producers can add only these (a typed queue refuses others at
 * compile time), and a consumer must handle every one: `createWorker` checks at boot that each name
 * of its queue has a handler and refuses to start otherwise.
 */
export const JobNames = {
  [QueueName.BrowserJobs]: ['run'],
  [QueueName.AuthHooks]: ['batch'],
  [QueueName.Mail]: ['send'],
  [QueueName.PushNotifications]: ['deliver'],
  [QueueName.PushFollows]: ['follow'],
  [QueueName.ProjectJobs]: ['run'],
  [QueueName.SuiteSchedules]: ['run'],
  [QueueName.DomainChecks]: ['verify'],
  [QueueName.DomainRechecks]: ['recheck'],
  [QueueName.TenantUpgrades]: ['sweep'],
} as const satisfies Record<QueueName, readonly string[]>;
export type JobName<N extends QueueName> = (typeof JobNames)[N][number];

/** A browser test to run. Postgres holds the job itself; the payload only points at it. */
export interface BrowserJobPayload {
  jobId: string;
  trace: TraceCarrier;
}

/** A batch of auth events of one project, in order, published after the mutation committed. */
export interface AuthHookPayload {
  projectId: string;
  events: { kind: string; user: unknown; provider?: string; reason?: string; at: string }[];
  trace: TraceCarrier;
}

/** One mail to deliver through the project's SMTP; `mailLogId` is its row in the mail log. */
export interface MailPayload {
  projectId: string;
  mailLogId: string;
  /** With `sealed`, subject, text and html here are empty: the body is only in the sealed copy. */
  content: { kind: string; to: string; subject: string; text: string; html?: string };
  /** The subject, text and html, sealed by the host (they carry sign-in links and codes). */
  sealed?: string;
  trace: TraceCarrier;
}

/** One run of a project job (`jobs/<name>.ts`); the code is the project's active deployment at run time. */
export interface ProjectJobPayload {
  projectId: string;
  /** The project's job name, e.g. `welcome` for jobs/welcome.ts. */
  name: string;
  payload: unknown;
}

/** One status change of a task to POST to one of its A2A push notification configs. */
export interface PushNotificationPayload {
  configId: string;
  jobId: string;
  event: unknown;
  trace: TraceCarrier;
}

/**
 * A task with A2A push notification configs to follow until it settles: the push worker turns each
 * of its status changes into push-notifications jobs (so no gateway replica follows tasks). Its
 * BullMQ id is the task's, so a task is followed once at a time.
 */
export interface PushFollowPayload {
  jobId: string;
  /** The task had settled when this config was stored: only this config is told its end. */
  configId?: string;
}

/** A scheduled run of a suite, added by the suite's BullMQ job scheduler (its id is the suite id). */
export interface SuiteSchedulePayload {
  suiteId: string;
}

/** A custom domain to check now (it was added, or the admin asked): the project host waits for it. */
export interface DomainCheckPayload {
  domainId: string;
}

/** A tick of the custom-domain re-check's job scheduler: every domain's TXT record is looked up again. */
export type DomainRecheckPayload = Record<string, never>;

/** A sweep bringing platform_auth of every tenant database behind up to the worker's migrations. */
export interface TenantUpgradePayload {
  /** Who asked: a project worker at boot (TENANT_UPGRADES_ON_BOOT) or the control plane's admin. */
  requestedBy: 'boot' | 'admin';
}

/** Maps each queue to its payload type, so `createQueue(QueueName.BrowserJobs)` is typed. */
export interface QueuePayloads {
  [QueueName.BrowserJobs]: BrowserJobPayload;
  [QueueName.AuthHooks]: AuthHookPayload;
  [QueueName.Mail]: MailPayload;
  [QueueName.PushNotifications]: PushNotificationPayload;
  [QueueName.PushFollows]: PushFollowPayload;
  [QueueName.ProjectJobs]: ProjectJobPayload;
  [QueueName.SuiteSchedules]: SuiteSchedulePayload;
  [QueueName.DomainChecks]: DomainCheckPayload;
  [QueueName.DomainRechecks]: DomainRecheckPayload;
  [QueueName.TenantUpgrades]: TenantUpgradePayload;
}
