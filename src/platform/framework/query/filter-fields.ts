/**
 * What a resource declares about the query parameters it can be filtered by
 * (NetBox's FilterSet). Kept free of Nest and TypeORM so it can be shared by
 * the REST layer, GraphQL and tests.
 */

export type FilterFieldType =
  | { kind: 'string' }
  /** `big`: a `bigint` or `numeric` column; otherwise a PostgreSQL `integer`, whose range the value must fit. */
  | { kind: 'integer'; big?: boolean }
  | { kind: 'decimal' }
  | { kind: 'boolean' }
  | { kind: 'datetime' }
  | { kind: 'date' }
  | { kind: 'choice'; choices: readonly string[] }
  /** A foreign key filtered by integer id, like NetBox's `site_id`. */
  | { kind: 'relation' };

export interface FilterField {
  /**
   * SQL expression compared by the filter, e.g. `"site"."name"`. It is written
   * into the generated SQL verbatim, so it must come from code, never from a request.
   */
  column: string;
  type: FilterFieldType;
  /** Rewrites each value before it is read (an upstream plugin's object-type label to ours). */
  normalize?: (value: string) => string;
}

/** Query parameter name (without lookup suffix) → field. */
export type FilterSet = Record<string, FilterField>;

/** `exact` is the bare parameter (`name=`); the others are the `__<lookup>` suffixes. */
export type FilterLookup =
  'exact' | 'n' | 'ic' | 'nic' | 'ie' | 'nie' | 'isw' | 'nisw' | 'iew' | 'niew' | 'gt' | 'gte' | 'lt' | 'lte' | 'empty' | 'isnull';

const LOOKUPS_FOR_EVERY_TYPE: readonly FilterLookup[] = ['exact', 'n', 'empty', 'isnull'];
const TEXT_LOOKUPS: readonly FilterLookup[] = ['ic', 'nic', 'ie', 'nie', 'isw', 'nisw', 'iew', 'niew'];
const RANGE_LOOKUPS: readonly FilterLookup[] = ['gt', 'gte', 'lt', 'lte'];

export function supportedLookups(type: FilterFieldType): readonly FilterLookup[] {
  switch (type.kind) {
    case 'string':
      return [...LOOKUPS_FOR_EVERY_TYPE, ...TEXT_LOOKUPS];
    case 'integer':
    case 'decimal':
    case 'date':
    case 'datetime':
      return [...LOOKUPS_FOR_EVERY_TYPE, ...RANGE_LOOKUPS];
    case 'boolean':
    case 'choice':
    case 'relation':
      return LOOKUPS_FOR_EVERY_TYPE;
  }
}
