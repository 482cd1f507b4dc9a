import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ApiKeyService, type Principal } from '@suite/jobs';
import type { FastifyRequest } from 'fastify';

export type AuthedRequest = FastifyRequest & { principal: Principal };

/** Every job endpoint needs an API key (Authorization: Bearer or X-API-Key). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(@Inject(ApiKeyService) private readonly keys: ApiKeyService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    request.principal = await this.keys.authenticate(ApiKeyService.keyFromHeaders(request.headers));
    return true;
  }
}
