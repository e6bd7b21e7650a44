import { FilterCondition, FilterScalar } from '../query/filter-condition';
import { FilterSet } from '../query/filter-fields';
import { SqlFilter, toSql } from '../query/filter-sql';

/**
 * An object permission's constraints, as NetBox stores them: one object of attribute lookups
 * (all must hold) or a list of such objects (any may hold). Null or `{}` means no restriction.
 */
export type ConstraintSet = Record<string, unknown>;

const COMPARISONS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const TEXT_MATCHES = { iexact: 'iexact', icontains: 'icontains', istartswith: 'istartswith', iendswith: 'iendswith' } as const;

/** Reads the stored JSON into constraint sets; problems describe why it is not usable. */
export function readConstraints(raw: unknown): { sets: ConstraintSet[] | null; problems: string[] } {
  if (raw === null || raw === undefined) return { sets: null, problems: [] };
  const list = Array.isArray(raw) ? raw : [raw];
  const problems: string[] = [];
  const sets: ConstraintSet[] = [];
  for (const entry of list) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push('Constraints must be a JSON object or a list of JSON objects.');
      continue;
    }
    sets.push(entry as ConstraintSet);
  }
  // One empty set grants everything, as an unconstrained permission does.
  if (sets.length === 0 || sets.some((set) => Object.keys(set).length === 0)) return { sets: null, problems };
  return { sets, problems };
}

/** Problems with constraint keys against a resource's filter set (empty when every key is understood). */
export function constraintProblems(sets: readonly ConstraintSet[], filterSet: FilterSet): string[] {
  return sets.flatMap((set) =>
    Object.entries(set).flatMap(([key, value]) => {
      const result = conditionFor(key, value, filterSet);
      return 'problem' in result ? [result.problem] : [];
    }),
  );
}

/**
 * SQL for "the row satisfies at least one constraint set", with parameters numbered from
 * `startIndex` so it can share a query builder with request filters.
 *
 * @throws Error when a key cannot be understood (a permission saved before its model changed):
 *   callers treat that permission as granting nothing.
 */
export function constraintsToSql(sets: readonly ConstraintSet[], filterSet: FilterSet, startIndex: number): SqlFilter {
  const params: Record<string, unknown> = {};
  let next = startIndex;
  const alternatives = sets.map((set) => {
    const conditions = Object.entries(set).map(([key, value]) => {
      const result = conditionFor(key, value, filterSet);
      if ('problem' in result) throw new Error(result.problem);
      return result.condition;
    });
    const sql = toSql(conditions, next);
    next += Object.keys(sql.params).length;
    Object.assign(params, sql.params);
    return `(${sql.where})`;
  });
  return { where: alternatives.length === 0 ? '1=0' : `(${alternatives.join(' OR ')})`, params };
}

type ConditionResult = { condition: FilterCondition } | { problem: string };

/** `status`, `status__in`, `tenant` (= `tenant_id`), `tenant__slug`, `name__icontains`, `id__gt`, `tenant__isnull` … */
function conditionFor(key: string, value: unknown, filterSet: FilterSet): ConditionResult {
  const separator = key.lastIndexOf('__');
  const lookup = separator === -1 ? 'exact' : key.slice(separator + 2);
  const knownLookup = lookup === 'exact' || lookup === 'in' || lookup === 'isnull' || lookup in COMPARISONS || lookup in TEXT_MATCHES;
  const base = separator === -1 || !knownLookup ? key : key.slice(0, separator);
  const effectiveLookup = knownLookup ? lookup : 'exact';
  const field = resolveField(base, filterSet);
  if (!field) return { problem: `Unknown constraint attribute "${base}"` };
  const column = field.column;

  if (effectiveLookup === 'isnull') {
    if (typeof value !== 'boolean') return { problem: `"${key}" needs true or false` };
    return { condition: { column, negated: false, match: { kind: 'isnull', values: [value] } } };
  }
  if (effectiveLookup === 'in') {
    if (!Array.isArray(value) || !value.every(isScalar)) return { problem: `"${key}" needs a list of values` };
    return { condition: { column, negated: false, match: { kind: 'equals', values: value, orNull: false } } };
  }
  if (value === null && effectiveLookup === 'exact') {
    return { condition: { column, negated: false, match: { kind: 'isnull', values: [true] } } };
  }
  if (!isScalar(value)) return { problem: `"${key}" needs a string, number or boolean` };
  if (effectiveLookup === 'exact') {
    return { condition: { column, negated: false, match: { kind: 'equals', values: [value], orNull: false } } };
  }
  if (effectiveLookup in COMPARISONS) {
    const operator = COMPARISONS[effectiveLookup as keyof typeof COMPARISONS];
    return { condition: { column, negated: false, match: { kind: 'compare', operator, values: [value] } } };
  }
  const kind = TEXT_MATCHES[effectiveLookup as keyof typeof TEXT_MATCHES];
  return { condition: { column, negated: false, match: { kind, values: [String(value)] } } };
}

/**
 * A relation may be named as in Django (`tenant`, `tenant_id`) or by the target's natural key
 * (`tenant__slug`, which the filter set declares under that exact name).
 */
function resolveField(base: string, filterSet: FilterSet) {
  if (Object.hasOwn(filterSet, `${base}_id`) && filterSet[`${base}_id`].type.kind === 'relation') return filterSet[`${base}_id`];
  return Object.hasOwn(filterSet, base) ? filterSet[base] : undefined;
}

function isScalar(value: unknown): value is FilterScalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
