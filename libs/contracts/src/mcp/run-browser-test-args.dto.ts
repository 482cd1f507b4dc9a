import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { CreateJobDto } from '../jobs/create-job.dto.js';
import { IsOmittable } from '../validation/is-omittable.decorator.js';

/** `wait`: the longest the MCP tool waits for a verdict, and its default. */
export const RUN_WAIT_SECONDS_MAX = 600;
export const RUN_WAIT_SECONDS_DEFAULT = 300;

/**
 * Arguments of the MCP tool `run_browser_test`: a `POST /v1/jobs` body (its rules, limits and
 * defaults are `CreateJobDto`'s) and how long to wait for the verdict.
 */
export class RunBrowserTestArgsDto extends CreateJobDto {
  @ApiPropertyOptional({
    description: 'Wait for the job to end before answering.',
    default: false,
    example: true,
  })
  @IsOmittable()
  @IsBoolean()
  wait?: boolean;

  @ApiPropertyOptional({
    description: 'With wait: answer with the job as it is after this many seconds.',
    type: 'integer',
    minimum: 1,
    maximum: RUN_WAIT_SECONDS_MAX,
    default: RUN_WAIT_SECONDS_DEFAULT,
    example: 120,
  })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(RUN_WAIT_SECONDS_MAX)
  timeout_seconds?: number;
}
