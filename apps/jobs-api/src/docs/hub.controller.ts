import { Controller, Get, Header, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { pageSecurityHeaders } from '@suite/nest-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderHubPage } from './hub.page.js';
import { renderJobPage } from './job.page.js';

// The pages keep the caller's API key in the browser: they run only their own scripts, talk only
// to this origin and are never framed. Videos may come from presigned artifact URLs elsewhere.
const MEDIA = ['https:', 'http:', 'blob:'];
const PAGE_HEADERS = pageSecurityHeaders({ mediaSources: MEDIA });

/** Pages people look at: the documentation hub and a job's live page (data comes from /v1). */
@ApiExcludeController()
@Controller()
export class HubController {
  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  hub(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.headers(PAGE_HEADERS);
    return renderHubPage(`${request.protocol}://${request.host}`);
  }

  @Get('jobs/:job_id')
  @Header('content-type', 'text/html; charset=utf-8')
  job(@Param('job_id') id: string, @Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.headers(PAGE_HEADERS);
    return renderJobPage(id);
  }
}
