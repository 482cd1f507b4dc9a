import {
  CodeDto,
  ForgotPasswordDto,
  LoginDto,
  MagicLinkQueryDto,
  RefreshDto,
  RegisterDto,
  ResetPasswordDto,
  UpdateMeDto,
  validateUserInput,
  type DtoClass,
} from '@suite/contracts';
import { AuthError } from '@suite/errors';

// Request shapes of /api/user, as the DTOs of @suite/contracts. The controller validates them
// (USER_INPUT); a malformed request is 400 invalid-request whose message names the field, e.g.
// "password: is required". Unknown fields are ignored.

export const registerBody = RegisterDto;
export const loginBody = LoginDto;
export const refreshBody = RefreshDto;
export const magicLinkQuery = MagicLinkQueryDto;
export const codeQuery = CodeDto;
export const forgotPasswordBody = ForgotPasswordDto;
export const forgotPasswordCallbackBody = ResetPasswordDto;
export const updateMeBody = UpdateMeDto;
export const codeBody = CodeDto;

/** `value` validated by `dto`, or 400 invalid-request naming every bad field. */
export function parseRequest<T extends object>(
  dto: DtoClass<T>,
  value: unknown,
  where: 'body' | 'query' = 'body',
): T {
  return validateUserInput(dto, value, where);
}

/** A field-named invalid-request, for checks that happen after parsing (password policy). */
export function invalidField(field: string, problem: string): AuthError {
  return AuthError.invalidFields([{ field, problem }]);
}
