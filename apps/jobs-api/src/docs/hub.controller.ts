import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { renderHubPage } from './hub.page.js';

@ApiExcludeController()
@Controller()
export class HubController {
  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  hub(@Req() request: FastifyRequest): string {
    return renderHubPage(`${request.protocol}://${request.host}`);
  }
}
