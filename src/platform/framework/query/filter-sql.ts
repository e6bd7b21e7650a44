import { FilterCondition, FilterMatch } from './filter-condition';

/** Arguments for TypeORM's `SelectQueryBuilder.andWhere(where, params)`. */
export interface SqlFilter {
  where: string;
  params: Record<string, unknown>;
}

/**
 * Renders conditions as one WHERE expression with TypeORM named parameters
 * `:p<n>` (and `:...p<n>` for lists), numbered from `startIndex` so that several
 * filters can share one query builder. Columns come from the FilterSet; request
 * values only ever travel as parameters.
 */
export function toSql(conditions: readonly FilterCondition[], startIndex = 0): SqlFilter {
  const params: Record<string, unknown> = {};
  let nextIndex = startIndex;
  const bind = (value: unknown): string => {
    const name = `p${nextIndex++}`;
    params[name] = value;
    return name;
  };

  if (conditions.length === 0) return { where: '1=1', params };
  const where = conditions
    .map((condition) => {
      const alternatives = renderAlternatives(condition.column, condition.match, bind);
      // No alternative (an empty `__in` list of a permission constraint) matches no row, as in Django.
      const anyMatches = alternatives.length === 0 ? 'FALSE' : alternatives.join(' OR ');
      // IS NOT TRUE rather than NOT: a NULL column makes the positive test NULL,
      // and like Django's exclude() the negated lookups must keep those rows.
      if (condition.negated) return `(${anyMatches}) IS NOT TRUE`;
      return alternatives.length === 1 ? anyMatches : `(${anyMatches})`;
    })
    .join(' AND ');
  return { where, params };
}

/** `\` is PostgreSQL's default LIKE escape too, but naming it keeps the pattern's meaning explicit. */
const LIKE_ESCAPE = ` ESCAPE '\\'`;

/** One SQL predicate per value (an `equals` list is one `IN`); the row matches if any holds. */
function renderAlternatives(column: string, match: FilterMatch, bind: (value: unknown) => string): string[] {
  switch (match.kind) {
    case 'equals': {
      const alternatives = match.orNull ? [`${column} IS NULL`] : [];
      if (match.values.length === 1) alternatives.push(`${column} = :${bind(match.values[0])}`);
      if (match.values.length > 1) alternatives.push(`${column} IN (:...${bind(match.values)})`);
      return alternatives;
    }
    case 'iexact':
      return match.values.map((value) => `lower(${column}) = lower(:${bind(value)})`);
    case 'icontains':
      return match.values.map((value) => `${column} ILIKE :${bind(`%${escapeLike(value)}%`)}${LIKE_ESCAPE}`);
    case 'istartswith':
      return match.values.map((value) => `${column} ILIKE :${bind(`${escapeLike(value)}%`)}${LIKE_ESCAPE}`);
    case 'iendswith':
      return match.values.map((value) => `${column} ILIKE :${bind(`%${escapeLike(value)}`)}${LIKE_ESCAPE}`);
    case 'compare':
      return match.values.map((value) => `${column} ${match.operator} :${bind(value)}`);
    case 'isnull':
      return match.values.map((isNull) => `${column} ${isNull ? 'IS NULL' : 'IS NOT NULL'}`);
    case 'empty':
      if (match.blankIsEmpty) return match.values.map((isEmpty) => `coalesce(${column}, '') ${isEmpty ? '=' : '<>'} ''`);
      return match.values.map((isEmpty) => `${column} ${isEmpty ? 'IS NULL' : 'IS NOT NULL'}`);
  }
}

/** Makes `%`, `_` and `\` in a user's value match themselves inside a LIKE pattern. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}
