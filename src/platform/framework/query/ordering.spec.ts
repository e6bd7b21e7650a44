import { OrderingTerm, parseOrdering } from './ordering';
import { QueryValidationError } from './query-validation-error';

const allowed = { name: '"site"."name"', status: '"site"."status"', id: '"site"."id"' };
const fallback: OrderingTerm[] = [{ column: '"site"."name"', direction: 'ASC' }];

describe('parseOrdering', () => {
  it.each<[string | string[] | undefined, OrderingTerm[]]>([
    [undefined, fallback],
    ['', fallback],
    [' , ', fallback],
    ['status', [{ column: '"site"."status"', direction: 'ASC' }]],
    ['-status', [{ column: '"site"."status"', direction: 'DESC' }]],
    [
      '-status,name',
      [
        { column: '"site"."status"', direction: 'DESC' },
        { column: '"site"."name"', direction: 'ASC' },
      ],
    ],
    [
      ' id , -name ,',
      [
        { column: '"site"."id"', direction: 'ASC' },
        { column: '"site"."name"', direction: 'DESC' },
      ],
    ],
    [['name', '-id'], [{ column: '"site"."id"', direction: 'DESC' }]],
  ])('%j', (value, expected) => {
    expect(parseOrdering(value, allowed, fallback)).toEqual(expected);
  });

  it('returns a copy of the fallback', () => {
    expect(parseOrdering(undefined, allowed, fallback)).not.toBe(fallback);
  });

  it.each<[string, string[]]>([
    ['x', ['Unknown ordering field "x"']],
    ['name,-x,y', ['Unknown ordering field "x"', 'Unknown ordering field "y"']],
    ['constructor', ['Unknown ordering field "constructor"']],
    ['--name', ['Unknown ordering field "-name"']],
  ])('%s → problems %j', (value, ordering) => {
    expect(() => parseOrdering(value, allowed, fallback)).toThrow(QueryValidationError);
    expect(() => parseOrdering(value, allowed, fallback)).toThrow(expect.objectContaining({ problems: { ordering } }));
  });
});
