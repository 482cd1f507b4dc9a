import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  CancelJobResultDto,
  CreateJobDto,
  HttpErrorDto,
  HttpValidationErrorDto,
  JobListDto,
  JobRecordDto,
  JobStatus,
  ListJobsQueryDto,
  RUNNER_INPUT,
} from '@suite/contracts';
import { JobService, type Principal } from '@suite/jobs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JobStreamService } from './job-stream.service.js';
import { RunnerApi } from '../auth/runner-api.decorator.js';
import { CurrentPrincipal } from '../auth/principal.decorator.js';

@RunnerApi('jobs')
@ApiUnprocessableEntityResponse({ description: 'Validation error.', type: HttpValidationErrorDto })
@Controller('v1/jobs')
export class JobsController {
  constructor(
    private readonly jobs: JobService,
    private readonly streams: JobStreamService,
  ) {}

  @Post()
  @HttpCode(202)
  @ApiBody({ type: CreateJobDto })
  @ApiAcceptedResponse({ description: 'The job is queued.', type: JobRecordDto })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(RUNNER_INPUT) request: CreateJobDto,
  ): Promise<JobRecordDto> {
    return this.jobs.create(principal, request);
  }

  @Get()
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
  })
  @ApiQuery({ name: 'status', required: false, enum: JobStatus })
  @ApiQuery({
    name: 'q',
    required: false,
    description: 'Only jobs whose query (any case) or `metadata.title` contains this text.',
    schema: { type: 'string', minLength: 1, maxLength: 200 },
  })
  @ApiQuery({
    name: 'before',
    required: false,
    description:
      'Paging: only jobs older than this job of yours (the id of the last job of the previous page).',
    schema: { type: 'string', format: 'uuid' },
  })
  @ApiOkResponse({ description: 'Recent jobs of the key\u2019s owner, newest first.', type: JobListDto })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(RUNNER_INPUT) query: ListJobsQueryDto,
  ): Promise<JobListDto> {
    return this.jobs.list(principal, query);
  }

  @Get(':job_id')
  @ApiOkResponse({ type: JobRecordDto })
  @ApiNotFoundResponse({ type: HttpErrorDto })
  get(@CurrentPrincipal() principal: Principal, @Param('job_id') id: string): Promise<JobRecordDto> {
    return this.jobs.get(principal, id);
  }

  @Delete(':job_id')
  @ApiOkResponse({
    description: 'Queued jobs are cancelled; running and finished jobs are left as they are.',
    type: CancelJobResultDto,
  })
  @ApiNotFoundResponse({ type: HttpErrorDto })
  cancel(@CurrentPrincipal() principal: Principal, @Param('job_id') id: string): Promise<CancelJobResultDto> {
    return this.jobs.cancel(principal, id);
  }

  @Get(':job_id/log')
  @ApiProduces('text/plain', 'application/x-ndjson')
  @ApiHeader({ name: 'Accept', required: false, description: 'application/x-ndjson for structured entries' })
  @ApiOkResponse({
    description: 'The agent log so far (also while the job runs).',
    schema: { type: 'string' },
  })
  @ApiNotFoundResponse({ type: HttpErrorDto })
  async log(
    @CurrentPrincipal() principal: Principal,
    @Param('job_id') id: string,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const ndjson = /application\/(x-)?ndjson/.test(accept ?? '');
    const body = await this.jobs.log(principal, id, ndjson ? 'ndjson' : 'text');
    void reply.header('content-type', ndjson ? 'application/x-ndjson' : 'text/plain; charset=utf-8');
    void reply.header('cache-control', 'no-store');
    return body;
  }

  @Get(':job_id/events')
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description:
      'Server-Sent Events: `job` (the whole record, first the current one, then on every status change), `step` (a step started or ended: index, count, text, action, status, started_at, finished_at, duration_ms, error) and `log` (each new log line); the stream ends with the job.',
  })
  @ApiNotFoundResponse({ type: HttpErrorDto })
  events(
    @CurrentPrincipal() principal: Principal,
    @Param('job_id') id: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.streams.stream(principal, id, request, reply);
  }

  @Get(':job_id/video')
  @ApiProduces('video/mp4')
  @ApiHeader({ name: 'Range', required: false, description: 'bytes=start-end, for seeking' })
  @ApiOkResponse({
    description: 'The recorded video (H.264 MP4); 206 with Content-Range for a Range request.',
    content: { 'video/mp4': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({
    status: 302,
    description:
      'With ARTIFACT_DOWNLOAD=presigned: Location is a short-lived URL of the video in object storage (send Range there).',
  })
  @ApiResponse({
    status: 416,
    description: 'The Range lies outside the video; Content-Range: bytes */<size>.',
  })
  @ApiNotFoundResponse({ description: 'Unknown job, or no video (yet).', type: HttpErrorDto })
  async video(
    @CurrentPrincipal() principal: Principal,
    @Param('job_id') id: string,
    @Headers('range') range: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const video = await this.jobs.video(principal, id, range);
    await reply
      .status(video.status)
      .headers(video.headers)
      .send(video.body ?? '');
  }

  @Get(':job_id/screenshot')
  @ApiProduces('image/png')
  @ApiOkResponse({
    description:
      'The page at the moment a step failed (PNG of the viewport); values of `metadata.secrets` typed on the page are masked in it.',
    content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({
    status: 302,
    description:
      'With ARTIFACT_DOWNLOAD=presigned: Location is a short-lived URL of the screenshot in object storage.',
  })
  @ApiNotFoundResponse({
    description: 'Unknown job, or no screenshot (no step failed, or the job has not ended).',
    type: HttpErrorDto,
  })
  async screenshot(
    @CurrentPrincipal() principal: Principal,
    @Param('job_id') id: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const screenshot = await this.jobs.screenshot(principal, id);
    await reply
      .status(screenshot.status)
      .headers(screenshot.headers)
      .send(screenshot.body ?? '');
  }
}
