import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { NoControlCharacters } from '../validation/no-control-characters.decorator.js';
import { SuiteTags } from './suite-tags.decorator.js';
import {
  SUITE_NAME_MAX_LENGTH,
  SUITE_SCHEDULE_MAX_LENGTH,
  SUITE_TESTS_MAX,
  SUITE_URL_MAX_LENGTH,
} from './suite-limits.js';
import { SuiteTestDto } from './suite-test.dto.js';

/**
 * Body of `POST /v1/suites` and `PUT /v1/suites/{id}` (a PUT replaces the whole suite). Each
 * item of `tests` is validated as a `SuiteTestDto` by `SuiteInputValidator` (`validateItem`).
 */
export class CreateSuiteDto {
  @ApiProperty({
    description: 'Unique among your suites; `browser-tests run --suite NAME` finds the suite by it.',
    minLength: 1,
    maxLength: SUITE_NAME_MAX_LENGTH,
    example: 'checkout',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(SUITE_NAME_MAX_LENGTH)
  @NoControlCharacters({ message: 'must not contain control characters' })
  name!: string;

  @ApiProperty({ type: () => SuiteTestDto, isArray: true, minItems: 1, maxItems: SUITE_TESTS_MAX })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SUITE_TESTS_MAX)
  tests!: unknown[];

  @ApiPropertyOptional({
    description: 'Relative start URLs of the tests resolve against it.',
    maxLength: SUITE_URL_MAX_LENGTH,
    nullable: true,
    example: 'https://staging.example.com/',
  })
  @IsOptional()
  @IsString()
  @MaxLength(SUITE_URL_MAX_LENGTH)
  base_url?: string | null;

  @SuiteTags('nightly')
  tags?: string[];

  @ApiPropertyOptional({
    description:
      'Cron pattern (5 fields; 6 with seconds first) in UTC: the suite runs on it, one scheduled run at a time (a tick while the previous scheduled run is still going is skipped). The shortest interval is SUITE_MIN_SCHEDULE_SECONDS (60 by default). null: only on demand.',
    maxLength: SUITE_SCHEDULE_MAX_LENGTH,
    nullable: true,
    example: '*/15 * * * *',
  })
  @IsOptional()
  @IsString()
  @MaxLength(SUITE_SCHEDULE_MAX_LENGTH)
  schedule?: string | null;

  @ApiPropertyOptional({
    description:
      'http(s) URL POSTed (JSON with a `text` field, as chat tools accept) when a scheduled run fails and on the first scheduled success after failures. Webhooks are public-only, like A2A push notifications (PUSH_ALLOWED_HOSTS lets a host through).',
    maxLength: SUITE_URL_MAX_LENGTH,
    nullable: true,
    example: 'https://hooks.slack.com/services/T000/B000/XXXX',
  })
  @IsOptional()
  @IsString()
  @MaxLength(SUITE_URL_MAX_LENGTH)
  webhook?: string | null;
}
