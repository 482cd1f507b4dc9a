import { ApiProperty } from '@nestjs/swagger';
import { JobStatus } from './job-status.enum.js';

/**
 * `DELETE /v1/jobs/{job_id}`: a queued job is cancelled; a running or finished one is left as it
 * is (running jobs are not force-killed), which `cancelled: false` and the message say.
 */
export class CancelJobResultDto {
  @ApiProperty({ format: 'uuid', example: '0b9f6d3e-6c4f-4a53-a0f4-2d1f0d6a9c11' })
  id!: string;

  @ApiProperty({
    description: 'Status after the request.',
    enum: JobStatus,
    enumName: 'JobStatus',
    example: JobStatus.Cancelled,
  })
  status!: JobStatus;

  @ApiProperty({ description: 'Whether this request cancelled the job.', example: true })
  cancelled!: boolean;

  @ApiProperty({ example: 'Job cancelled before it started.' })
  message!: string;
}
