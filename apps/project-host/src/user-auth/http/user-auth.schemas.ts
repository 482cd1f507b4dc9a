import * as contracts from '@suite/contracts';
import { validateUserInput, type DtoClass } from '@suite/contracts';
import { AuthError } from '@suite/errors';

// Request shapes of /api/user, as the DTOs of @suite/contracts. The controller validates them
// (USER_INPUT); a malformed request is 400 invalid-request whose message names the field, e.g.
// "password: is required". Unknown fields are ignored.

export const registerBody = contracts.RegisterDto;
export const loginBody = contracts.LoginDto;
export const refreshBody = contracts.RefreshDto;
export const magicLinkQuery = contracts.MagicLinkQueryDto;
export const codeQuery = contracts.CodeDto;
export const forgotPasswordBody = contracts.ForgotPasswordDto;
export const forgotPasswordCallbackBody = contracts.ResetPasswordDto;
export const updateMeBody = contracts.UpdateMeDto;
export const codeBody = contracts.CodeDto;

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
