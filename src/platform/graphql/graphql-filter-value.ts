import { GraphQLError, GraphQLScalarType, valueFromASTUntyped } from 'graphql';

/** One REST parameter's lookup suffix (`''` for the bare parameter, `ic`, `gte`, …) and its values. */
export interface FilterTerm {
  lookup: string;
  values: string[];
  /** The lookup object's key it came from (`exact`), absent for a plain value. */
  from?: string;
}

/** strawberry-django's lookup names, as NetBox 4 filters take them, to the REST lookup suffixes. */
const LOOKUP_SUFFIXES: Readonly<Record<string, string>> = {
  exact: '',
  in_list: '',
  i_exact: 'ie',
  i_contains: 'ic',
  i_starts_with: 'isw',
  i_ends_with: 'iew',
  gt: 'gt',
  gte: 'gte',
  lt: 'lt',
  lte: 'lte',
  is_null: 'isnull',
};

/** strawberry lookups that have no REST counterpart: refused by name rather than matched differently. */
const UNSUPPORTED_LOOKUPS = new Set(['contains', 'starts_with', 'ends_with', 'regex', 'i_regex']);

type Scalar = string | number | boolean;

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function scalarValues(value: unknown, lookup: string): string[] {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0 || !items.every(isScalar)) throw new TypeError(`${lookup} takes a string, a number, a boolean or a list of them`);
  return items.map(String);
}

/**
 * A filter value in every shape a client may send: a scalar of the field's type (`5`, `"active"`,
 * `true`), a list of them (OR-ed, as a repeated REST parameter), or a strawberry lookup object
 * (`{exact: 5}`, `{i_contains: "x"}`, `{in_list: [1, 2]}`, `{range: {start: 1, end: 9}}`,
 * `{is_null: true}`; several keys AND-ed). The value's type is then checked as the REST parameter's.
 */
export function filterTerms(value: unknown): FilterTerm[] {
  // No value and an empty list filter nothing, as an empty REST parameter (`name=`) does.
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return [];
  if (isScalar(value) || Array.isArray(value)) return [{ lookup: '', values: scalarValues(value, 'a filter') }];
  if (typeof value !== 'object') throw new TypeError('a filter takes a scalar, a list or a lookup object');
  const terms: FilterTerm[] = [];
  for (const [lookup, operand] of Object.entries(value as Record<string, unknown>)) {
    if (operand === null || operand === undefined) continue;
    if (lookup === 'range') {
      const { start, end } = (operand ?? {}) as { start?: unknown; end?: unknown };
      if (typeof operand !== 'object' || start === undefined || end === undefined || !isScalar(start) || !isScalar(end))
        throw new TypeError('range takes {start, end}');
      terms.push({ lookup: 'gte', values: [String(start)], from: lookup }, { lookup: 'lte', values: [String(end)], from: lookup });
      continue;
    }
    if (UNSUPPORTED_LOOKUPS.has(lookup)) throw new TypeError(`the lookup ${lookup} is not supported; the case-insensitive i_ lookups are`);
    const suffix = LOOKUP_SUFFIXES[lookup];
    if (suffix === undefined)
      throw new TypeError(`unknown lookup ${lookup}; use one of ${[...Object.keys(LOOKUP_SUFFIXES), 'range'].join(', ')}`);
    if (lookup === 'in_list' && !Array.isArray(operand)) throw new TypeError('in_list takes a list');
    if (lookup !== 'in_list' && Array.isArray(operand)) throw new TypeError(`${lookup} takes one value; in_list takes a list`);
    terms.push({ lookup: suffix, values: scalarValues(operand, lookup), from: lookup });
  }
  return terms;
}

/** The input type of every list filter: see `filterTerms`. */
export const FilterValueScalar = new GraphQLScalarType<FilterTerm[], never>({
  name: 'FilterValue',
  description:
    'A filter: a value of the field\'s type (5, "active", true), a list of them (any matches), or a lookup object as NetBox 4 takes it: ' +
    '{exact}, {i_exact}, {i_contains}, {i_starts_with}, {i_ends_with}, {in_list: [...]}, {gt}, {gte}, {lt}, {lte}, {range: {start, end}}, {is_null}.',
  serialize: () => {
    throw new GraphQLError('FilterValue is an input type only');
  },
  parseValue: (value) => filterTerms(value),
  parseLiteral: (node, variables) => filterTerms(valueFromASTUntyped(node, variables)),
});
