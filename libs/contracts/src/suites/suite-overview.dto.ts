import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { IsOmittable } from '../validation/is-omittable.decorator.js';
import { SuiteRunStatus, SuiteTestVerdict } from './suite-run.dto.js';

export const SUITE_OVERVIEW_RUNS_DEFAULT = 10;
export const SUITE_OVERVIEW_RUNS_MAX = 50;

/** Query of `GET /v1/suites/overview`. */
export class SuiteOverviewQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 2,
    maximum: SUITE_OVERVIEW_RUNS_MAX,
    default: SUITE_OVERVIEW_RUNS_DEFAULT,
    example: SUITE_OVERVIEW_RUNS_DEFAULT,
    description: 'How many of the last runs of each suite the pass rate and the flips are over.',
  })
  @IsOmittable()
  @IsInt()
  @Min(2)
  @Max(SUITE_OVERVIEW_RUNS_MAX)
  runs: number = SUITE_OVERVIEW_RUNS_DEFAULT;
}

/** One of a suite's last runs, without its tests. */
export class SuiteRunBriefDto {
  @ApiProperty({ format: 'uuid', example: '3f1c9a52-7d4e-4b8a-9c61-2b5f0e8d7a13' })
  id!: string;

  @ApiProperty({ enum: ['manual', 'schedule'], example: 'schedule' })
  trigger!: 'manual' | 'schedule';

  @ApiProperty({ enum: SuiteRunStatus, enumName: 'SuiteRunStatus', example: SuiteRunStatus.Failed })
  status!: SuiteRunStatus;

  @ApiProperty({ type: 'integer', example: 3 })
  passed!: number;

  @ApiProperty({ type: 'integer', example: 1 })
  failed!: number;

  @ApiProperty({ type: 'integer', example: 4 })
  total!: number;

  @ApiProperty({ format: 'date-time', example: '2026-11-29T06:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-29T06:01:12.000Z' })
  finished_at!: string | null;
}

/** A test whose verdict changed between consecutive finished runs. */
export class FlippingTestDto {
  @ApiProperty({ example: 'Checkout shows the cart total' })
  title!: string;

  @ApiProperty({
    type: 'integer',
    description: 'How often it went from passed to failed or back.',
    example: 3,
  })
  flips!: number;

  @ApiProperty({
    enum: SuiteTestVerdict,
    enumName: 'SuiteTestVerdict',
    isArray: true,
    description: 'Its verdicts in the finished runs, newest first.',
    example: ['passed', 'failed', 'passed', 'failed'],
  })
  history!: SuiteTestVerdict[];
}

/** A suite on the hub: its last runs, their pass rate and the tests that flip. */
export class SuiteOverviewDto {
  @ApiProperty({ format: 'uuid', example: '8b0f4c1e-2a7d-4e93-b5c6-1d9e3f7a2c48' })
  id!: string;

  @ApiProperty({ example: 'checkout' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: '0 6 * * *' })
  schedule!: string | null;

  @ApiProperty({ type: 'integer', example: 4 })
  tests!: number;

  @ApiProperty({ type: () => SuiteRunBriefDto, isArray: true, description: 'Newest first.' })
  last_runs!: SuiteRunBriefDto[];

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Passed runs ÷ finished runs among `last_runs` (0–1); null before a run has finished.',
    example: 0.8,
  })
  pass_rate!: number | null;

  @ApiProperty({ type: () => FlippingTestDto, isArray: true, description: 'Most flips first.' })
  flipping_tests!: FlippingTestDto[];
}

/** `GET /v1/suites/overview`: your suites by name, each with its recent history. */
export class SuiteOverviewListDto {
  @ApiProperty({ type: 'integer', example: 10, description: 'The number of last runs looked at per suite.' })
  runs!: number;

  @ApiProperty({ type: () => SuiteOverviewDto, isArray: true })
  suites!: SuiteOverviewDto[];
}
