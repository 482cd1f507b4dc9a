export { PushConfigRepository, type PushConfig, type PushConfigData } from './push-config.repository.js';
export { webhookEnv } from './push-env.js';
export { postNotification, webhookPolicy, type WebhookOptions } from './webhook.js';
