import { FilterCondition, FilterMatch } from './filter-condition';
import { escapeLike, toSql } from './filter-sql';

const on = (match: FilterMatch, negated = false): FilterCondition => ({ column: '"t"."c"', negated, match });

describe('toSql', () => {
  it('is 1=1 without conditions', () => {
    expect(toSql([])).toEqual({ where: '1=1', params: {} });
  });

  const cases: Array<[string, FilterCondition, string, Record<string, unknown>]> = [
    ['one exact value', on({ kind: 'equals', values: ['a'], orNull: false }), '"t"."c" = :p0', { p0: 'a' }],
    ['several exact values', on({ kind: 'equals', values: [1, 2], orNull: false }), '"t"."c" IN (:...p0)', { p0: [1, 2] }],
    ['null only', on({ kind: 'equals', values: [], orNull: true }), '"t"."c" IS NULL', {}],
    ['null or a value', on({ kind: 'equals', values: [3], orNull: true }), '("t"."c" IS NULL OR "t"."c" = :p0)', { p0: 3 }],
    ['null or values', on({ kind: 'equals', values: [3, 4], orNull: true }), '("t"."c" IS NULL OR "t"."c" IN (:...p0))', { p0: [3, 4] }],
    ['not equal', on({ kind: 'equals', values: ['a'], orNull: false }, true), '("t"."c" = :p0) IS NOT TRUE', { p0: 'a' }],
    ['not in', on({ kind: 'equals', values: ['a', 'b'], orNull: false }, true), '("t"."c" IN (:...p0)) IS NOT TRUE', { p0: ['a', 'b'] }],
    ['not null', on({ kind: 'equals', values: [], orNull: true }, true), '("t"."c" IS NULL) IS NOT TRUE', {}],
    ['iexact', on({ kind: 'iexact', values: ['A'] }), 'lower("t"."c") = lower(:p0)', { p0: 'A' }],
    [
      'not iexact',
      on({ kind: 'iexact', values: ['A', 'B'] }, true),
      '(lower("t"."c") = lower(:p0) OR lower("t"."c") = lower(:p1)) IS NOT TRUE',
      { p0: 'A', p1: 'B' },
    ],
    ['icontains', on({ kind: 'icontains', values: ['x'] }), `"t"."c" ILIKE :p0 ESCAPE '\\'`, { p0: '%x%' }],
    ['not icontains', on({ kind: 'icontains', values: ['x'] }, true), `("t"."c" ILIKE :p0 ESCAPE '\\') IS NOT TRUE`, { p0: '%x%' }],
    ['istartswith', on({ kind: 'istartswith', values: ['x'] }), `"t"."c" ILIKE :p0 ESCAPE '\\'`, { p0: 'x%' }],
    ['iendswith', on({ kind: 'iendswith', values: ['x'] }), `"t"."c" ILIKE :p0 ESCAPE '\\'`, { p0: '%x' }],
    [
      'icontains with wildcards',
      on({ kind: 'icontains', values: ['50%_off\\'] }),
      `"t"."c" ILIKE :p0 ESCAPE '\\'`,
      { p0: '%50\\%\\_off\\\\%' },
    ],
    ['gt', on({ kind: 'compare', operator: '>', values: [5] }), '"t"."c" > :p0', { p0: 5 }],
    [
      'gte or gte',
      on({ kind: 'compare', operator: '>=', values: ['1.5', '2'] }),
      '("t"."c" >= :p0 OR "t"."c" >= :p1)',
      { p0: '1.5', p1: '2' },
    ],
    ['lt', on({ kind: 'compare', operator: '<', values: ['2024-01-01'] }), '"t"."c" < :p0', { p0: '2024-01-01' }],
    ['lte', on({ kind: 'compare', operator: '<=', values: [5] }), '"t"."c" <= :p0', { p0: 5 }],
    ['isnull true', on({ kind: 'isnull', values: [true] }), '"t"."c" IS NULL', {}],
    ['isnull false', on({ kind: 'isnull', values: [false] }), '"t"."c" IS NOT NULL', {}],
    ['empty text', on({ kind: 'empty', values: [true], blankIsEmpty: true }), `coalesce("t"."c", '') = ''`, {}],
    ['non-empty text', on({ kind: 'empty', values: [false], blankIsEmpty: true }), `coalesce("t"."c", '') <> ''`, {}],
    ['empty other', on({ kind: 'empty', values: [true], blankIsEmpty: false }), '"t"."c" IS NULL', {}],
    ['non-empty other', on({ kind: 'empty', values: [false], blankIsEmpty: false }), '"t"."c" IS NOT NULL', {}],
  ];
  it.each(cases)('%s', (_description, condition, where, params) => {
    expect(toSql([condition])).toEqual({ where, params });
  });

  it('ANDs conditions and numbers parameters from startIndex', () => {
    expect(
      toSql(
        [
          { column: '"a"', negated: false, match: { kind: 'equals', values: ['x', 'y'], orNull: false } },
          { column: '"b"', negated: true, match: { kind: 'icontains', values: ['p', 'q'] } },
          { column: '"c"', negated: false, match: { kind: 'compare', operator: '<', values: [3] } },
        ],
        4,
      ),
    ).toEqual({
      where: `"a" IN (:...p4) AND ("b" ILIKE :p5 ESCAPE '\\' OR "b" ILIKE :p6 ESCAPE '\\') IS NOT TRUE AND "c" < :p7`,
      params: { p4: ['x', 'y'], p5: '%p%', p6: '%q%', p7: 3 },
    });
  });
});

describe('escapeLike', () => {
  it.each([
    ['plain', 'plain'],
    ['100%', '100\\%'],
    ['a_b', 'a\\_b'],
    ['c:\\dir', 'c:\\\\dir'],
    ['%_\\', '\\%\\_\\\\'],
  ])('%s → %s', (value, escaped) => {
    expect(escapeLike(value)).toBe(escaped);
  });
});
