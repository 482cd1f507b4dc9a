import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { IsOmittable } from '../validation/is-omittable.decorator.js';
import { NoControlCharacters } from '../validation/no-control-characters.decorator.js';
import { SuiteTags } from './suite-tags.decorator.js';
import {
  SUITE_STEP_MAX_LENGTH,
  SUITE_TEST_STEPS_MAX,
  SUITE_TEST_TIMEOUT_MAX_SECONDS,
  SUITE_TEST_TITLE_MAX_LENGTH,
  SUITE_URL_MAX_LENGTH,
} from './suite-limits.js';

/** One test of a suite: what a `*.test.md` file of the `browser-tests` command holds, minus secrets. */
export class SuiteTestDto {
  @ApiProperty({ minLength: 1, maxLength: SUITE_TEST_TITLE_MAX_LENGTH, example: 'Sign up' })
  @IsString()
  @MinLength(1)
  @MaxLength(SUITE_TEST_TITLE_MAX_LENGTH)
  @NoControlCharacters({ message: 'must not contain control characters' })
  title!: string;

  @ApiProperty({
    description: 'The plain-English steps, in order; run as one job.',
    type: [String],
    minItems: 1,
    maxItems: SUITE_TEST_STEPS_MAX,
    example: [
      'Open /signup',
      'Type "a@example.com" into Email',
      'Click "Sign up"',
      'The page contains "Thanks"',
    ],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SUITE_TEST_STEPS_MAX)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(SUITE_STEP_MAX_LENGTH, { each: true })
  steps!: string[];

  @ApiPropertyOptional({
    description: "Start page: absolute, or relative to the suite's `base_url` (`/login`).",
    maxLength: SUITE_URL_MAX_LENGTH,
    example: '/signup',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(SUITE_URL_MAX_LENGTH)
  start_url?: string;

  @SuiteTags('smoke')
  tags?: string[];

  @ApiPropertyOptional({
    description:
      'How long a run waits for this test before reporting it as timed out (the runner’s own job limit still applies).',
    minimum: 1,
    maximum: SUITE_TEST_TIMEOUT_MAX_SECONDS,
    example: 120,
  })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(SUITE_TEST_TIMEOUT_MAX_SECONDS)
  timeout_seconds?: number;
}
