import { FilterSet } from '../query/filter-fields';
import { toSql } from '../query/filter-sql';
import { ConstraintSet, constraintProblems, constraintsToSql, readConstraints } from './permission-constraints';

const TENANT_SLUG = '(SELECT t."slug" FROM "tenancy_tenant" t WHERE t.id = o."tenant_id")';

/** Shaped as `filterSetOf` builds it: a relation is `tenant_id` by id plus `tenant` by the target's slug. */
const filterSet: FilterSet = {
  id: { column: 'o."id"', type: { kind: 'integer' } },
  name: { column: 'o."name"', type: { kind: 'string' } },
  status: { column: 'o."status"', type: { kind: 'choice', choices: ['active', 'offline'] } },
  installed: { column: 'o."installed"', type: { kind: 'date' } },
  tenant_id: { column: 'o."tenant_id"', type: { kind: 'relation' } },
  tenant: { column: TENANT_SLUG, type: { kind: 'string' } },
  // filterSetOf declares the natural-key column of a relation under its own name too.
  tenant__slug: { column: TENANT_SLUG, type: { kind: 'string' } },
};

const MALFORMED = 'Constraints must be a JSON object or a list of JSON objects.';

describe('readConstraints', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['an empty object', {}],
    ['a list holding an empty object', [{}]],
    ['a list with an empty object beside a restricting one', [{ status: 'active' }, {}]],
    ['an empty list', []],
  ])('reads %s as unrestricted', (_description, raw) => {
    expect(readConstraints(raw)).toEqual({ sets: null, problems: [] });
  });

  it('reads one object as one set', () => {
    expect(readConstraints({ status: 'active', tenant: 3 })).toEqual({ sets: [{ status: 'active', tenant: 3 }], problems: [] });
  });

  it('reads a list of objects as alternative sets, in order', () => {
    const raw = [{ status: 'active' }, { name__istartswith: 'ams' }];
    expect(readConstraints(raw)).toEqual({ sets: raw, problems: [] });
  });

  // Callers grant nothing when there are problems: the problem is what keeps malformed JSON from reading as unrestricted.
  it.each<[string, unknown, number]>([
    ['a string', 'status=active', 1],
    ['a number', 42, 1],
    ['a boolean', true, 1],
    ['a list with a string', [{ status: 'active' }, 'tenant=3'], 1],
    ['a list of strings and numbers', ['a', 1], 2],
    ['a nested list', [[{ status: 'active' }]], 1],
    ['a list with null', [null], 1],
    ['an empty object beside a string', [{}, 'junk'], 1],
  ])('reports %s as malformed', (_description, raw, count) => {
    const { problems } = readConstraints(raw);
    expect(problems).toEqual(Array<string>(count).fill(MALFORMED));
  });

  it('keeps the well-formed sets of a partly malformed list', () => {
    expect(readConstraints([{ status: 'active' }, 7])).toEqual({ sets: [{ status: 'active' }], problems: [MALFORMED] });
  });
});

