import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { IsOmittable } from '../validation/is-omittable.decorator.js';
import { MaxJsonBytes } from '../validation/max-json-bytes.decorator.js';
import { NoNulCharacters } from '../validation/no-nul-characters.decorator.js';
import { BROWSER_ENV_PATTERN, BrowserEnv } from './browser-env.enum.js';
import { DEFAULT_START_URL, METADATA_MAX_BYTES, QUERY_MAX_LENGTH } from './job-limits.js';

/**
 * Body of `POST /v1/jobs` (also what A2A SendMessage and the MCP tool are turned into). Field
 * names are the spec's snake_case. Each transport validates it at its edge (`/v1`'s `RUNNER_INPUT`
 * pipe, A2A's message mapping, the MCP tool's `RunBrowserTestArgsDto`), so `JobService` takes it
 * typed: the result carries the defaults below, except `model`, whose default depends on the
 * deployment.
 */
export class CreateJobDto {
  @ApiProperty({
    description: 'Natural-language browser test instructions, run step by step.',
    minLength: 1,
    maxLength: QUERY_MAX_LENGTH,
    example:
      'Open https://example.com, check that the title contains "Example Domain", ' +
      'click "More information" and check that the URL contains "iana.org".',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(QUERY_MAX_LENGTH)
  @NoNulCharacters()
  query!: string;

  @ApiPropertyOptional({
    description: 'Start address of the browser.',
    default: DEFAULT_START_URL,
    example: 'https://example.com/',
  })
  @IsOmittable()
  @IsString()
  @NoNulCharacters()
  initial_url: string = DEFAULT_START_URL;

  @ApiPropertyOptional({
    description:
      'Agent model name. Defaults to the fast-tier model of this deployment (the built-in ' +
      'instruction interpreter when no LLM provider is configured); GET /v1/models lists the choices.',
    example: 'instruction-interpreter',
  })
  @IsOmittable()
  @IsString()
  @NoNulCharacters()
  model?: string;

  @ApiPropertyOptional({
    description: 'local_browser: Chromium run by the worker; hosted_browser: a hosted browser provider.',
    enum: [BrowserEnv.LocalBrowser, BrowserEnv.HostedBrowser],
    pattern: BROWSER_ENV_PATTERN.source,
    default: BrowserEnv.LocalBrowser,
    example: BrowserEnv.LocalBrowser,
  })
  @IsOmittable()
  @IsString()
  @Matches(BROWSER_ENV_PATTERN)
  env: BrowserEnv = BrowserEnv.LocalBrowser;

  @ApiPropertyOptional({
    description: 'Highlights the mouse pointer in the recorded video.',
    default: true,
    example: true,
  })
  @IsOmittable()
  @IsBoolean()
  highlight_mouse: boolean = true;

  @ApiPropertyOptional({
    description: `Free-form keys and values, returned unchanged with the job; at most ${METADATA_MAX_BYTES} bytes as JSON.`,
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { ticket: 'QA-1234', branch: 'main' },
  })
  @IsOptional()
  @IsObject()
  @MaxJsonBytes(METADATA_MAX_BYTES)
  @NoNulCharacters()
  metadata?: Record<string, unknown> | null;
}
