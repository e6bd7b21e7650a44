import { QueryValidationError } from './query-validation-error';

export interface OrderingTerm {
  column: string;
  /** TypeORM's `orderBy` spelling. */
  direction: 'ASC' | 'DESC';
}

/**
 * Reads NetBox's `ordering` parameter: comma-separated names, `-` for descending,
 * e.g. `ordering=-status,name`. Without a value the resource's `fallback` applies.
 * A repeated parameter counts by its last value, as Django REST framework reads it.
 *
 * @param allowed ordering name → trusted SQL column expression.
 * @throws QueryValidationError naming every unknown field.
 */
export function parseOrdering(
  value: string | string[] | undefined,
  allowed: Record<string, string>,
  fallback: readonly OrderingTerm[],
): OrderingTerm[] {
  const raw = Array.isArray(value) ? value.at(-1) : value;
  const names = (raw ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return [...fallback];

  const terms: OrderingTerm[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const descending = name.startsWith('-');
    const field = descending ? name.slice(1) : name;
    // Object.hasOwn so that `constructor` and friends are unknown, not Object.prototype members.
    if (Object.hasOwn(allowed, field)) terms.push({ column: allowed[field], direction: descending ? 'DESC' : 'ASC' });
    else problems.push(`Unknown ordering field "${field}"`);
  }
  if (problems.length > 0) throw new QueryValidationError({ ordering: problems });
  return terms;
}
