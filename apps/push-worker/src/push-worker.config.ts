import { envFields, loadConfigOrExit, serviceEnv, z } from '@suite/config';
import { webhookEnv } from '@suite/push-delivery';

export const pushWorkerEnv = z.object({
  ...serviceEnv,
  /** PUSH_ALLOWED_HOSTS, PUSH_DNS_SERVERS: where webhooks may go (the gateway reads them too). */
  ...webhookEnv,
  /** One webhook POST waits this long before it counts as failed (and is retried). */
  PUSH_TIMEOUT_MS: envFields.positiveInt(10_000),
  /** Notifications POSTed at once by this process. */
  PUSH_CONCURRENCY: envFields.positiveInt(8),
  /** Health/metrics listener; 0 disables it. */
  HEALTH_PORT: envFields.port(8085),
});
export type PushWorkerConfig = z.infer<typeof pushWorkerEnv>;

export const PUSH_WORKER_CONFIG = Symbol('PUSH_WORKER_CONFIG');

export const loadPushWorkerConfig = (env: NodeJS.ProcessEnv = process.env): PushWorkerConfig =>
  loadConfigOrExit('push-worker', pushWorkerEnv, env);
