import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One entry of a 422 `detail` array (pydantic v2 / FastAPI `ValidationError`). */
export class ValidationIssueDto {
  @ApiProperty({ description: 'pydantic error type.', example: 'missing' })
  type!: string;

  @ApiProperty({
    description: 'Where the problem is: body, query or path, then the field.',
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    example: ['body', 'query'],
  })
  loc!: (string | number)[];

  @ApiProperty({ example: 'Field required' })
  msg!: string;

  // Any JSON value: the schema is left open, as FastAPI's is.
  @ApiPropertyOptional({
    description: 'The value that was rejected (for a missing field: the enclosing object).',
    oneOf: [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
    ],
    nullable: true,
    example: {},
  })
  input?: unknown;

  @ApiPropertyOptional({
    description: 'The rule that was broken, e.g. { "min_length": 1 }.',
    type: 'object',
    additionalProperties: true,
    example: { min_length: 1 },
  })
  ctx?: Record<string, unknown>;
}

/** The 422 body of every /v1 endpoint (FastAPI `HTTPValidationError`). */
export class HttpValidationErrorDto {
  @ApiProperty({ type: () => ValidationIssueDto, isArray: true, required: false })
  detail?: ValidationIssueDto[];
}

/** Every other /v1 error: a sentence and a stable code. */
export class HttpErrorDto {
  @ApiProperty({ example: 'Job 0b9f6d3e-6c4f-4a53-a0f4-2d1f0d6a9c11 not found' })
  detail!: string;

  @ApiProperty({ example: 'job_not_found' })
  code!: string;

  @ApiPropertyOptional({
    description: 'On 500s: quote it when reporting the problem; the server logged it with the details.',
    example: '3f1c2d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f',
  })
  errorId?: string;
}
