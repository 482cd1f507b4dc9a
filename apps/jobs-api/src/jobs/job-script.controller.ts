import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { HttpErrorDto, HttpValidationErrorDto } from '@suite/contracts';
import type { Principal } from '@suite/jobs';
import type { FastifyReply } from 'fastify';
import { RunnerApi } from '../auth/runner-api.decorator.js';
import { CurrentPrincipal } from '../auth/principal.decorator.js';
import { JobScriptService } from './job-script.service.js';

@RunnerApi('jobs')
@Controller('v1/jobs')
export class JobScriptController {
  constructor(private readonly scripts: JobScriptService) {}

  @Get(':job_id/script')
  @ApiOperation({
    summary: 'Export a passed run as a runnable test',
    description:
      'The actions the run performed (interpreter or LLM agent), with the elements it found (role and accessible name, or text, with a CSS fallback), as a `@playwright/test` spec (`format=playwright`, the default) or a standalone ESM Puppeteer script (`format=puppeteer`). Secrets from `metadata.secrets` appear as `process.env.NAME` (the name upper-cased), never as values. Sent as an attachment.',
  })
  @ApiQuery({ name: 'format', required: false, enum: ['playwright', 'puppeteer'] })
  // Only the 200 is JavaScript; the errors stay JSON (ApiProduces would relabel them all).
  @ApiOkResponse({
    description: 'The script (Content-Disposition: attachment).',
    content: { 'text/javascript': { schema: { type: 'string' } } },
  })
  @ApiNotFoundResponse({ description: 'No such job for this key\u2019s owner.', type: HttpErrorDto })
  @ApiUnprocessableEntityResponse({
    description:
      'Unknown `format` (loc `query.format`), or no script yet (loc `path.job_id`, type `script_unavailable`): the job has not finished, did not pass, or recorded no actions.',
    type: HttpValidationErrorDto,
  })
  async script(
    @CurrentPrincipal() principal: Principal,
    @Param('job_id') id: string,
    @Query('format') format: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const script = await this.scripts.script(principal, id, format);
    void reply.header('content-type', script.contentType);
    void reply.header('content-disposition', `attachment; filename="${script.filename}"`);
    void reply.header('cache-control', 'private, no-store');
    return script.body;
  }
}
