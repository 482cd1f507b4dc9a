import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { queuePrefix } from '@suite/queue';
import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { MailBudgets, type OutgoingMail } from '@suite/project-runtime';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import { RateLimiters } from '../../platform/rate-limiters.js';
import type { ProjectHostConfig } from '../../project-host.config.js';

/** Per-IP buckets: each family of routes has its own, so refreshing never eats the login budget. */
export type IpLimitGroup = 'login' | 'register' | 'mail' | 'callback' | 'refresh' | 'profile';
/** Per-account buckets, keyed by email, user id or refresh-token hash. */
export type AccountLimitGroup = 'login' | 'register' | 'password-check' | 'refresh';
export type MailLimitKind = 'magic-link' | 'forgot-password' | 'email-change';

const FIFTEEN_MINUTES = 15 * 60;
const HOUR = 3600;

/**
 * Rate limits of end-user auth (rate-limiter-flexible counters, RateLimiters: in Redis under
 * REDIS_PREFIX, so every replica of the host counts together). Refusals are 429 rate_limited with Retry-After. Keys hold hashes, not addresses.
 */
@Injectable()
export class AuthRateLimits {
  private readonly logger = new Logger('auth-rate-limits');
  private readonly ip: Record<IpLimitGroup, RateLimiterAbstract>;
  private readonly account: Record<AccountLimitGroup, RateLimiterAbstract>;
  private readonly accountOthers: RateLimiterAbstract;
  private readonly mailCooldown: RateLimiterAbstract | undefined;
  private readonly mailPerAddress: RateLimiterAbstract;
  private readonly mailBudgets: MailBudgets;

  constructor(counters: RateLimiters, @Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig) {
    const prefix = `${queuePrefix()}:ua:rl`;
    const make = (name: string, points: number, duration: number): RateLimiterAbstract =>
      counters.counter(`${prefix}:${name}`, points, duration);
    const perIp = config.AUTH_RATE_LIMIT_IP_PER_MINUTE;
    this.ip = {
      login: make('ip-login', perIp, 60),
      register: make('ip-register', perIp, 60),
      mail: make('ip-mail', perIp, 60),
      callback: make('ip-callback', perIp, 60),
      profile: make('ip-profile', perIp, 60),
      refresh: make('ip-refresh', config.AUTH_RATE_LIMIT_REFRESH_PER_MINUTE, 60),
    };
    const perAccount = config.AUTH_RATE_LIMIT_ACCOUNT_PER_15_MINUTES;
    this.account = {
      login: make('account-login', perAccount, FIFTEEN_MINUTES),
      register: make('account-register', perAccount, FIFTEEN_MINUTES),
      'password-check': make('account-password', perAccount, FIFTEEN_MINUTES),
      refresh: make('account-refresh', perAccount, FIFTEEN_MINUTES),
    };
    this.accountOthers = make(
      'account-others',
      config.AUTH_RATE_LIMIT_ACCOUNT_OTHERS_PER_15_MINUTES,
      FIFTEEN_MINUTES,
    );
    this.mailCooldown = config.AUTH_MAIL_COOLDOWN_SECONDS
      ? make('mail-cooldown', 1, config.AUTH_MAIL_COOLDOWN_SECONDS)
      : undefined;
    this.mailPerAddress = make('mail-address', config.AUTH_MAIL_PER_ADDRESS_PER_HOUR, HOUR);
    this.mailBudgets = new MailBudgets(
      (keyPrefix, points, duration) => counters.counter(keyPrefix, points, duration),
      config,
    );
  }

  /** One request of a route family from a client address (IPv6 counts per /64, one subscriber). */
  async consumeIp(group: IpLimitGroup, projectId: string, ip: string): Promise<void> {
    await this.consume(this.ip[group], `${projectId}:${ipBucket(ip)}`, 'Too many requests from this address');
  }

  /** One attempt on an account (an email, a user id or a refresh-token hash). */
  async consumeAccount(group: AccountLimitGroup, projectId: string, subject: string): Promise<void> {
    await this.consume(
      this.account[group],
      `${projectId}:${digest(subject)}`,
      'Too many attempts for this account',
    );
  }

