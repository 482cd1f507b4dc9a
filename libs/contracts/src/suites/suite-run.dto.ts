import { ApiProperty } from '@nestjs/swagger';
import { JobStatus } from '../jobs/job-status.enum.js';

export enum SuiteRunStatus {
  Running = 'running',
  Passed = 'passed',
  Failed = 'failed',
}

export enum SuiteTestVerdict {
  /** Its job is queued or running. */
  Pending = 'pending',
  Passed = 'passed',
  Failed = 'failed',
  /** Its job was cancelled before it ran. */
  Cancelled = 'cancelled',
}

/** Where a test failed: the first failing step of its job. */
export class FailingStepDto {
  @ApiProperty({ type: 'integer', example: 3 })
  index!: number;

  @ApiProperty({ example: 'The page contains "Thanks"' })
  text!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Text "Thanks" was not found on the page' })
  error!: string | null;
}

/** One test of a run: its job and how it went. */
export class SuiteRunTestDto {
  @ApiProperty({ example: 'Sign up' })
  title!: string;

  @ApiProperty({ format: 'uuid', example: '0196f0a2-7c1e-7d43-9b8a-2f4c5e6d7a8b' })
  job_id!: string;

  @ApiProperty({ enum: JobStatus, enumName: 'JobStatus', example: JobStatus.Failed })
  job_status!: JobStatus;

  @ApiProperty({ enum: SuiteTestVerdict, enumName: 'SuiteTestVerdict', example: SuiteTestVerdict.Failed })
  verdict!: SuiteTestVerdict;

  @ApiProperty({ type: () => FailingStepDto, nullable: true })
  failing_step!: FailingStepDto | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The job’s error, when it failed.',
    example: 'Step 3 failed',
  })
  error!: string | null;

  @ApiProperty({ example: '/v1/jobs/0196…', description: 'The job record (`GET`).' })
  job_url!: string;
}

/** One run of a suite; it has finished when every test's job has ended. */
export class SuiteRunDto {
  @ApiProperty({ format: 'uuid', example: '0196f0a3-1d2e-7f00-8a1b-3c4d5e6f7a8b' })
  id!: string;

  @ApiProperty({ format: 'uuid', example: '0196f0a2-7c1e-7d43-9b8a-2f4c5e6d7a8b' })
  suite_id!: string;

  @ApiProperty({ enum: ['manual', 'schedule'], example: 'schedule' })
  trigger!: 'manual' | 'schedule';

  @ApiProperty({ enum: SuiteRunStatus, enumName: 'SuiteRunStatus', example: SuiteRunStatus.Failed })
  status!: SuiteRunStatus;

  @ApiProperty({ type: 'integer', example: 4 })
  passed!: number;

  @ApiProperty({ type: 'integer', example: 1 })
  failed!: number;

  @ApiProperty({ type: 'integer', example: 5 })
  total!: number;

  @ApiProperty({ type: () => SuiteRunTestDto, isArray: true })
  tests!: SuiteRunTestDto[];

  @ApiProperty({ format: 'date-time', example: '2026-12-01T06:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-12-01T06:01:12.000Z' })
  finished_at!: string | null;
}

/** `GET /v1/suites/{id}/runs`: the most recent runs first. */
export class SuiteRunListDto {
  @ApiProperty({ type: () => SuiteRunDto, isArray: true })
  runs!: SuiteRunDto[];
}
