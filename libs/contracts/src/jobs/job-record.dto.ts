import { ApiProperty } from '@nestjs/swagger';
import { BrowserEnv } from './browser-env.enum.js';
import { JobLinksDto } from './job-links.dto.js';
import { JobStatus } from './job-status.enum.js';
import { JobStepDto } from './job-step.dto.js';

const JOB_ID = '0b9f6d3e-6c4f-4a53-a0f4-2d1f0d6a9c11';

/** How an LLM job replayed an earlier passed run of the same test instead of calling the model. */
export class JobReplayDto {
  @ApiProperty({ description: 'Recorded steps that ran without the model.', example: 4 })
  replayed_steps!: number;

  @ApiProperty({ description: 'Steps in the recorded run.', example: 5 })
  total_steps!: number;

  @ApiProperty({
    description:
      'The recorded step from which the model took over because it no longer worked (self-healing).',
    type: 'integer',
    nullable: true,
    example: 5,
  })
  healed_from_step!: number | null;

  @ApiProperty({ description: 'Model calls this job made (0 for a clean replay).', example: 1 })
  model_calls!: number;

  @ApiProperty({
    description: 'Model calls the recorded run needed minus the ones this job made.',
    type: 'integer',
    nullable: true,
    example: 3,
  })
  model_calls_saved!: number | null;
}

/** A job as clients see it: the request, where it stands, its verdict and its artifacts. */
export class JobRecordDto {
  @ApiProperty({ format: 'uuid', example: JOB_ID })
  id!: string;

  @ApiProperty({ enum: JobStatus, enumName: 'JobStatus', example: JobStatus.Succeeded })
  status!: JobStatus;

  @ApiProperty({ example: 'Open https://example.com and check that the title contains "Example Domain".' })
  query!: string;

  @ApiProperty({ example: 'https://duckduckgo.com/' })
  initial_url!: string;

  @ApiProperty({ description: 'The model that runs (or ran) the job.', example: 'instruction-interpreter' })
  model!: string;

  @ApiProperty({
    enum: [BrowserEnv.LocalBrowser, BrowserEnv.HostedBrowser],
    example: BrowserEnv.LocalBrowser,
  })
  env!: BrowserEnv;

  @ApiProperty({ example: true })
  highlight_mouse!: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { ticket: 'QA-1234' },
  })
  metadata!: Record<string, unknown> | null;

  @ApiProperty({
    description: 'What happened, in a few sentences; null until the job is finished.',
    type: 'string',
    nullable: true,
    example: 'All 2 steps passed: the page title contains "Example Domain".',
  })
  summary!: string | null;

  @ApiProperty({
    description: 'Why the job failed, when it did.',
    type: 'string',
    nullable: true,
    example: null,
  })
  error!: string | null;

  @ApiProperty({ type: () => JobStepDto, isArray: true, description: 'Steps in order; empty while queued.' })
  steps!: JobStepDto[];

  @ApiProperty({ format: 'date-time', example: '2026-01-15T10:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, example: '2026-01-15T10:00:01.250Z' })
  started_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, example: '2026-01-15T10:00:09.800Z' })
  finished_at!: string | null;

  @ApiProperty({
    type: () => JobReplayDto,
    required: false,
    description:
      'Present when an LLM job replayed the stored steps of an earlier passed run of the same test (opt out with `metadata.replay: false`).',
  })
  replay?: JobReplayDto;

  @ApiProperty({ type: () => JobLinksDto })
  links!: JobLinksDto;
}
