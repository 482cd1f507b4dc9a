import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateBy,
  ValidateIf,
  type ValidationArguments,
} from 'class-validator';
import { NoControlCharacters } from '../validation/no-control-characters.decorator.js';
import { appSchemesProblem } from './app-schemes.js';

// Fields of the control-plane API. Rules run in the order listed and the first that fails is the
// answer, worded `<field> <problem>` (validateAdminInput): "slug is required".

const isRequired = () => IsDefined({ message: 'is required' });

/** A rule of its own name and wording (class-validator keys failed rules by name). */
export function Rule(
  name: string,
  test: (value: unknown) => boolean,
  message: string | ((value: unknown) => string),
) {
  return ValidateBy(
    { name, validator: { validate: (value: unknown) => test(value) } },
    { message: typeof message === 'string' ? message : (args: ValidationArguments) => message(args.value) },
  );
}

export interface TextRule {
  max: number;
  /** Trim surrounding white space first (names, hosts); secrets are kept as sent. */
  trim?: boolean;
}

/** A non-empty string without control characters, at most `max` long. */
function text(rule: TextRule): PropertyDecorator[] {
  return [
    ...(rule.trim
      ? [
          Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value), {
            toClassOnly: true,
          }),
        ]
      : []),
    IsString({ message: 'must be a string' }),
    MinLength(1, { message: 'must not be empty' }),
    NoControlCharacters({ message: 'must not contain control characters' }),
    MaxLength(rule.max, { message: `must be at most ${rule.max} characters` }),
  ];
}

export function RequiredText(rule: TextRule, doc: ApiPropertyOptions, ...more: PropertyDecorator[]) {
  return applyDecorators(
    ApiProperty({ type: String, maxLength: rule.max, ...doc }),
    isRequired(),
    ...text(rule),
    ...more,
  );
}

/** Left out: unchanged (undefined); null: cleared. */
export function OptionalText(rule: TextRule, doc: ApiPropertyOptions) {
  return applyDecorators(
    ApiPropertyOptional({ type: String, maxLength: rule.max, nullable: true, ...doc }),
    IsOptional(),
    ...text(rule),
  );
}

const mustBeBoolean = () => IsBoolean({ message: 'must be true or false' });

export function RequiredBoolean(doc: ApiPropertyOptions) {
  return applyDecorators(ApiProperty({ type: Boolean, ...doc }), isRequired(), mustBeBoolean());
}

/** May be left out, but null is not a value. */
export function OmittableBoolean(doc: ApiPropertyOptions) {
  return applyDecorators(
    ApiPropertyOptional({ type: Boolean, ...doc }),
    ValidateIf((_object: object, value: unknown) => value !== undefined),
    isRequired(),
    mustBeBoolean(),
  );
}

export function RequiredInteger(min: number, max: number, doc: ApiPropertyOptions) {
  return applyDecorators(
    ApiProperty({ type: 'integer', minimum: min, maximum: max, ...doc }),
    isRequired(),
    Rule(
      'wholeNumber',
      (value) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max,
      `must be a whole number from ${min} to ${max}`,
    ),
  );
}

export const oneOfMessage = (choices: readonly string[]): string =>
  `must be one of ${choices.map((choice) => `"${choice}"`).join(', ')}`;

export function RequiredOneOf(choices: readonly string[], doc: ApiPropertyOptions) {
  return applyDecorators(
    ApiProperty({ enum: [...choices], ...doc }),
    isRequired(),
    IsIn([...choices], { message: oneOfMessage(choices) }),
  );
}

/** A list of app schemes (`acme`), at most `max`, each one a native app's own scheme. */
export function OptionalSchemeList(max: number, doc: ApiPropertyOptions, listMessage: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], nullable: true, maxItems: max, ...doc }),
    IsOptional(),
    IsArray({ message: listMessage }),
    Rule(
      'listSize',
      (value) => Array.isArray(value) && value.length <= max,
      `must list at most ${max} schemes`,
    ),
    Rule(
      'appSchemes',
      (value) => Array.isArray(value) && appSchemesProblem(value) === undefined,
      (value) => appSchemesProblem(value as unknown[]) ?? '',
    ),
  );
}

/** A query-string value: the last one when repeated; anything but a non-empty string is left out. */
export const QueryValue = (normalise: (value: string) => string = (value) => value) =>
  Transform(
    ({ value }: { value: unknown }) => {
      const last: unknown = Array.isArray(value) ? value.at(-1) : value;
      return typeof last === 'string' && last !== '' ? normalise(last) : undefined;
    },
    { toClassOnly: true },
  );

/** `?page=2`: digits only, within bounds. */
export function QueryInteger(min: number, max: number, fallback: number, description: string) {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: min,
      maximum: max,
      default: fallback,
      description,
      example: fallback,
    }),
    QueryValue(),
    IsOptional(),
    Rule(
      'wholeNumber',
      (value) =>
        typeof value === 'string' && /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max,
      `must be a whole number from ${min} to ${max}`,
    ),
  );
}
