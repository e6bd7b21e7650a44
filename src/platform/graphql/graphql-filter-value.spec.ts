import { filterTerms } from './graphql-filter-value';

describe('filterTerms', () => {
  it('reads values of any scalar type and lists of them as the bare REST parameter', () => {
    expect(filterTerms(5)).toEqual([{ lookup: '', values: ['5'] }]);
    expect(filterTerms('active')).toEqual([{ lookup: '', values: ['active'] }]);
    expect(filterTerms(true)).toEqual([{ lookup: '', values: ['true'] }]);
    expect(filterTerms([1, '2'])).toEqual([{ lookup: '', values: ['1', '2'] }]);
    expect(filterTerms(null)).toEqual([]);
    expect(filterTerms([])).toEqual([]);
  });

  it('maps strawberry lookups to the REST suffixes, a range to both bounds', () => {
    expect(filterTerms({ exact: 'CONFIRMED' })).toEqual([{ lookup: '', values: ['CONFIRMED'], from: 'exact' }]);
    expect(filterTerms({ i_contains: 'x', i_starts_with: 'a' })).toEqual([
      { lookup: 'ic', values: ['x'], from: 'i_contains' },
      { lookup: 'isw', values: ['a'], from: 'i_starts_with' },
    ]);
    expect(filterTerms({ in_list: [1, 2] })).toEqual([{ lookup: '', values: ['1', '2'], from: 'in_list' }]);
    expect(filterTerms({ range: { start: 3, end: 5 } })).toEqual([
      { lookup: 'gte', values: ['3'], from: 'range' },
      { lookup: 'lte', values: ['5'], from: 'range' },
    ]);
    expect(filterTerms({ is_null: false, gt: 1.5 })).toEqual([
      { lookup: 'isnull', values: ['false'], from: 'is_null' },
      { lookup: 'gt', values: ['1.5'], from: 'gt' },
    ]);
  });

  it('refuses what it cannot honour by name', () => {
    expect(() => filterTerms({ contains: 'x' })).toThrow('the lookup contains is not supported');
    expect(() => filterTerms({ regex: '^a' })).toThrow('the lookup regex is not supported');
    expect(() => filterTerms({ nope: 1 })).toThrow('unknown lookup nope');
    expect(() => filterTerms({ in_list: 1 })).toThrow('in_list takes a list');
    expect(() => filterTerms({ exact: [1, 2] })).toThrow('exact takes one value; in_list takes a list');
    expect(() => filterTerms({ range: { start: 1 } })).toThrow('range takes {start, end}');
    expect(() => filterTerms([{ exact: 1 }])).toThrow('a filter takes a string, a number, a boolean or a list of them');
    expect(() => filterTerms({ in_list: [] })).toThrow('in_list takes a string, a number, a boolean or a list of them');
  });
});
