import { FilterCondition } from './filter-condition';
import { FilterSet } from './filter-fields';
import { FilterValidationError, QueryParameters, parseFilters } from './filter-parser';

const filterSet: FilterSet = {
  name: { column: '"site"."name"', type: { kind: 'string' } },
  asn: { column: '"site"."asn"', type: { kind: 'integer', big: true } },
  position: { column: '"site"."position"', type: { kind: 'integer' } },
  weight: { column: '"site"."weight"', type: { kind: 'decimal' } },
  mark_connected: { column: '"site"."mark_connected"', type: { kind: 'boolean' } },
  created: { column: '"site"."created"', type: { kind: 'datetime' } },
  install_date: { column: '"site"."install_date"', type: { kind: 'date' } },
  status: { column: '"site"."status"', type: { kind: 'choice', choices: ['active', 'planned'] } },
  region_id: { column: '"site"."region_id"', type: { kind: 'relation' } },
};
const options = { ignore: ['limit', 'offset', 'ordering', 'brief', 'q', 'format'] };

const parse = (query: QueryParameters) => parseFilters(query, filterSet, options);
const problemsOf = (query: QueryParameters): Record<string, string[]> => {
  try {
    parse(query);
  } catch (error) {
    if (error instanceof FilterValidationError) return error.problems;
    throw error;
  }
  throw new Error('expected a FilterValidationError');
};

