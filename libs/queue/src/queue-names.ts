import type { TraceCarrier } from '@suite/telemetry';

/** Every queue of the suite, by name. Producers and consumers import these, never string literals. */
export const QueueName = {
  BrowserJobs: 'browser-jobs',
  AuthHooks: 'auth-hooks',
  Mail: 'mail',
  PushNotifications: 'push-notifications',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

/** A browser test to run. Postgres holds the job itself; the payload only points at it. */
export interface BrowserJobPayload {
  jobId: string;
  trace: TraceCarrier;
}

export interface AuthHookPayload {
  projectId: string;
  events: { kind: string; user: unknown; provider?: string; at: string }[];
  trace: TraceCarrier;
}

export interface MailPayload {
  projectId: string;
  mailLogId: string;
  trace: TraceCarrier;
}

export interface PushNotificationPayload {
  configId: string;
  jobId: string;
  event: unknown;
  trace: TraceCarrier;
}

/** Maps each queue to its payload type, so `createQueue(QueueName.BrowserJobs)` is typed. */
export interface QueuePayloads {
  [QueueName.BrowserJobs]: BrowserJobPayload;
  [QueueName.AuthHooks]: AuthHookPayload;
  [QueueName.Mail]: MailPayload;
  [QueueName.PushNotifications]: PushNotificationPayload;
}
