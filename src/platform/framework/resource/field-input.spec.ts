import { isIsoDate, isIsoDateTime, ParsedInput, parseScalarInput, readObjectId } from './field-input';
import { boolean, choice, date, datetime, decimal, FieldSpec, integer, json, slug, stringList, text } from './fields';

type Case = [string, FieldSpec, unknown, ParsedInput];

const accepted = (value: unknown): ParsedInput => ({ value });
const refused = (problem: string): ParsedInput => ({ problem });

const NOT_NULL = refused('This field may not be null.');
const DATE_FORMAT = refused('Date has wrong format. Use one of these formats instead: YYYY-MM-DD.');
const DATETIME_FORMAT = refused(
  'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
);

function expectParsed(field: FieldSpec, raw: unknown, expected: ParsedInput): void {
  expect(parseScalarInput(field, raw)).toEqual(expected);
}

describe('parseScalarInput', () => {
  describe('text', () => {
    const name = text({ maxLength: 5, required: true });
    const code = text({ pattern: { regex: /^[A-Z]+$/, message: 'Upper-case letters only.' } });

    it.each<Case>([
      ['a string', name, 'edge', accepted('edge')],
      ['a number, as a string', name, 42, accepted('42')],
      ['exactly maxLength characters', name, 'abcde', accepted('abcde')],
      ['one character over maxLength', name, 'abcdef', refused('Ensure this field has no more than 5 characters.')],
      ['maxLength non-ASCII characters', name, 'ééééé', accepted('ééééé')],
      // PostgreSQL's varchar(n) and DRF count code points, not UTF-16 units.
      ['maxLength characters outside the BMP', name, '😀😀😀😀😀', accepted('😀😀😀😀😀')],
      ['a boolean', name, true, refused('Not a valid string.')],
      ['an object', name, { name: 'edge' }, refused('Not a valid string.')],
      ['a list', name, ['edge'], refused('Not a valid string.')],
      ['blank when required', name, '', refused('This field may not be blank.')],
      ['whitespace when required', name, '   ', refused('This field may not be blank.')],
      ['blank when optional', text(), '', accepted('')],
      ['a value matching the pattern', code, 'ABC', accepted('ABC')],
      ['a value not matching the pattern', code, 'abc', refused('Upper-case letters only.')],
      ['blank, which skips the pattern', code, '', accepted('')],
      ['a slug', slug(), 'ams-01_b', accepted('ams-01_b')],
      ['a slug with a space', slug(), 'ams 01', refused('Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.')],
    ])('%s', (_description, field, raw, expected) => expectParsed(field, raw, expected));
  });

  describe('integer', () => {
    const vid = integer({ min: 1, max: 4094 });
    const INVALID = refused('A valid integer is required.');

    it.each<Case>([
      ['a number', vid, 100, accepted(100)],
      ['a numeric string', vid, '100', accepted(100)],
      ['a numeric string with spaces', vid, ' 100 ', accepted(100)],
      ['a negative string without bounds', integer(), '-3', accepted(-3)],
      ['the minimum', vid, 1, accepted(1)],
      ['the maximum', vid, 4094, accepted(4094)],
      ['below the minimum', vid, 0, refused('Ensure this value is greater than or equal to 1.')],
      ['above the maximum', vid, 4095, refused('Ensure this value is less than or equal to 4094.')],
      ['a fraction', vid, 4.5, INVALID],
      ['a fractional string', vid, '4.5', INVALID],
      ['a blank string', vid, '', INVALID],
      ['a word', vid, 'ten', INVALID],
      ['a boolean', vid, true, INVALID],
      ['a number beyond the safe integers', integer(), 2 ** 53, INVALID],
      ['a string beyond the safe integers', integer(), '9007199254740993', INVALID],
    ])('%s', (_description, field, raw, expected) => expectParsed(field, raw, expected));
  });

  describe('decimal', () => {
    const weight = decimal({ precision: 5, scale: 2, min: 0, max: 500 });
    const unbounded = decimal({ precision: 5, scale: 2 });
    const INVALID = refused('A valid number is required.');
    const TOO_MANY_WHOLE_DIGITS = refused('Ensure that there are no more than 3 digits before the decimal point.');

    it.each<Case>([
      ['a number', weight, 12.5, accepted(12.5)],
      ['a numeric string', weight, '12.50', accepted(12.5)],
      ['a string with a leading dot', weight, '.5', accepted(0.5)],
      ['a string with a trailing dot', weight, '5.', accepted(5)],
      ['a signed string', unbounded, '-12.5', accepted(-12.5)],
      ['the most whole digits', unbounded, 999.99, accepted(999.99)],
      ['one whole digit too many', unbounded, 1000, TOO_MANY_WHOLE_DIGITS],
      ['one whole digit too many, negative', unbounded, '-1000', TOO_MANY_WHOLE_DIGITS],
      ['leading zeros, which are not digits', unbounded, '000999.5', accepted(999.5)],
      ['exactly scale decimal places', unbounded, '1.25', accepted(1.25)],
      ['more decimal places than scale', unbounded, '1.255', refused('Ensure that there are no more than 2 decimal places.')],
      ['the minimum', weight, 0, accepted(0)],
      ['below the minimum', weight, -0.01, refused('Ensure this value is greater than or equal to 0.')],
      ['the maximum', weight, '500.00', accepted(500)],
      ['above the maximum', weight, 500.01, refused('Ensure this value is less than or equal to 500.')],
      ['a word', weight, 'heavy', INVALID],
      ['NaN written out', weight, 'NaN', INVALID],
      ['an exponent', weight, '1e2', INVALID],
      ['a blank string', weight, '', INVALID],
      ['a boolean', weight, false, INVALID],
    ])('%s', (_description, field, raw, expected) => expectParsed(field, raw, expected));
  });

  describe('boolean', () => {
    const flag = boolean({ default: false });

    it.each<[unknown, boolean]>([
      [true, true],
      ['true', true],
      ['True', true],
      [1, true],
      ['1', true],
      [false, false],
      ['false', false],
      ['False', false],
      [0, false],
      ['0', false],
    ])('reads %p as %p', (raw, value) => expectParsed(flag, raw, accepted(value)));

    it.each<[unknown]>([['yes'], ['TRUE '], [2], [''], [[]]])('refuses %p', (raw) => {
      expectParsed(flag, raw, refused('Must be a valid boolean.'));
    });
  });

  describe('choice', () => {
    const status = choice(['active', 'offline']);

    it.each<Case>([
      ['a declared value', status, 'offline', accepted('offline')],
      ['an undeclared value', status, 'retired', refused('"retired" is not a valid choice.')],
      ['a label instead of the value', choice([['dc', 'Data centre']]), 'Data centre', refused('"Data centre" is not a valid choice.')],
      ['a differently cased value', status, 'Active', refused('"Active" is not a valid choice.')],
      ['a number', status, 1, refused('"1" is not a valid choice.')],
      ['blank when blank is allowed', choice(['active'], { blank: true }), '', accepted('')],
      ['blank when it is not', status, '', refused('"" is not a valid choice.')],
    ])('%s', (_description, field, raw, expected) => expectParsed(field, raw, expected));
  });

  describe('date', () => {
    it.each<Case>([
      ['a date', date(), '2024-05-01', accepted('2024-05-01')],
      ['29 February of a leap year', date(), '2024-02-29', accepted('2024-02-29')],
      ['29 February of a common year', date(), '2023-02-29', DATE_FORMAT],
      ['30 February', date(), '2023-02-30', DATE_FORMAT],
      ['a date with a time', date(), '2024-05-01T00:00:00Z', DATE_FORMAT],
      ['a number', date(), 20240501, DATE_FORMAT],
    ])('%s', (_description, field, raw, expected) => expectParsed(field, raw, expected));
  });

  describe('datetime', () => {
    it.each<Case>([
      ['UTC', datetime(), '2024-05-01T12:30:00Z', accepted(new Date('2024-05-01T12:30:00Z'))],
      ['an offset', datetime(), '2024-05-01T14:30:00+02:00', accepted(new Date('2024-05-01T12:30:00Z'))],
      ['microseconds', datetime(), '2024-05-01T12:30:00.123456Z', accepted(new Date('2024-05-01T12:30:00.123Z'))],
      ['29 February of a leap year', datetime(), '2024-02-29T00:00:00Z', accepted(new Date('2024-02-29T00:00:00Z'))],
      ['30 February', datetime(), '2023-02-30T12:00:00Z', DATETIME_FORMAT],
      ['minute 60', datetime(), '2024-05-01T12:60:00Z', DATETIME_FORMAT],
      ['words', datetime(), 'yesterday', DATETIME_FORMAT],
      ['a timestamp number', datetime(), 1714566600000, DATETIME_FORMAT],
    ])('%s', (_description, field, raw, expected) => expectParsed(field, raw, expected));
  });

  describe('json', () => {
    const checked = json({ validate: (value) => (typeof value === 'object' ? [] : ['Must be an object.', 'See the docs.']) });

    it.each<Case>([
      ['any JSON without a validator', json(), [1, 'two', { three: 3 }], accepted([1, 'two', { three: 3 }])],
      ['a value the validator accepts', checked, { a: 1 }, accepted({ a: 1 })],
      ['a value the validator refuses, problems joined', checked, 'text', refused('Must be an object. See the docs.')],
    ])('%s', (_description, field, raw, expected) => expectParsed(field, raw, expected));
  });

  describe('string-list', () => {
    const actions = stringList({ choices: ['view', 'add'], required: true });
    const names = stringList({ itemPattern: { regex: /^[a-z]+$/, message: 'Lower-case letters only.' } });

    it.each<Case>([
      ['a list of choices, duplicates dropped', actions, ['view', 'add', 'view'], accepted(['view', 'add'])],
      ['an unknown choice', actions, ['view', 'approve'], refused('"approve" is not a valid choice.')],
      ['an empty list when required', actions, [], refused('This list may not be empty.')],
      ['an empty list when optional', names, [], accepted([])],
      ['items matching the pattern', names, ['a', 'b'], accepted(['a', 'b'])],
      ['an item not matching the pattern', names, ['a', 'B'], refused('Lower-case letters only.')],
      ['a bare string', names, 'a', refused('Expected a list of strings.')],
      ['a list with a number', names, ['a', 1], refused('Expected a list of strings.')],
    ])('%s', (_description, field, raw, expected) => expectParsed(field, raw, expected));
  });

  describe('null', () => {
    it.each<Case>([
      ['text', text(), null, NOT_NULL],
      ['nullable text', text({ nullable: true }), null, accepted(null)],
      ['integer', integer(), null, NOT_NULL],
      ['nullable integer', integer({ nullable: true }), null, accepted(null)],
      ['decimal', decimal({ precision: 5, scale: 2 }), null, NOT_NULL],
      ['nullable decimal', decimal({ precision: 5, scale: 2, nullable: true }), null, accepted(null)],
      ['boolean', boolean({ default: false }), null, NOT_NULL],
      ['choice', choice(['active'], { blank: true }), null, NOT_NULL],
      ['optional date', date(), null, accepted(null)],
      ['required date', date({ required: true }), null, NOT_NULL],
      ['required nullable date', date({ required: true, nullable: true }), null, accepted(null)],
      ['optional non-nullable date', date({ nullable: false }), null, NOT_NULL],
      ['optional datetime', datetime(), null, accepted(null)],
      ['required datetime', datetime({ required: true }), null, NOT_NULL],
      ['json', json(), null, accepted(null)],
      ['non-nullable json', json({ nullable: false }), null, NOT_NULL],
      ['string list', stringList(), null, NOT_NULL],
    ])('%s', (_description, field, raw, expected) => expectParsed(field, raw, expected));
  });

  it.each<[FieldSpec['kind'], FieldSpec]>([
    ['relation', { kind: 'relation', target: () => ({}) as never, onDelete: 'CASCADE' }],
    ['many', { kind: 'many', target: () => ({}) as never }],
    ['generic', { kind: 'generic' }],
  ])('throws for %s fields, which are read elsewhere', (kind, field) => {
    expect(() => parseScalarInput(field, 1)).toThrow(`${kind} fields are not scalars`);
  });
});

