import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { buildMessage, ValidateBy } from 'class-validator';

/** Keys are PostgreSQL `integer` serials: no id, offset or count the API takes goes beyond this. */
export const MAX_DATABASE_INTEGER = 2_147_483_647;

/** Plain decimal integers only (`-3`, `42`): `0x1`, `1e0`, `+1` or ` 1` stay strings and are refused. */
const DECIMAL_INTEGER = /^-?\d+$/;

export interface IntegerOptions {
  /** The value comes from a query string: a decimal string is converted, anything else refused. */
  query?: boolean;
  /** The value is an array of such integers. */
  each?: boolean;
}

/**
 * An integer from `min` to `max` (by default what a database integer holds), so no value the
 * validator accepts can overflow a column or a comparison.
 */
export function IsIntegerInRange(min: number, max = MAX_DATABASE_INTEGER, options: IntegerOptions = {}): PropertyDecorator {
  const inRange = ValidateBy(
    {
      name: 'integerInRange',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max,
        defaultMessage: buildMessage((each) => `${each}$property must be an integer from ${min} to ${max}`),
      },
    },
    { each: options.each },
  );
  if (!options.query) return inRange;
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value)),
    inRange,
  );
}

/** A reference to a stored row by its id. */
export function IsDatabaseId(options: IntegerOptions = {}): PropertyDecorator {
  return IsIntegerInRange(1, MAX_DATABASE_INTEGER, options);
}