  /**
   * A login (or sign-up) attempt on `email` from `ip`. Counted per account *and address*, so
   * attackers elsewhere cannot lock the owner out; and an address the account never signed in
   * from (`own` false) is held off once the account's failures from such addresses reached their
   * limit (AUTH_RATE_LIMIT_ACCOUNT_OTHERS_PER_15_MINUTES).
   */
  async consumeSignIn(
    group: 'login' | 'register',
    projectId: string,
    email: string,
    ip: string,
    own: boolean,
  ): Promise<void> {
    await this.consume(
      this.account[group],
      `${projectId}:${digest(email)}:${ipBucket(ip)}`,
      'Too many attempts for this account from this address',
    );
    if (own || group !== 'login') return;
    const state = await this.accountOthers.get(`${projectId}:${digest(email)}`).catch(() => null);
    if (state && state.remainingPoints <= 0) {
      throw rateLimited('Too many failed sign-ins for this account from new addresses', state.msBeforeNext);
    }
  }

  /** A wrong password from an address the account never signed in from. */
  async loginFailedFromOther(projectId: string, email: string): Promise<void> {
    await this.accountOthers.consume(`${projectId}:${digest(email)}`).catch(() => undefined);
  }

  /** Forgets the attempts of a successful login's address. */
  async loginSucceeded(projectId: string, email: string, ip: string): Promise<void> {
    await this.account.login.delete(`${projectId}:${digest(email)}:${ipBucket(ip)}`).catch(() => undefined);
  }

  /**
   * A request that mails `address` (magic link, forgot password, email change): the project's
   * hourly sign-in mail budget, then the cooldown and the hourly count of the address. Those are counted per
   * requester for an address the account signed in from (`ownIp`), and for every other requester
   * together (the mail-bombing cap), so requests from elsewhere never use up the allowance of the
   * user's own address. Counted whether or not an account exists: the answer never tells which
   * addresses have one.
   */
  async consumeMailRequest(
    kind: MailLimitKind,
    projectId: string,
    address: string,
    ownIp?: string,
  ): Promise<void> {
    const requester = ownIp === undefined ? 'others' : ipBucket(ownIp);
    await this.assertProjectMailBudget(projectId);
    if (this.mailCooldown) {
      await this.consume(
        this.mailCooldown,
        `${projectId}:${kind}:${digest(address)}:${requester}`,
        'A mail was sent to this address moments ago; wait before asking again',
      );
    }
    await this.consume(
      this.mailPerAddress,
      `${projectId}:${digest(address)}:${requester}`,
      'Too many mails to this address',
    );
  }

  /**
   * Counts one mail against its class's hourly budget (sign-in and recovery, or welcome and
   * project mail: MailBudgets); undefined when it fits, else why it is not sent.
   */
  takeMail(projectId: string, mail: Pick<OutgoingMail, 'kind' | 'to'>): Promise<string | undefined> {
    return this.mailBudgets.take(projectId, mail);
  }

  /** Sign-in mail requests get 429 once the project's sign-in and recovery budget is spent. */
  private async assertProjectMailBudget(projectId: string): Promise<void> {
    const msBeforeNext = await this.mailBudgets.signInSpent(projectId);
    if (msBeforeNext !== undefined) {
      throw rateLimited('This project has sent too many sign-in mails this hour', msBeforeNext);
    }
  }

  private async consume(limiter: RateLimiterAbstract, key: string, message: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw rateLimited(message, error.msBeforeNext);
      throw error;
    }
  }
}

function rateLimited(message: string, msBeforeNext: number): AuthError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AuthError(AuthErrorCode.RateLimited, `${message}; try again in ${seconds} s`, {
    retryAfterSeconds: seconds,
  });
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 32);
}

/** IPv6 addresses count per /64 (what one subscriber usually gets); IPv4 per address. */
export function ipBucket(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}