describe('readObjectId', () => {
  it.each<[unknown, number]>([
    [5, 5],
    ['5', 5],
    [{ id: 5 }, 5],
    [{ id: '5' }, 5],
    [{ id: 5, name: 'ignored' }, 5],
  ])('reads %p as %p', (raw, id) => {
    expect(readObjectId(raw)).toBe(id);
  });

  it.each<[unknown]>([
    [0],
    [-1],
    [1.5],
    ['0'],
    ['05'],
    ['-5'],
    [' 5'],
    ['5.0'],
    ['12345678901'],
    [''],
    ['five'],
    [true],
    [null],
    [undefined],
    [[5]],
    [{}],
    [{ id: null }],
    [{ id: { id: 5 } }],
    [Number.MAX_SAFE_INTEGER + 2],
  ])('refuses %p', (raw) => {
    expect(readObjectId(raw)).toBeUndefined();
  });
});

describe('isIsoDate', () => {
  it.each<[string, boolean]>([
    ['2024-05-01', true],
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['2023-02-29', false],
    ['2023-02-30', false],
    ['2024-04-31', false],
    ['2024-12-31', true],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-01-00', false],
    ['2024-01-32', false],
    ['0001-01-01', true],
    ['0000-01-01', false],
    ['9999-12-31', true],
    ['0099-06-15', true],
    ['2024-5-01', false],
    ['24-05-01', false],
    ['2024/05/01', false],
    ['2024-05-01 ', false],
    ['', false],
  ])('%p → %p', (value, valid) => {
    expect(isIsoDate(value)).toBe(valid);
  });
});

describe('isIsoDateTime', () => {
  it.each<[string, boolean]>([
    ['2024-05-01T12:30', true],
    ['2024-05-01 12:30', true],
    ['2024-05-01T12:30:45', true],
    ['2024-05-01T12:30:45.1Z', true],
    ['2024-05-01T12:30:45.123456Z', true],
    ['2024-05-01T12:30:45+02:00', true],
    ['2024-05-01T12:30:45-0530', true],
    ['2024-05-01T12:30Z', true],
    ['2024-02-29T00:00:00Z', true],
    ['2023-02-29T00:00:00Z', false],
    ['2024-04-31T00:00:00Z', false],
    ['0000-01-01T00:00:00Z', false],
    ['2024-05-01T25:00:00Z', false],
    ['2024-05-01T12:60:00Z', false],
    ['2024-05-01T12:30:61Z', false],
    ['2024-05-01T12:30:45 UTC', false],
    ['', false],
  ])('%p → %p', (value, valid) => {
    expect(isIsoDateTime(value)).toBe(valid);
  });
});
