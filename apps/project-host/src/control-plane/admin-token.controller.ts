import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { ADMIN_INPUT, AdminTokenCheckDto } from '@suite/contracts';
import type { FastifyRequest } from 'fastify';
import { ControlPlaneHostGuard } from '../projects/host.guards.js';
import { AdminTokenGuard } from './admin-token.guard.js';

/**
 * The dashboard's sign-in: whether a token is the admin token, answered 200 either way, so a
 * mistyped token is a plain "no" on the page rather than a failed request. It tells no more than
 * any control-plane call with that token would (200 or 401), and a wrong token counts against the
 * same per-address budget (429 with Retry-After once spent).
 */
@ApiTags('control plane')
@UseGuards(ControlPlaneHostGuard)
@Controller('v1/admin/token-check')
export class AdminTokenController {
  constructor(private readonly guard: AdminTokenGuard) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Whether a token is PLATFORM_ADMIN_TOKEN (the dashboard checks before it keeps one).',
  })
  @ApiOkResponse({ description: '`{ "valid": true }` or `{ "valid": false }`.' })
  @ApiTooManyRequestsResponse({ description: 'rate_limited: too many wrong tokens from this address.' })
  async check(
    @Body(ADMIN_INPUT) body: AdminTokenCheckDto,
    @Req() request: FastifyRequest,
  ): Promise<{ valid: boolean }> {
    return { valid: await this.guard.verify(body.token, request) };
  }
}
