import { Controller, Get, Header, Param, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { renderHubPage } from './hub.page.js';
import { renderJobPage } from './job.page.js';

/** Pages people look at: the documentation hub and a job's live page (data comes from /v1). */
@ApiExcludeController()
@Controller()
export class HubController {
  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  hub(@Req() request: FastifyRequest): string {
    return renderHubPage(`${request.protocol}://${request.host}`);
  }

  @Get('jobs/:job_id')
  @Header('content-type', 'text/html; charset=utf-8')
  job(@Param('job_id') id: string): string {
    return renderJobPage(id);
  }
}
