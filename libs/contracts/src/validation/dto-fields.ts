import { getMetadataStorage } from 'class-validator';

/** The fields a DTO accepts: those carrying a validation decorator, in declaration order. */
export function fieldNames(dto: new () => object): string[] {
  const names = getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .map((metadata) => metadata.propertyName);
  return [...new Set(names)];
}
