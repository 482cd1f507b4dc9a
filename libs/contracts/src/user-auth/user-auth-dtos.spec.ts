import { describe, expect, it } from '@jest/globals';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { validateUserInput } from '../validation/validate-user-input.js';
import { CodeDto } from './code.dto.js';
import { MagicLinkQueryDto } from './magic-link-query.dto.js';
import { RefreshDto } from './refresh.dto.js';
import { RegisterDto } from './register.dto.js';
import { UpdateMeDto } from './update-me.dto.js';

function problem(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe(AuthErrorCode.InvalidRequest);
    return (error as AuthError).message;
  }
  throw new Error('expected an invalid-request');
}

const register = (body: unknown) => problem(() => validateUserInput(RegisterDto, body, 'body'));

describe('/api/user request DTOs', () => {
  it('name every bad field in field order, "field: problem" joined by "; "', () => {
    expect(register({})).toBe('email: is required; password: is required');
    expect(register({ email: 5, password: 5, name: 5 })).toBe(
      'email: must be a string; password: must be a string; name: must be a string',
    );
    expect(register({ name: '', password: '', email: 'nope' })).toBe(
      'email: must be a valid email address; password: must not be empty',
    );
  });

  it('report only the length of an address that is too long, but every rule a name breaks', () => {
    expect(register({ email: `${'x'.repeat(251)}@bad`, password: 'p' })).toBe(
      'email: must be at most 254 characters',
    );
    expect(register({ email: 'a@example.com', password: 'p', name: `${'n'.repeat(201)}\u0007` })).toBe(
      'name: must be at most 200 characters; name: must not contain control characters',
    );
  });

  it('take null for a value only where the field can be cleared', () => {
    expect(register({ email: null, password: 'p' })).toBe('email: must be a string');
    expect({ ...validateUserInput(UpdateMeDto, { name: null }, 'body') }).toEqual({ name: null });
    expect(problem(() => validateUserInput(RefreshDto, { refreshToken: 't', revoke: null }, 'body'))).toBe(
      'revoke: must be true or false',
    );
  });

  it('report a list by its type and, as always, by its length', () => {
    expect(register({ email: 'a@example.com', password: [] })).toBe(
      'password: must be a string; password: must not be empty',
    );
    expect(register({ email: ['a@example.com'], password: ['p'] })).toBe(
      'email: must be a string; password: must be a string',
    );
  });

  it('trim, lower-case addresses after validating them, and drop unknown fields', () => {
    const value = validateUserInput(
      RegisterDto,
      { email: '  Ada@Example.COM ', password: ' secret ', name: ' Ada ', admin: true },
      'body',
    );
    expect({ ...value }).toEqual({ email: 'ada@example.com', password: ' secret ', name: 'Ada' });
    expect(value).toBeInstanceOf(RegisterDto);
  });

  it('refuse a body that is not an object, and a repeated query parameter', () => {
    for (const body of [null, undefined, [], 'x', 5]) {
      expect(register(body)).toBe('The body must be a JSON object.');
    }
    expect(problem(() => validateUserInput(CodeDto, { code: ['a', 'b'] }, 'query'))).toBe(
      'code: must be given once',
    );
    expect(problem(() => validateUserInput(MagicLinkQueryDto, { email: '' }, 'query'))).toBe(
      'email: must be a valid email address',
    );
    expect(problem(() => validateUserInput(CodeDto, { code: '  ' }, 'query'))).toBe(
      'code: must not be empty',
    );
  });
});
