import { customFieldProblem } from './custom-field-values';
import type { CustomFieldDefinition } from './resource-serializer';

function customField(type: string, options: Partial<CustomFieldDefinition> = {}): CustomFieldDefinition {
  return {
    id: 1,
    name: 'cf',
    type,
    required: false,
    default: null,
    validation_minimum: null,
    validation_maximum: null,
    validation_regex: '',
    choices: [],
    related_object_type_id: null,
    ...options,
  };
}

type Case = [string, CustomFieldDefinition, unknown, string | undefined];

const TYPES = [
  'text',
  'longtext',
  'url',
  'integer',
  'decimal',
  'boolean',
  'date',
  'datetime',
  'json',
  'select',
  'multiselect',
  'object',
  'multiobject',
];
const ENVIRONMENTS = ['prod', 'dev'];

describe('customFieldProblem', () => {
  describe.each(TYPES)('an empty %s value', (type) => {
    it.each<[unknown]>([[null], [undefined], ['']])('%p is accepted when optional', (value) => {
      expect(customFieldProblem(customField(type), value)).toBeUndefined();
    });

    it.each<[unknown]>([[null], [undefined], ['']])('%p is refused when required', (value) => {
      expect(customFieldProblem(customField(type, { required: true }), value)).toBe('Required field cannot be empty.');
    });
  });

  it.each<Case>([
    ['0 for a required integer', customField('integer', { required: true }), 0, undefined],
    ['false for a required boolean', customField('boolean', { required: true }), false, undefined],
    ['an empty list for a required multiselect', customField('multiselect', { required: true, choices: ENVIRONMENTS }), [], undefined],
  ])('counts %s as a value', (_description, field, value, problem) => {
    expect(customFieldProblem(field, value)).toBe(problem);
  });

  describe('text, longtext and url', () => {
    const code = customField('text', { validation_regex: '^[A-Z]{3}-\\d+$' });

    it.each<Case>([
      ['text', customField('text'), 'anything', undefined],
      ['longtext', customField('longtext'), 'line one\nline two', undefined],
      ['a number as text', customField('text'), 42, 'Value must be a string.'],
      ['a boolean as longtext', customField('longtext'), true, 'Value must be a string.'],
      ['a list as text', customField('text'), ['a'], 'Value must be a string.'],
      ['text matching the regex', code, 'ABC-12', undefined],
      ['text not matching the regex', code, 'abc-12', "Value must match regex '^[A-Z]{3}-\\d+$'"],
      [
        'longtext not matching its regex',
        customField('longtext', { validation_regex: '^\\d+$' }),
        '12a',
        "Value must match regex '^\\d+$'",
      ],
      ['a URL', customField('url'), 'https://example.com/path?q=1', undefined],
      ['a URL of another scheme', customField('url'), 'ssh://git@example.com', undefined],
      ['a URL without a scheme', customField('url'), 'example.com', 'Value must be a URL.'],
      ['a URL with a space', customField('url'), 'https://exa mple.com', 'Value must be a URL.'],
      ['a number as URL', customField('url'), 80, 'Value must be a string.'],
      [
        'a URL not matching the regex',
        customField('url', { validation_regex: '^https://' }),
        'http://example.com',
        "Value must match regex '^https://'",
      ],
    ])('%s', (_description, field, value, problem) => {
      expect(customFieldProblem(field, value)).toBe(problem);
    });
  });

  describe('integer', () => {
    const rackCount = customField('integer', { validation_minimum: 1, validation_maximum: 100 });

    it.each<Case>([
      ['an integer', rackCount, 50, undefined],
      ['the minimum', rackCount, 1, undefined],
      ['the maximum', rackCount, 100, undefined],
      ['below the minimum', rackCount, 0, 'Value must be at least 1'],
      ['above the maximum', rackCount, 101, 'Value must not exceed 100'],
      ['below a minimum of 0', customField('integer', { validation_minimum: 0 }), -1, 'Value must be at least 0'],
      ['above a maximum of 0', customField('integer', { validation_maximum: 0 }), 1, 'Value must not exceed 0'],
      ['a negative number without bounds', customField('integer'), -5, undefined],
      ['a fraction', rackCount, 1.5, 'Value must be an integer.'],
      ['a numeric string', rackCount, '5', 'Value must be an integer.'],
      ['a boolean', rackCount, true, 'Value must be an integer.'],
      ['a number beyond the safe integers', customField('integer'), 2 ** 53, 'Value must be an integer.'],
    ])('%s', (_description, field, value, problem) => {
      expect(customFieldProblem(field, value)).toBe(problem);
    });
  });

  describe('decimal', () => {
    const ratio = customField('decimal', { validation_minimum: 1, validation_maximum: 10 });

    it.each<Case>([
      ['a fraction', ratio, 2.5, undefined],
      ['an integer', ratio, 3, undefined],
      ['the minimum', ratio, 1, undefined],
      ['the maximum', ratio, 10, undefined],
      ['just below the minimum', ratio, 0.99, 'Value must be at least 1'],
      ['just above the maximum', ratio, 10.01, 'Value must not exceed 10'],
      ['a word', ratio, 'abc', 'Value must be a decimal.'],
      ['an object', ratio, { value: 2 }, 'Value must be a decimal.'],
      ['infinity', customField('decimal'), Infinity, 'Value must be a decimal.'],
    ])('%s', (_description, field, value, problem) => {
      expect(customFieldProblem(field, value)).toBe(problem);
    });
  });

  describe('boolean', () => {
    it.each<Case>([
      ['true', customField('boolean'), true, undefined],
      ['false', customField('boolean'), false, undefined],
      ['a word', customField('boolean'), 'yes', 'Value must be true or false.'],
      ['the string "true"', customField('boolean'), 'true', 'Value must be true or false.'],
    ])('%s', (_description, field, value, problem) => {
      expect(customFieldProblem(field, value)).toBe(problem);
    });
  });

  describe('date and datetime', () => {
    const DATE = 'Date values must be in ISO 8601 format (YYYY-MM-DD).';
    const DATETIME = 'Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS).';

    it.each<Case>([
      ['a date', customField('date'), '2024-05-01', undefined],
      ['29 February of a leap year', customField('date'), '2024-02-29', undefined],
      ['29 February of a common year', customField('date'), '2023-02-29', DATE],
      ['30 February', customField('date'), '2023-02-30', DATE],
      ['year 0', customField('date'), '0000-01-01', DATE],
      ['month 13', customField('date'), '2024-13-01', DATE],
      ['a one-digit month', customField('date'), '2024-5-01', DATE],
      ['a number', customField('date'), 20240501, DATE],
      ['a datetime with a space', customField('datetime'), '2024-05-01 12:30:00', undefined],
      ['a datetime with T and an offset', customField('datetime'), '2024-05-01T12:30:00+02:00', undefined],
      ['a datetime on 29 February of a leap year', customField('datetime'), '2024-02-29T12:00:00Z', undefined],
      ['a datetime on 30 February', customField('datetime'), '2023-02-30T12:00:00Z', DATETIME],
      ['a datetime in year 0', customField('datetime'), '0000-01-01T00:00:00Z', DATETIME],
      ['a datetime at hour 25', customField('datetime'), '2024-05-01T25:00:00Z', DATETIME],
      ['words as datetime', customField('datetime'), 'now', DATETIME],
    ])('%s', (_description, field, value, problem) => {
      expect(customFieldProblem(field, value)).toBe(problem);
    });
  });

  describe('json', () => {
    it.each<[unknown]>([[{ a: 1 }], [[1, 2]], [0], [false], ['text']])('accepts %p', (value) => {
      expect(customFieldProblem(customField('json'), value)).toBeUndefined();
    });
  });

  describe('select and multiselect', () => {
    const environment = customField('select', { choices: ENVIRONMENTS });
    const environments = customField('multiselect', { choices: ENVIRONMENTS });

    it.each<Case>([
      ['a choice', environment, 'dev', undefined],
      ['an unknown choice', environment, 'staging', 'Invalid choice (staging). Available choices are: prod, dev'],
      ['a differently cased choice', environment, 'Prod', 'Invalid choice (Prod). Available choices are: prod, dev'],
      ['a list for select', environment, ['dev'], 'Invalid choice (dev). Available choices are: prod, dev'],
      ['a number for select', environment, 1, 'Invalid choice (1). Available choices are: prod, dev'],
      ['several choices', environments, ['prod', 'dev'], undefined],
      ['a bare choice for multiselect', environments, 'prod', 'Value must be a list of choices.'],
      ['an unknown choice among known ones', environments, ['prod', 'qa'], 'Invalid choice (qa). Available choices are: prod, dev'],
      ['a number among choices', environments, ['prod', 3], 'Invalid choice (3). Available choices are: prod, dev'],
    ])('%s', (_description, field, value, problem) => {
      expect(customFieldProblem(field, value)).toBe(problem);
    });
  });

  describe('object and multiobject', () => {
    const LIST = 'Value must be a list of object IDs.';

    it.each<Case>([
      ['an object ID', customField('object'), 7, undefined],
      ['an ID as a string', customField('object'), '7', 'Value must be an object ID.'],
      ['an ID of 0', customField('object'), 0, 'Value must be an object ID.'],
      ['a negative ID', customField('object'), -7, 'Value must be an object ID.'],
      ['a fractional ID', customField('object'), 7.5, 'Value must be an object ID.'],
      ['a nested object', customField('object'), { id: 7 }, 'Value must be an object ID.'],
      ['object IDs', customField('multiobject'), [7, 8], undefined],
      ['an empty list of IDs', customField('multiobject'), [], undefined],
      ['a bare ID for multiobject', customField('multiobject'), 7, LIST],
      ['a string among IDs', customField('multiobject'), [7, '8'], LIST],
      ['0 among IDs', customField('multiobject'), [7, 0], LIST],
    ])('%s', (_description, field, value, problem) => {
      expect(customFieldProblem(field, value)).toBe(problem);
    });
  });

  it('names an unsupported type', () => {
    expect(customFieldProblem(customField('geometry'), 'POINT(0 0)')).toBe('Unsupported custom field type geometry.');
  });
});
