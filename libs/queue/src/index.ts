export {
  QueueName,
  type AuthHookPayload,
  type BrowserJobPayload,
  type MailPayload,
  type PushNotificationPayload,
  type QueuePayloads,
} from './queue-names.js';
export { createProducerConnection, createRedisConnection } from './redis-connection.js';
export {
  createQueue,
  createWorker,
  queuePrefix,
  queueSnapshot,
  type QueueSnapshot,
  type TypedJob,
  type TypedQueue,
} from './queue-factory.js';