describe('constraintProblems', () => {
  it('has none when every key and value is understood', () => {
    const sets: ConstraintSet[] = [
      { status: 'active', name__icontains: 'edge', id__gte: 3, installed__lt: '2024-01-01' },
      { tenant: 3, tenant_id__in: [1, 2], tenant__slug: 'acme', tenant__isnull: false, status__in: ['active'] },
    ];
    expect(constraintProblems(sets, filterSet)).toEqual([]);
  });

  it.each<[string, ConstraintSet, string]>([
    ['an unknown attribute', { colour: 'red' }, 'Unknown constraint attribute "colour"'],
    ['an unknown lookup', { name__regex: '^a' }, 'Unknown constraint attribute "name__regex"'],
    ['an unknown lookup on a relation', { tenant__foo: 1 }, 'Unknown constraint attribute "tenant__foo"'],
    ['a lookup without an attribute', { __in: [1] }, 'Unknown constraint attribute ""'],
    ['__in with a single value', { status__in: 'active' }, '"status__in" needs a list of values'],
    ['__in with a nested list', { id__in: [[1]] }, '"id__in" needs a list of values'],
    ['__in with null in the list', { id__in: [1, null] }, '"id__in" needs a list of values'],
    ['__isnull with a string', { tenant__isnull: 'true' }, '"tenant__isnull" needs true or false'],
    ['an object value', { name: { contains: 'a' } }, '"name" needs a string, number or boolean'],
    ['a list for exact', { status: ['active'] }, '"status" needs a string, number or boolean'],
    ['null for a text lookup', { name__icontains: null }, '"name__icontains" needs a string, number or boolean'],
    ['null for a comparison', { id__gt: null }, '"id__gt" needs a string, number or boolean'],
  ])('reports %s', (_description, set, problem) => {
    expect(constraintProblems([set], filterSet)).toEqual([problem]);
  });

  it('reports the problems of every set and key', () => {
    expect(constraintProblems([{ status: 'active', colour: 'red' }, { size: 1 }], filterSet)).toEqual([
      'Unknown constraint attribute "colour"',
      'Unknown constraint attribute "size"',
    ]);
  });

  // Only the slug is known to the filter set; answering a name constraint from it would compare the wrong column.
  it('does not take tenant__name for the slug', () => {
    expect(constraintProblems([{ tenant__name: 'Acme' }], filterSet)).toEqual(['Unknown constraint attribute "tenant__name"']);
  });
});

