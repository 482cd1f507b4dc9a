import { Injectable } from '@nestjs/common';
import { ApiKeyService, type Principal } from '@suite/jobs';
import type { FastifyRequest } from 'fastify';

/** The API keys of /v1, accepted as "Authorization: Bearer <key>" or "X-API-Key: <key>". */
@Injectable()
export class GatewayAuth {
  constructor(private readonly keys: ApiKeyService) {}

  authenticate(request: FastifyRequest): Promise<Principal> {
    return this.keys.authenticate(ApiKeyService.keyFromHeaders(request.headers));
  }
}
