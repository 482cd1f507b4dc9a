import { Controller, Get, Header, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { pageSecurityHeaders } from '@suite/nest-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderHubPage } from './hub.page.js';
import { renderJobPage } from './job.page.js';
import { renderSuiteRunPage, renderSuitesPage } from './suites.page.js';

// The pages keep the caller's API key in the browser: they run only their own scripts, talk only
// to this origin and are never framed. Videos may come from presigned artifact URLs elsewhere.
const MEDIA = ['https:', 'http:', 'blob:'];
const PAGE_HEADERS = pageSecurityHeaders({ mediaSources: MEDIA });

/** Pages people look at: the documentation hub, a job's live page, suites and a suite run (data comes from /v1). */
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

  @Get('suites')
  @Header('content-type', 'text/html; charset=utf-8')
  suites(@Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.headers(PAGE_HEADERS);
    return renderSuitesPage();
  }

  @Get('suites/:suite_id/runs/:run_id')
  @Header('content-type', 'text/html; charset=utf-8')
  suiteRun(
    @Param('suite_id') suiteId: string,
    @Param('run_id') runId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): string {
    void reply.headers(PAGE_HEADERS);
    return renderSuiteRunPage(suiteId, runId);
  }
}
