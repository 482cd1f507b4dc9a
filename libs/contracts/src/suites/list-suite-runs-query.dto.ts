import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { IsOmittable } from '../validation/is-omittable.decorator.js';
import { SUITE_RUNS_LIMIT_DEFAULT, SUITE_RUNS_LIMIT_MAX } from './suite-limits.js';

/** Query of `GET /v1/suites/{id}/runs`. */
export class ListSuiteRunsQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: SUITE_RUNS_LIMIT_MAX,
    default: SUITE_RUNS_LIMIT_DEFAULT,
    example: 10,
  })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(SUITE_RUNS_LIMIT_MAX)
  limit: number = SUITE_RUNS_LIMIT_DEFAULT;
}