describe('constraintsToSql', () => {
  const ESCAPE = ` ESCAPE '\\'`;

  it.each<[string, ConstraintSet, string, Record<string, unknown>]>([
    ['exact text', { status: 'active' }, 'o."status" = :p0', { p0: 'active' }],
    ['exact number', { id: 7 }, 'o."id" = :p0', { p0: 7 }],
    ['exact null', { name: null }, 'o."name" IS NULL', {}],
    ['__in with several values', { id__in: [1, 2, 3] }, 'o."id" IN (:...p0)', { p0: [1, 2, 3] }],
    ['__in with one value', { status__in: ['offline'] }, 'o."status" = :p0', { p0: 'offline' }],
    ['__iexact', { name__iexact: 'Edge-01' }, 'lower(o."name") = lower(:p0)', { p0: 'Edge-01' }],
    ['__icontains', { name__icontains: 'dge' }, `o."name" ILIKE :p0${ESCAPE}`, { p0: '%dge%' }],
    ['__icontains with LIKE wildcards', { name__icontains: '50%_' }, `o."name" ILIKE :p0${ESCAPE}`, { p0: '%50\\%\\_%' }],
    ['__icontains with a number', { name__icontains: 5 }, `o."name" ILIKE :p0${ESCAPE}`, { p0: '%5%' }],
    ['__istartswith', { name__istartswith: 'ams' }, `o."name" ILIKE :p0${ESCAPE}`, { p0: 'ams%' }],
    ['__iendswith', { name__iendswith: '-01' }, `o."name" ILIKE :p0${ESCAPE}`, { p0: '%-01' }],
    ['__gt', { id__gt: 10 }, 'o."id" > :p0', { p0: 10 }],
    ['__gte', { id__gte: 10 }, 'o."id" >= :p0', { p0: 10 }],
    ['__lt', { installed__lt: '2024-01-01' }, 'o."installed" < :p0', { p0: '2024-01-01' }],
    ['__lte', { installed__lte: '2024-01-01' }, 'o."installed" <= :p0', { p0: '2024-01-01' }],
    ['__isnull true', { installed__isnull: true }, 'o."installed" IS NULL', {}],
    ['__isnull false', { installed__isnull: false }, 'o."installed" IS NOT NULL', {}],
  ])('renders %s', (_description, set, predicate, params) => {
    expect(constraintsToSql([set], filterSet, 0)).toEqual({ where: `((${predicate}))`, params });
  });

  it.each<[string, ConstraintSet, string, Record<string, unknown>]>([
    ['tenant as the id, as in Django', { tenant: 3 }, 'o."tenant_id" = :p0', { p0: 3 }],
    ['tenant_id', { tenant_id: 3 }, 'o."tenant_id" = :p0', { p0: 3 }],
    ['tenant__in', { tenant__in: [3, 4] }, 'o."tenant_id" IN (:...p0)', { p0: [3, 4] }],
    ['tenant: null', { tenant: null }, 'o."tenant_id" IS NULL', {}],
    ['tenant__isnull', { tenant__isnull: true }, 'o."tenant_id" IS NULL', {}],
    ['tenant__slug', { tenant__slug: 'acme' }, `${TENANT_SLUG} = :p0`, { p0: 'acme' }],
    ['tenant__slug__istartswith', { tenant__slug__istartswith: 'ac' }, `${TENANT_SLUG} ILIKE :p0${ESCAPE}`, { p0: 'ac%' }],
    ['tenant__slug__in', { tenant__slug__in: ['acme', 'globex'] }, `${TENANT_SLUG} IN (:...p0)`, { p0: ['acme', 'globex'] }],
  ])('resolves %s', (_description, set, predicate, params) => {
    expect(constraintsToSql([set], filterSet, 0)).toEqual({ where: `((${predicate}))`, params });
  });

  it('ANDs the keys of one set', () => {
    expect(constraintsToSql([{ status: 'active', name__istartswith: 'ams' }], filterSet, 0)).toEqual({
      where: `((o."status" = :p0 AND o."name" ILIKE :p1${ESCAPE}))`,
      params: { p0: 'active', p1: 'ams%' },
    });
  });

  it('ORs the sets of a list, numbering parameters on from startIndex without reusing one', () => {
    const sets: ConstraintSet[] = [{ status: 'active' }, { tenant: 3, id__in: [1, 2] }, { name__iexact: 'core' }];
    expect(constraintsToSql(sets, filterSet, 4)).toEqual({
      where: '((o."status" = :p4) OR (o."tenant_id" = :p5 AND o."id" IN (:...p6)) OR (lower(o."name") = lower(:p7)))',
      params: { p4: 'active', p5: 3, p6: [1, 2], p7: 'core' },
    });
  });

  it('does not advance the numbering for a set without parameters', () => {
    expect(constraintsToSql([{ tenant__isnull: true }, { status: 'offline' }], filterSet, 2)).toEqual({
      where: '((o."tenant_id" IS NULL) OR (o."status" = :p2))',
      params: { p2: 'offline' },
    });
  });

  it('shares a query builder with request filters when started after their parameters', () => {
    const request = toSql([
      { column: 'o."name"', negated: false, match: { kind: 'equals', values: ['a', 'b'], orNull: false } },
      { column: 'o."id"', negated: false, match: { kind: 'compare', operator: '>', values: [1] } },
    ]);
    const constraint = constraintsToSql([{ status: 'active' }, { id__lt: 9 }], filterSet, Object.keys(request.params).length);
    expect(Object.keys(constraint.params)).toEqual(['p2', 'p3']);
    expect({ ...request.params, ...constraint.params }).toEqual({ p0: ['a', 'b'], p1: 1, p2: 'active', p3: 9 });
  });

  it('matches nothing without sets', () => {
    expect(constraintsToSql([], filterSet, 0)).toEqual({ where: '1=0', params: {} });
  });

  it.each<[string, ConstraintSet[], string]>([
    ['an unknown attribute', [{ colour: 'red' }], 'Unknown constraint attribute "colour"'],
    ['an unknown attribute in a later set', [{ status: 'active' }, { size: 1 }], 'Unknown constraint attribute "size"'],
    ['a value of the wrong shape', [{ status__in: 'active' }], '"status__in" needs a list of values'],
  ])('throws on %s', (_description, sets, message) => {
    expect(() => constraintsToSql(sets, filterSet, 0)).toThrow(new Error(message));
  });

  // Django answers `status__in=[]` with no rows; the SQL must stay valid (`()` is a PostgreSQL syntax error).
  it('renders an empty __in list as a valid predicate', () => {
    const { where } = constraintsToSql([{ status__in: [] }], filterSet, 0);
    expect(where).not.toMatch(/\(\s*\)/);
  });
});
