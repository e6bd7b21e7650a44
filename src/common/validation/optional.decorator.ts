import { ValidateIf } from 'class-validator';

/**
 * The field may be left out, but when present it must satisfy its validators; unlike
 * `@IsOptional()`, an explicit `null` is validated (and rejected) rather than passed through to a
 * NOT NULL column.
 */
export function IsOptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}
