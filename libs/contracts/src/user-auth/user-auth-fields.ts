import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { IsOmittable } from '../validation/is-omittable.decorator.js';
import { NoControlCharacters } from '../validation/no-control-characters.decorator.js';

// Fields of the /api/user requests. Each rule's message is the contract's wording: a refused
// request is 400 invalid-request whose message reads `<field>: <problem>` (validateUserInput).

export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MAX_LENGTH = 1024;
export const CODE_MAX_LENGTH = 512;
export const NAME_MAX_LENGTH = 200;

/**
 * The address shape /api/user has always accepted: a local part of letters, digits and `_'+-`
 * in dot-separated runs (not starting with a dot, not ending in one or in an apostrophe), then a
 * domain of at least two labels whose last is two or more letters. Checked on the lower-cased address.
 */
export const EMAIL_ADDRESS =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export const IS_EMAIL_ADDRESS = 'isEmailAddress';

/** Applied before validation: surrounding white space is not part of an address, code or name. */
const Trimmed = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value), {
    toClassOnly: true,
  });

/** Applied to the validated value (validateUserInput): addresses are compared lower-cased. */
const LowerCased = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value), {
    toPlainOnly: true,
  });

const IsEmailAddress = (): PropertyDecorator =>
  ValidateBy(
    {
      name: IS_EMAIL_ADDRESS,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && EMAIL_ADDRESS.test(value.toLowerCase()),
      },
    },
    { message: 'must be a valid email address' },
  );

const isString = () => IsString({ message: 'must be a string' });

/** `required`: left out is "is required"; otherwise left out is fine, but `null` is not a value. */
type Presence = 'required' | 'omittable' | 'nullable';

function presence(kind: Presence, doc: ApiPropertyOptions): PropertyDecorator[] {
  switch (kind) {
    case 'required':
      return [ApiProperty(doc)];
    case 'omittable':
      return [ApiPropertyOptional(doc), IsOmittable()];
    case 'nullable':
      return [ApiPropertyOptional({ ...doc, nullable: true }), IsOptional()];
  }
}

export function EmailField(kind: Presence = 'required', description = 'The account\u2019s email address.') {
  return applyDecorators(
    ...presence(kind, {
      description: `${description} Surrounding white space is ignored; compared lower-cased.`,
      type: String,
      format: 'email',
      maxLength: EMAIL_MAX_LENGTH,
      example: 'ada@example.com',
    }),
    Trimmed(),
    LowerCased(),
    isString(),
    MaxLength(EMAIL_MAX_LENGTH, { message: `must be at most ${EMAIL_MAX_LENGTH} characters` }),
    IsEmailAddress(),
  );
}

/** A password as typed: never trimmed; new passwords also meet the project's password policy. */
export function PasswordField(kind: Presence = 'required', description = 'The password, as typed.') {
  return applyDecorators(
    ...presence(kind, {
      description,
      type: String,
      format: 'password',
      minLength: 1,
      maxLength: PASSWORD_MAX_LENGTH,
      example: 'correct horse battery staple',
    }),
    isString(),
    MinLength(1, { message: 'must not be empty' }),
    MaxLength(PASSWORD_MAX_LENGTH, { message: 'is too long' }),
  );
}

/** A code or token the client received (mailed code, refresh token); surrounding white space is ignored. */
export function CodeField(description: string, example: string) {
  return applyDecorators(
    ApiProperty({ description, type: String, minLength: 1, maxLength: CODE_MAX_LENGTH, example }),
    Trimmed(),
    isString(),
    MinLength(1, { message: 'must not be empty' }),
    MaxLength(CODE_MAX_LENGTH, { message: 'is too long' }),
  );
}

export function NameField(kind: Presence, description: string) {
  return applyDecorators(
    ...presence(kind, { description, type: String, maxLength: NAME_MAX_LENGTH, example: 'Ada Lovelace' }),
    Trimmed(),
    isString(),
    MaxLength(NAME_MAX_LENGTH, { message: `must be at most ${NAME_MAX_LENGTH} characters` }),
    NoControlCharacters({ message: 'must not contain control characters' }),
  );
}

export function BooleanField(description: string, example: boolean) {
  return applyDecorators(
    ApiPropertyOptional({ description, type: Boolean, example }),
    IsOmittable(),
    IsBoolean({ message: 'must be true or false' }),
  );
}

export function TextField(description: string, example: string) {
  return applyDecorators(
    ApiPropertyOptional({ description, type: String, example }),
    IsOmittable(),
    isString(),
  );
}
