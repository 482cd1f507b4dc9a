export {
  PushConfigLimitError,
  PushConfigRepository,
  type PushConfig,
  type PushConfigData,
  type PushConfigLimits,
} from './push-config.repository.js';
export { webhookEnv } from './push-env.js';
export { postNotification, postWebhook, webhookPolicy, type WebhookOptions } from './webhook.js';
export { checkWebhookUrl, type WebhookUrlCheck } from './webhook-url.js';
export { PushFollowQueue } from './push-follow.queue.js';
