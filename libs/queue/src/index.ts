export {
  JobNames,
  QueueName,
  type JobName,
  type ProjectJobPayload,
  type AuthHookPayload,
  type BrowserJobPayload,
  type MailPayload,
  type PushFollowPayload,
  type PushNotificationPayload,
  type SuiteSchedulePayload,
  type DomainCheckPayload,
  type DomainRecheckPayload,
  type TenantUpgradePayload,
  type QueuePayloads,
} from './queue-names.js';
export { createProducerConnection, createRedisConnection, redisReady } from './redis-connection.js';
export {
  assertJobHandlers,
  createQueue,
  createWorker,
  MissingJobHandlerError,
  type JobHandlers,
  type TypedWorker,
  queuePrefix,
  queueSnapshot,
  type QueueSnapshot,
  type TypedJob,
  type TypedQueue,
} from './queue-factory.js';
export { QueueHealth } from './queue-health.js';
export { consumeQueue, type QueueConsumer, type QueueConsumerOptions } from './queue-consumer.js';
export { syncPeriodicJob, type PeriodicJob } from './periodic-job.js';