describe('parseFilters', () => {
  describe('lookups by type', () => {
    const cases: Array<[string, string, FilterCondition]> = [
      // string
      ['name', 'a', { column: '"site"."name"', negated: false, match: { kind: 'equals', values: ['a'], orNull: false } }],
      ['name__n', 'a', { column: '"site"."name"', negated: true, match: { kind: 'equals', values: ['a'], orNull: false } }],
      ['name__ie', 'A', { column: '"site"."name"', negated: false, match: { kind: 'iexact', values: ['A'] } }],
      ['name__nie', 'A', { column: '"site"."name"', negated: true, match: { kind: 'iexact', values: ['A'] } }],
      ['name__ic', 'b', { column: '"site"."name"', negated: false, match: { kind: 'icontains', values: ['b'] } }],
      ['name__nic', 'b', { column: '"site"."name"', negated: true, match: { kind: 'icontains', values: ['b'] } }],
      ['name__isw', 'c', { column: '"site"."name"', negated: false, match: { kind: 'istartswith', values: ['c'] } }],
      ['name__nisw', 'c', { column: '"site"."name"', negated: true, match: { kind: 'istartswith', values: ['c'] } }],
      ['name__iew', 'd', { column: '"site"."name"', negated: false, match: { kind: 'iendswith', values: ['d'] } }],
      ['name__niew', 'd', { column: '"site"."name"', negated: true, match: { kind: 'iendswith', values: ['d'] } }],
      ['name__empty', 'true', { column: '"site"."name"', negated: false, match: { kind: 'empty', values: [true], blankIsEmpty: true } }],
      ['name__isnull', 'false', { column: '"site"."name"', negated: false, match: { kind: 'isnull', values: [false] } }],
      // integer
      ['asn', '-5', { column: '"site"."asn"', negated: false, match: { kind: 'equals', values: [-5], orNull: false } }],
      ['asn__n', '5', { column: '"site"."asn"', negated: true, match: { kind: 'equals', values: [5], orNull: false } }],
      ['asn__gt', '1', { column: '"site"."asn"', negated: false, match: { kind: 'compare', operator: '>', values: [1] } }],
      ['asn__gte', '1', { column: '"site"."asn"', negated: false, match: { kind: 'compare', operator: '>=', values: [1] } }],
      ['asn__lt', '1', { column: '"site"."asn"', negated: false, match: { kind: 'compare', operator: '<', values: [1] } }],
      ['asn__lte', '1', { column: '"site"."asn"', negated: false, match: { kind: 'compare', operator: '<=', values: [1] } }],
      ['asn__empty', 'false', { column: '"site"."asn"', negated: false, match: { kind: 'empty', values: [false], blankIsEmpty: false } }],
      ['asn__isnull', 'TRUE', { column: '"site"."asn"', negated: false, match: { kind: 'isnull', values: [true] } }],
      // decimal: kept as text so PostgreSQL compares it exactly
      ['weight', '1.50', { column: '"site"."weight"', negated: false, match: { kind: 'equals', values: ['1.50'], orNull: false } }],
      ['weight__n', '-2', { column: '"site"."weight"', negated: true, match: { kind: 'equals', values: ['-2'], orNull: false } }],
      ['weight__gt', '.5', { column: '"site"."weight"', negated: false, match: { kind: 'compare', operator: '>', values: ['.5'] } }],
      ['weight__gte', '3.', { column: '"site"."weight"', negated: false, match: { kind: 'compare', operator: '>=', values: ['3.'] } }],
      ['weight__lt', '+4', { column: '"site"."weight"', negated: false, match: { kind: 'compare', operator: '<', values: ['+4'] } }],
      ['weight__lte', '4', { column: '"site"."weight"', negated: false, match: { kind: 'compare', operator: '<=', values: ['4'] } }],
      ['weight__empty', '1', { column: '"site"."weight"', negated: false, match: { kind: 'empty', values: [true], blankIsEmpty: false } }],
      ['weight__isnull', '0', { column: '"site"."weight"', negated: false, match: { kind: 'isnull', values: [false] } }],
      // boolean
      [
        'mark_connected',
        'True',
        { column: '"site"."mark_connected"', negated: false, match: { kind: 'equals', values: [true], orNull: false } },
      ],
      [
        'mark_connected',
        '0',
        { column: '"site"."mark_connected"', negated: false, match: { kind: 'equals', values: [false], orNull: false } },
      ],
      [
        'mark_connected__n',
        'false',
        { column: '"site"."mark_connected"', negated: true, match: { kind: 'equals', values: [false], orNull: false } },
      ],
      [
        'mark_connected__empty',
        'true',
        { column: '"site"."mark_connected"', negated: false, match: { kind: 'empty', values: [true], blankIsEmpty: false } },
      ],
      ['mark_connected__isnull', 'true', { column: '"site"."mark_connected"', negated: false, match: { kind: 'isnull', values: [true] } }],
      // datetime
      [
        'created',
        '2024-02-29T10:00:00Z',
        { column: '"site"."created"', negated: false, match: { kind: 'equals', values: ['2024-02-29T10:00:00Z'], orNull: false } },
      ],
      [
        'created__n',
        '2024-01-01',
        { column: '"site"."created"', negated: true, match: { kind: 'equals', values: ['2024-01-01'], orNull: false } },
      ],
      [
        'created__gt',
        '2024-01-01 10:00',
        { column: '"site"."created"', negated: false, match: { kind: 'compare', operator: '>', values: ['2024-01-01 10:00'] } },
      ],
      [
        'created__gte',
        '2024-01-01T10:00:00.123456+02:00',
        {
          column: '"site"."created"',
          negated: false,
          match: { kind: 'compare', operator: '>=', values: ['2024-01-01T10:00:00.123456+02:00'] },
        },
      ],
      [
        'created__lt',
        '2024-01-01T10:00:00-0530',
        { column: '"site"."created"', negated: false, match: { kind: 'compare', operator: '<', values: ['2024-01-01T10:00:00-0530'] } },
      ],
      [
        'created__lte',
        '2024-01-01',
        { column: '"site"."created"', negated: false, match: { kind: 'compare', operator: '<=', values: ['2024-01-01'] } },
      ],
      [
        'created__empty',
        'false',
        { column: '"site"."created"', negated: false, match: { kind: 'empty', values: [false], blankIsEmpty: false } },
      ],
      ['created__isnull', 'false', { column: '"site"."created"', negated: false, match: { kind: 'isnull', values: [false] } }],
      // date
      [
        'install_date',
        '2024-02-29',
        { column: '"site"."install_date"', negated: false, match: { kind: 'equals', values: ['2024-02-29'], orNull: false } },
      ],
      [
        'install_date__n',
        '0050-01-01',
        { column: '"site"."install_date"', negated: true, match: { kind: 'equals', values: ['0050-01-01'], orNull: false } },
      ],
      [
        'install_date__gt',
        '2024-01-01',
        { column: '"site"."install_date"', negated: false, match: { kind: 'compare', operator: '>', values: ['2024-01-01'] } },
      ],
      [
        'install_date__gte',
        '2024-01-01',
        { column: '"site"."install_date"', negated: false, match: { kind: 'compare', operator: '>=', values: ['2024-01-01'] } },
      ],
      [
        'install_date__lt',
        '2024-01-01',
        { column: '"site"."install_date"', negated: false, match: { kind: 'compare', operator: '<', values: ['2024-01-01'] } },
      ],
      [
        'install_date__lte',
        '2024-01-01',
        { column: '"site"."install_date"', negated: false, match: { kind: 'compare', operator: '<=', values: ['2024-01-01'] } },
      ],
      [
        'install_date__empty',
        'true',
        { column: '"site"."install_date"', negated: false, match: { kind: 'empty', values: [true], blankIsEmpty: false } },
      ],
      ['install_date__isnull', 'true', { column: '"site"."install_date"', negated: false, match: { kind: 'isnull', values: [true] } }],
      // choice: stored as text, so '' counts as empty like NetBox's CharField choices
      ['status', 'active', { column: '"site"."status"', negated: false, match: { kind: 'equals', values: ['active'], orNull: false } }],
      ['status__n', 'planned', { column: '"site"."status"', negated: true, match: { kind: 'equals', values: ['planned'], orNull: false } }],
      [
        'status__empty',
        'true',
        { column: '"site"."status"', negated: false, match: { kind: 'empty', values: [true], blankIsEmpty: true } },
      ],
      ['status__isnull', 'true', { column: '"site"."status"', negated: false, match: { kind: 'isnull', values: [true] } }],
      // relation
      ['region_id', '7', { column: '"site"."region_id"', negated: false, match: { kind: 'equals', values: [7], orNull: false } }],
      ['region_id', 'null', { column: '"site"."region_id"', negated: false, match: { kind: 'equals', values: [], orNull: true } }],
      ['region_id__n', 'null', { column: '"site"."region_id"', negated: true, match: { kind: 'equals', values: [], orNull: true } }],
      [
        'region_id__empty',
        'true',
        { column: '"site"."region_id"', negated: false, match: { kind: 'empty', values: [true], blankIsEmpty: false } },
      ],
      ['region_id__isnull', 'false', { column: '"site"."region_id"', negated: false, match: { kind: 'isnull', values: [false] } }],
    ];
    it.each(cases)('%s=%s', (param, value, condition) => {
      expect(parse({ [param]: value })).toEqual({ conditions: [condition], customFieldFilters: [] });
    });

    const unsupported: Array<[string, string]> = [
      ['name__gt', 'gt'],
      ['name__lte', 'lte'],
      ['asn__ic', 'ic'],
      ['weight__isw', 'isw'],
      ['mark_connected__gt', 'gt'],
      ['mark_connected__ic', 'ic'],
      ['created__ie', 'ie'],
      ['install_date__nic', 'nic'],
      ['status__ic', 'ic'],
      ['status__gte', 'gte'],
      ['region_id__gt', 'gt'],
      ['region_id__niew', 'niew'],
      ['name__regex', 'regex'],
      ['name__foo__bar', 'foo__bar'],
    ];
    it.each(unsupported)('%s is an unsupported lookup', (param, lookup) => {
      expect(problemsOf({ [param]: 'x' })).toEqual({ [param]: [`Unsupported lookup "${lookup}"`] });
    });
  });

  describe('value validation', () => {
    const invalid: Array<[string, string, string]> = [
      ['asn', '1.5', 'Enter a whole number.'],
      ['asn__gt', 'ten', 'Enter a whole number.'],
      ['asn', '9007199254740993', 'Ensure this value is between -9007199254740991 and 9007199254740991.'],
      ['weight', '1,5', 'Enter a number.'],
      ['weight__lt', '1e3', 'Enter a number.'],
      ['mark_connected', 'yes', '"yes" is not a valid boolean; use true, false, 1 or 0.'],
      ['name__empty', 'maybe', '"maybe" is not a valid boolean; use true, false, 1 or 0.'],
      ['asn__isnull', '2', '"2" is not a valid boolean; use true, false, 1 or 0.'],
      ['install_date', '2023-02-29', 'Enter a valid date.'],
      ['install_date', '2024-1-01', 'Enter a valid date.'],
      ['install_date', '0000-01-01', 'Enter a valid date.'],
      ['install_date__gt', '2024-01-01T00:00', 'Enter a valid date.'],
      ['created', '2024-01-01T24:00', 'Enter a valid date/time.'],
      ['created', '2024-13-01', 'Enter a valid date/time.'],
      ['created__gte', 'yesterday', 'Enter a valid date/time.'],
      ['status', 'retired', 'Select a valid choice. retired is not one of the available choices.'],
      ['status', 'Active', 'Select a valid choice. Active is not one of the available choices.'],
      ['region_id', 'abc', '"abc" is not a valid value.'],
      ['region_id', '0', '"0" is not a valid value.'],
      ['region_id', '-3', '"-3" is not a valid value.'],
      ['region_id', '2147483648', '"2147483648" is not a valid value.'],
      ['position', '2147483648', 'Ensure this value is less than or equal to 2147483647.'],
      ['position', '-2147483649', 'Ensure this value is greater than or equal to -2147483648.'],
      ['region_id__isnull', 'null', '"null" is not a valid boolean; use true, false, 1 or 0.'],
    ];
    it.each(invalid)('%s=%s → %s', (param, value, message) => {
      expect(problemsOf({ [param]: value })).toEqual({ [param]: [message] });
    });

    it('collects the problems of every parameter and every distinct message once', () => {
      expect(problemsOf({ asn: ['x', 'y', '3'], status: ['gone', 'lost'], name: 'ok', name__gt: 'z' })).toEqual({
        asn: ['Enter a whole number.'],
        status: [
          'Select a valid choice. gone is not one of the available choices.',
          'Select a valid choice. lost is not one of the available choices.',
        ],
        name__gt: ['Unsupported lookup "gt"'],
      });
    });

    it('is a FilterValidationError whose message names the parameters', () => {
      expect(() => parse({ asn: 'x' })).toThrow(
        expect.objectContaining({ name: 'FilterValidationError', message: 'Invalid query parameters: asn: Enter a whole number.' }),
      );
    });
  });

  describe('combining parameters', () => {
    it('keeps every value of a repeated parameter in one condition (OR)', () => {
      expect(parse({ name: ['a', 'b'], region_id: ['1', 'null', '2'] }).conditions).toEqual([
        { column: '"site"."name"', negated: false, match: { kind: 'equals', values: ['a', 'b'], orNull: false } },
        { column: '"site"."region_id"', negated: false, match: { kind: 'equals', values: [1, 2], orNull: true } },
      ]);
    });

    it('gives each parameter its own condition (AND)', () => {
      expect(parse({ name__ic: 'a', name__nic: 'b', asn__gte: '1', asn__lt: '9' }).conditions).toHaveLength(4);
    });

    it('skips empty values, and a parameter with only empty values', () => {
      expect(parse({ name: ['', 'a'], asn: '', status: [''] }).conditions).toEqual([
        { column: '"site"."name"', negated: false, match: { kind: 'equals', values: ['a'], orNull: false } },
      ]);
    });

    it('still reports an unsupported lookup given an empty value', () => {
      expect(problemsOf({ name__gt: '' })).toEqual({ name__gt: ['Unsupported lookup "gt"'] });
    });
  });

  describe('parameters that are not filters', () => {
    it('skips ignored, unknown and undefined parameters', () => {
      expect(
        parse({
          limit: 'x',
          offset: 'y',
          ordering: 'z',
          brief: '1',
          q: 'a',
          format: 'json',
          unknown: '1',
          unknown__ic: '1',
          constructor: '1',
          toString__n: '1',
          name: undefined,
        }),
      ).toEqual({ conditions: [], customFieldFilters: [] });
    });

    it('returns cf_ parameters unvalidated, split into name and lookup', () => {
      expect(parse({ cf_rack_units: '42', cf_owner_name__ic: ['x', ''], cf_: '1' }).customFieldFilters).toEqual([
        { name: 'rack_units', lookup: 'exact', values: ['42'] },
        { name: 'owner_name', lookup: 'ic', values: ['x', ''] },
      ]);
    });
  });
});
