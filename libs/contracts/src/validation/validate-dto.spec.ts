import { describe, expect, it } from '@jest/globals';
import { toHttpProblem, toJsonRpcError, toMcpToolError, toUserErrorBody } from '@suite/errors';
import { IsBoolean, IsInt, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { Transform } from 'class-transformer';
import { readA2aParams } from '../a2a/a2a-params.validate.js';
import { validateAdminInput } from './validate-admin-input.js';
import { validateDto } from './validate-dto.js';
import { validateBody } from './validate-input.js';
import { validateUserInput } from './validate-user-input.js';

class NoteDto {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value), {
    toClassOnly: true,
  })
  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(5, { message: 'must be at most 5 characters' })
  title!: string;

  @IsOptional()
  @IsInt({ message: 'must be a whole number' })
  size: number = 3;

  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  pinned?: boolean;
}

const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a validation error');
};

describe('validateDto, the one class-validator entry point', () => {
  it('answers the typed DTO, defaults filling what was left out and unknown fields dropped', () => {
    const checked = validateDto(NoteDto, { title: 'abc', other: 1 });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.value).toBeInstanceOf(NoteDto);
    expect({ ...checked.value }).toEqual({ title: 'abc', size: 3 });
  });

  it('answers every problem, field order given, and lets no default hide a missing field', () => {
    const checked = validateDto(NoteDto, { size: 1.5, pinned: 'true' });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.fields).toEqual(['title', 'size', 'pinned']);
    expect(checked.errors.map((error) => [error.property, Object.keys(error.constraints ?? {})])).toEqual([
      ['title', ['maxLength', 'minLength', 'isString']],
      ['size', ['isInt']],
      ['pinned', ['isBoolean']],
    ]);
  });

  it('runs the DTO transforms only when asked to normalise', () => {
    expect(validateDto(NoteDto, { title: '  abc  ' }).ok).toBe(false);
    const checked = validateDto(NoteDto, { title: '  abc  ' }, { normalise: true });
    expect(checked.ok && checked.value.title).toBe('abc');
  });

  it('reports only the first failed rule of a field when asked to stop there', () => {
    const checked = validateDto(NoteDto, {}, { stopAtFirstError: true });
    expect(!checked.ok && checked.errors.map((error) => Object.keys(error.constraints ?? {}))).toEqual([
      ['maxLength'],
    ]);
  });
});

describe('each transport words the same problems its own way', () => {
  const bad = { title: '', size: 'x' };

  it('/v1 and MCP: a 422 `detail` list, and the MCP tool error carrying it', () => {
    const error = thrown(() => validateBody(NoteDto, bad));
    const detail = [
      {
        type: 'string_too_short',
        loc: ['body', 'title'],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
      {
        type: 'int_parsing',
        loc: ['body', 'size'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'x',
      },
    ];
    expect(toHttpProblem(error)).toEqual({ status: 422, headers: {}, body: { detail } });
    expect(toMcpToolError(error)).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text:
            'Invalid arguments (validation_failed):\n' +
            '- body.title: String should have at least 1 character\n' +
            '- body.size: Input should be a valid integer, unable to parse string as an integer\n' +
            'Fix the arguments and call the tool again.',
        },
      ],
      structuredContent: { error: { code: 'validation_failed', issues: detail } },
    });
  });

  it('/api/user: 400 invalid-request naming every bad field', () => {
    expect(toUserErrorBody(thrown(() => validateUserInput(NoteDto, bad, 'body')))).toEqual({
      status: 400,
      headers: {},
      body: { code: 'invalid-request', message: 'title: must not be empty; size: must be a whole number' },
    });
  });

  it('the control plane: 400 invalid-request with the first problem only', () => {
    expect(toUserErrorBody(thrown(() => validateAdminInput(NoteDto, bad, 'body')))).toEqual({
      status: 400,
      headers: {},
      body: { code: 'invalid-request', message: 'title must not be empty' },
    });
  });

  it('A2A: JSON-RPC -32602 naming the first bad param by its path', () => {
    expect(
      toJsonRpcError(
        thrown(() => readA2aParams(NoteDto, bad)),
        1,
      ),
    ).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message: 'params.title must not be empty',
        data: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'INVALID_PARAMS',
            domain: 'a2a-protocol.org',
          },
        ],
      },
    });
  });
});
