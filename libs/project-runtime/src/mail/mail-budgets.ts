import { queuePrefix } from '@suite/queue';
import { createHash } from 'node:crypto';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ProjectRuntimeConfig } from '../runtime.config.js';
import type { MailKind, OutgoingMail } from './mail-outbox.js';

/**
 * Sign-in and recovery mail (magic link, password reset, email-change code, the email-changed
 * notice) is what a user needs to get into their account; bulk mail (welcome, project code's
 * ctx.email.send) is what an anonymous burst can produce. Each class has an hourly budget of its
 * own, so a burst of sign-ups spends the bulk budget and never silences sign-in mail.
 */
export type MailClass = 'sign-in' | 'bulk';

export function mailClassOf(kind: MailKind): MailClass {
  return kind === 'welcome' || kind === 'custom' ? 'bulk' : 'sign-in';
}

/** Makes a counter of `points` per `durationSeconds` under `keyPrefix` (Redis, or memory in tests). */
export type MailCounterFactory = (
  keyPrefix: string,
  points: number,
  durationSeconds: number,
) => RateLimiterAbstract;

export type MailBudgetSettings = Pick<
  ProjectRuntimeConfig,
  'AUTH_MAIL_PER_PROJECT_PER_HOUR' | 'MAIL_BULK_PER_PROJECT_PER_HOUR' | 'MAIL_BULK_PER_ADDRESS_PER_HOUR'
>;

const HOUR = 3600;

/**
 * The hourly mail budgets of a project, by class, and the bulk cap per recipient (one address
 * cannot be mail-bombed with welcome or project mails). The keys are the same on the host and the
 * worker (`<REDIS_PREFIX>:ua:rl:mail-*`), so both count together. Sign-in mail to one address is
 * capped per requester where it is requested (the host's AUTH_MAIL_PER_ADDRESS_PER_HOUR), not
 * here: a cap any stranger could spend would lock the owner out of their own sign-in link.
 */
export class MailBudgets {
  private readonly signIn: RateLimiterAbstract;
  private readonly bulk: RateLimiterAbstract;
  private readonly bulkPerAddress: RateLimiterAbstract;

  constructor(
    counter: MailCounterFactory,
    private readonly settings: MailBudgetSettings,
  ) {
    const prefix = `${queuePrefix()}:ua:rl`;
    this.signIn = counter(`${prefix}:mail-project`, settings.AUTH_MAIL_PER_PROJECT_PER_HOUR, HOUR);
    this.bulk = counter(`${prefix}:mail-bulk`, settings.MAIL_BULK_PER_PROJECT_PER_HOUR, HOUR);
    this.bulkPerAddress = counter(`${prefix}:mail-bulk-to`, settings.MAIL_BULK_PER_ADDRESS_PER_HOUR, HOUR);
  }

  /**
   * Counts one mail against its class's budget: undefined when it fits, else why it is not sent
   * (for the mail log). A Redis failure other than a refusal is thrown.
   */
  async take(projectId: string, mail: Pick<OutgoingMail, 'kind' | 'to'>): Promise<string | undefined> {
    if (mailClassOf(mail.kind) === 'sign-in') {
      return (await refused(this.signIn, projectId))
        ? `the project's hourly budget of ${this.settings.AUTH_MAIL_PER_PROJECT_PER_HOUR} sign-in and recovery mails is spent`
        : undefined;
    }
    if (await refused(this.bulkPerAddress, `${projectId}:${digest(mail.to)}`)) {
      return `this address got ${this.settings.MAIL_BULK_PER_ADDRESS_PER_HOUR} welcome or project mails this hour already`;
    }
    return (await refused(this.bulk, projectId))
      ? `the project's hourly budget of ${this.settings.MAIL_BULK_PER_PROJECT_PER_HOUR} welcome and project mails is spent`
      : undefined;
  }

  /** Milliseconds until sign-in mail fits again when its budget is spent; else undefined. */
  async signInSpent(projectId: string): Promise<number | undefined> {
    const state = await this.signIn.get(projectId).catch(() => null);
    return state && state.remainingPoints <= 0 ? state.msBeforeNext : undefined;
  }
}

async function refused(counter: RateLimiterAbstract, key: string): Promise<boolean> {
  try {
    await counter.consume(key);
    return false;
  } catch (error) {
    if (error instanceof RateLimiterRes) return true;
    throw error;
  }
}

function digest(address: string): string {
  return createHash('sha256').update(address.trim().toLowerCase()).digest('base64url').slice(0, 32);
}
