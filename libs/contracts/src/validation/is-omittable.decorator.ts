import { ValidateIf } from 'class-validator';

/**
 * The field may be left out, but when present it must be valid: unlike `@IsOptional()`, `null`
 * is not taken as "absent". That is pydantic's rule for `field: str = default`, and it keeps a
 * client's `"env": null` from silently becoming the default.
 */
export function IsOmittable(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
