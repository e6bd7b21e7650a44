/**
 * A validated filter, the hand-over between `parseFilters` (which reads the
 * request) and `toSql` (which writes SQL). Values are already converted to
 * their type; the column comes from the FilterSet.
 */

/** Decimals, dates and datetimes stay strings: PostgreSQL converts them exactly, JS numbers and Dates would not. */
export type FilterScalar = string | number | boolean;

/** Each variant holds the values of one query parameter; a row matches when any value matches (NetBox's OR of repeats). */
export type FilterMatch =
  /** `orNull` comes from the relation value `null` (NetBox's `site_id=null`). */
  | { kind: 'equals'; values: FilterScalar[]; orNull: boolean }
  | { kind: 'iexact' | 'icontains' | 'istartswith' | 'iendswith'; values: string[] }
  | { kind: 'compare'; operator: '>' | '>=' | '<' | '<='; values: FilterScalar[] }
  | { kind: 'isnull'; values: boolean[] }
  /** `blankIsEmpty`: text columns also count `''` as empty, as NetBox's `__empty` does for CharFields. */
  | { kind: 'empty'; values: boolean[]; blankIsEmpty: boolean };

export interface FilterCondition {
  column: string;
  /** The `__n…` lookups: the row must match none of the values. */
  negated: boolean;
  match: FilterMatch;
}
