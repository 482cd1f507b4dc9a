import { ApiProperty } from '@nestjs/swagger';
import { SuiteTestDto } from './suite-test.dto.js';

/** A stored suite, as `GET /v1/suites/{id}` answers it. */
export class SuiteRecordDto {
  @ApiProperty({ format: 'uuid', example: '0196f0a2-7c1e-7d43-9b8a-2f4c5e6d7a8b' })
  id!: string;

  @ApiProperty({ example: 'checkout' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: 'https://staging.example.com/' })
  base_url!: string | null;

  @ApiProperty({ type: [String], example: ['nightly'] })
  tags!: string[];

  @ApiProperty({ type: () => SuiteTestDto, isArray: true })
  tests!: SuiteTestDto[];

  @ApiProperty({ type: String, nullable: true, example: '0 6 * * *' })
  schedule!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'https://hooks.example.com/browser-tests' })
  webhook!: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-12-01T06:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: '2026-12-01T06:00:00.000Z' })
  updated_at!: string;
}

/** `GET /v1/suites`: your suites by name. */
export class SuiteListDto {
  @ApiProperty({ type: () => SuiteRecordDto, isArray: true })
  suites!: SuiteRecordDto[];
}
