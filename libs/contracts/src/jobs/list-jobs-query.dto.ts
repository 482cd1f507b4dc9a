import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsInt, Max, Min } from 'class-validator';
import { IsOmittable } from '../validation/is-omittable.decorator.js';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN } from './job-limits.js';
import { JobStatus } from './job-status.enum.js';

/** Query of `GET /v1/jobs`; validate with `validateQuery(ListJobsQueryDto, query)`. */
export class ListJobsQueryDto {
  @ApiPropertyOptional({
    description: 'How many of the most recent jobs to return.',
    type: 'integer',
    minimum: LIST_LIMIT_MIN,
    maximum: LIST_LIMIT_MAX,
    default: LIST_LIMIT_DEFAULT,
    example: 20,
  })
  @IsOmittable()
  @IsInt()
  @Min(LIST_LIMIT_MIN)
  @Max(LIST_LIMIT_MAX)
  limit: number = LIST_LIMIT_DEFAULT;

  @ApiPropertyOptional({
    description: 'Only jobs in this status.',
    enum: JobStatus,
    enumName: 'JobStatus',
    example: JobStatus.Failed,
  })
  @IsOmittable()
  @IsEnum(JobStatus)
  status?: JobStatus;
}
