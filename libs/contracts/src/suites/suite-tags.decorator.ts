import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, MaxLength, MinLength } from 'class-validator';
import { IsOmittable } from '../validation/is-omittable.decorator.js';
import { SUITE_TAG_MAX_LENGTH, SUITE_TAGS_MAX } from './suite-limits.js';

/** Tags of a suite or of one of its tests: at most SUITE_TAGS_MAX non-empty short strings. */
export function SuiteTags(example: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: SUITE_TAGS_MAX, example: [example] }),
    IsOmittable(),
    IsArray(),
    ArrayMaxSize(SUITE_TAGS_MAX),
    IsString({ each: true }),
    MinLength(1, { each: true }),
    MaxLength(SUITE_TAG_MAX_LENGTH, { each: true }),
  );
}
