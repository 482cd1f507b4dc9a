import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsInt, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsOmittable } from '../validation/is-omittable.decorator.js';
import { NoControlCharacters } from '../validation/no-control-characters.decorator.js';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN } from './job-limits.js';
import { JobStatus } from './job-status.enum.js';

const LIST_SEARCH_MAX_LENGTH = 200;
const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Query of `GET /v1/jobs`, checked at the edge (`RUNNER_INPUT`, i.e. `validateQuery`). */
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

  @ApiPropertyOptional({
    description: 'Only jobs whose query contains this text (any case), or whose `metadata.title` does.',
    minLength: 1,
    maxLength: LIST_SEARCH_MAX_LENGTH,
    example: 'checkout',
  })
  @IsOmittable()
  @IsString()
  @MinLength(1)
  @MaxLength(LIST_SEARCH_MAX_LENGTH)
  @NoControlCharacters({ message: 'must not contain control characters' })
  q?: string;

  @ApiPropertyOptional({
    description:
      'Paging: only jobs older than this job of yours (pass the id of the last job of the previous page).',
    format: 'uuid',
    example: '0b9f6d3e-6c4f-4a53-a0f4-2d1f0d6a9c11',
  })
  @IsOmittable()
  @IsString()
  @Matches(UUID_PATTERN)
  before?: string;
}
