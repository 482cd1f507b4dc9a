import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AuthError, AuthErrorCode } from '@suite/errors';
import type { FastifyRequest } from 'fastify';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import type { ProjectHostConfig } from '../project-host.config.js';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** The control-plane API needs `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>`. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig) {
    this.expected = digest(config.PLATFORM_ADMIN_TOKEN);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    const token = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
    if (!token || !this.matches(token)) {
      throw new AuthError(
        AuthErrorCode.Unauthorized,
        header
          ? 'The control-plane token is not valid.'
          : 'The control-plane API needs Authorization: Bearer <PLATFORM_ADMIN_TOKEN>.',
      );
    }
    return true;
  }

  /** Equal-length digests, compared in constant time: neither the token nor its length leaks. */
  matches(token: string): boolean {
    return timingSafeEqual(digest(token), this.expected);
  }
}
