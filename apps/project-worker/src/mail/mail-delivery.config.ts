import { envFields, z } from '@suite/config';

/** Mail delivery settings, read from the environment at boot (they are not project settings). */
export const mailDeliveryEnv = z.object({
  /** Delay before the first retry of a failed delivery; each later retry waits twice as long. */
  MAIL_RETRY_DELAY_MS: envFields.positiveInt(2_000),
  /** Connection, greeting and DNS timeout of one SMTP exchange; the socket may idle 3× this long. */
  MAIL_SMTP_TIMEOUT_MS: envFields.positiveInt(10_000),
  /** Mails sent at once by this process. */
  MAIL_CONCURRENCY: envFields.positiveInt(4),
});
export type MailDeliveryConfig = z.infer<typeof mailDeliveryEnv>;

export const MAIL_DELIVERY_CONFIG = Symbol('MAIL_DELIVERY_CONFIG');
