import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { queuePrefix } from '@suite/queue';
import type { FastifyRequest } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { RateLimiters } from '../platform/rate-limiters.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { ipBucket } from '../user-auth/limits/auth-rate-limits.js';
import { clientIp } from '../user-auth/limits/client-ip.js';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
const FIFTEEN_MINUTES = 15 * 60;

/**
 * The control-plane API needs `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>`. Guessing is held
 * off per client address: ADMIN_TOKEN_FAILURES_PER_15_MINUTES wrong tokens (here or at
 * POST /v1/admin/token-check), then 429 with Retry-After for every attempt from that address, the
 * right token included (else its answers would still tell a right guess from a wrong one), until
 * the window ends. Counted in Redis, so every replica counts together; a request without a token
 * guesses nothing and is not counted.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;
  private readonly failures: RateLimiterAbstract;

  constructor(
    @Inject(PROJECT_HOST_CONFIG) private readonly config: ProjectHostConfig,
    counters: RateLimiters,
  ) {
    this.expected = digest(config.PLATFORM_ADMIN_TOKEN);
    this.failures = counters.counter(
      `${queuePrefix()}:cp:rl:admin-token-failures`,
      config.ADMIN_TOKEN_FAILURES_PER_15_MINUTES,
      FIFTEEN_MINUTES,
    );
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    const token = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
    if (!token || !(await this.verify(token, request))) {
      throw new AuthError(
        AuthErrorCode.Unauthorized,
        header
          ? 'The control-plane token is not valid.'
          : 'The control-plane API needs Authorization: Bearer <PLATFORM_ADMIN_TOKEN>.',
      );
    }
    return true;
  }

  /**
   * Whether `token` is the admin token, as an attempt of `request`'s client: a wrong one counts
   * against the client's budget; 429 rate_limited once it is spent.
   */
  async verify(token: string, request: FastifyRequest): Promise<boolean> {
    const key = ipBucket(
      clientIp(
        request.raw.socket.remoteAddress,
        request.headers['x-forwarded-for'],
        this.config.TRUSTED_PROXY_HOPS,
      ),
    );
    if (this.matches(token)) {
      const state = await this.failures.get(key).catch(() => null);
      if (state && state.remainingPoints <= 0) throw rateLimited(state.msBeforeNext);
      return true;
    }
    try {
      // Atomic: parallel guesses cannot all slip past the budget.
      await this.failures.consume(key);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw rateLimited(error.msBeforeNext);
      throw error;
    }
    return false;
  }

  /** Equal-length digests, compared in constant time: neither the token nor its length leaks. */
  private matches(token: string): boolean {
    return timingSafeEqual(digest(token), this.expected);
  }
}

function rateLimited(msBeforeNext: number): AuthError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AuthError(
    AuthErrorCode.RateLimited,
    `Too many wrong control-plane tokens from this address; try again in ${seconds} s`,
    { retryAfterSeconds: seconds },
  );
}
