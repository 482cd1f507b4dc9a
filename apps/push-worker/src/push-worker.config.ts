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
  /**
   * Tasks this process follows at once (a follow waits on the task's status events until it
   * settles, so it costs a subscription, not a thread); more wait in the push-follows queue.
   */
  PUSH_FOLLOW_CONCURRENCY: envFields.positiveInt(500),
  /** The runner's public origin: links in the task a notification carries are absolute. */
  PUBLIC_RUNNER_URL: envFields
    .httpUrl()
    .default('http://127.0.0.1:8080')
    .transform((v) => v.replace(/\/+$/, '')),
  /** Delivery attempts of one notification (exponential backoff from 1 s). */
  PUSH_ATTEMPTS: envFields.positiveInt(5),
  /** Webhook deliveries one owner gets on average per minute, and at once; then they are queued. */
  PUSH_DELIVERIES_PER_OWNER_PER_MINUTE: envFields.positiveInt(120),
  PUSH_DELIVERY_BURST: envFields.positiveInt(60),
  /** An owner's deliveries queued longer than this are dropped (logged) instead. */
  PUSH_DELIVERY_MAX_DELAY_S: envFields.positiveInt(900),
  /** Health/metrics listener; 0 disables it. */
  HEALTH_PORT: envFields.port(8085),
});
export type PushWorkerConfig = z.infer<typeof pushWorkerEnv>;

export const PUSH_WORKER_CONFIG = Symbol('PUSH_WORKER_CONFIG');

export const loadPushWorkerConfig = (env: NodeJS.ProcessEnv = process.env): PushWorkerConfig =>
  loadConfigOrExit('push-worker', pushWorkerEnv, env);
