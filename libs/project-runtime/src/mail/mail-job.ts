import type { JobsOptions } from 'bullmq';

/** Delivery attempts of one mail (the first one and four retries). */
export const MAIL_ATTEMPTS = 5;

/**
 * The mail queue's own backoff: the delay is computed by the delivery worker from
 * MAIL_RETRY_DELAY_MS at retry time, so it can be tuned (or shortened in tests) without touching
 * mails already queued.
 */
export const MAIL_BACKOFF_TYPE = 'mail-retry';

/** Job options of a mail; the job id is the mail-log row's id, so a mail is queued at most once. */
export function mailJobOptions(mailLogId: string): JobsOptions {
  return {
    jobId: mailLogId,
    attempts: MAIL_ATTEMPTS,
    backoff: { type: MAIL_BACKOFF_TYPE },
    // Nothing of a delivered mail stays in Redis (the mail log keeps what the dashboard shows);
    // a failed one stays a day for inspection, its body sealed.
    removeOnComplete: true,
    removeOnFail: { age: 24 * 3600 },
  };
}

/** Exponential: base, 2×base, 4×base... after the 1st, 2nd, 3rd failed attempt; at most one hour. */
export function mailRetryDelay(attemptsMade: number, baseDelayMs: number): number {
  return Math.min(baseDelayMs * 2 ** Math.max(0, attemptsMade - 1), 3_600_000);
}
