import { evaluateCondition, validateCondition } from './event-condition';

// A site as the REST API serializes it.
const site = {
  id: 1,
  name: 'edge-1',
  asn: 65001,
  latitude: 52.5,
  mark_connected: false,
  status: { value: 'active', label: 'Active' },
  tenant: null,
  description: '',
  tags: [
    { id: 1, slug: 'core', name: 'Core' },
    { id: 2, slug: 'lab', name: 'Lab' },
  ],
  custom_fields: { priority: 3, owner: 'noc', enabled: true, contacts: ['ops', 'noc'] },
  asns: [64512, 64513],
};

describe('evaluateCondition', () => {
  describe('operators', () => {
    const cases: Array<[string, object, boolean]> = [
      ['eq by default', { attr: 'status.value', value: 'active' }, true],
      ['eq, different string', { attr: 'status.value', op: 'eq', value: 'planned' }, false],
      ['eq, number', { attr: 'id', value: 1 }, true],
      ['eq, int and float are equal', { attr: 'custom_fields.priority', value: 3.0 }, true],
      ['eq, booleans are the integers 0 and 1 (Python)', { attr: 'custom_fields.enabled', value: 1 }, true],
      ['eq, string is not a number', { attr: 'id', value: '1' }, false],
      ['eq null', { attr: 'tenant', value: null }, true],
      ['eq null, non-null attribute', { attr: 'status', value: null }, false],
      ['eq list, same elements', { attr: 'asns', value: [64512, 64513] }, true],
      ['eq list, other order', { attr: 'asns', value: [64513, 64512] }, false],
      ['eq list of values mapped across a list', { attr: 'tags.slug', value: ['core', 'lab'] }, true],
      ['gt', { attr: 'asn', op: 'gt', value: 65000 }, true],
      ['gt, equal', { attr: 'asn', op: 'gt', value: 65001 }, false],
      ['gte, equal', { attr: 'asn', op: 'gte', value: 65001 }, true],
      ['gte, float', { attr: 'latitude', op: 'gte', value: 52.6 }, false],
      ['lt', { attr: 'asn', op: 'lt', value: 65001 }, false],
      ['lt, float', { attr: 'latitude', op: 'lt', value: 60 }, true],
      ['lte, equal', { attr: 'asn', op: 'lte', value: 65001 }, true],
      ['gt on a boolean (False is 0)', { attr: 'mark_connected', op: 'gt', value: -1 }, true],
      ['in', { attr: 'status.value', op: 'in', value: ['planned', 'active'] }, true],
      ['in, absent', { attr: 'status.value', op: 'in', value: ['planned'] }, false],
      ['in, numbers', { attr: 'custom_fields.priority', op: 'in', value: [1, 2, 3] }, true],
      ['in, empty list', { attr: 'id', op: 'in', value: [] }, false],
      ['contains, substring', { attr: 'name', op: 'contains', value: 'dge' }, true],
      ['contains, not a substring', { attr: 'name', op: 'contains', value: 'core' }, false],
      ['contains, empty substring', { attr: 'description', op: 'contains', value: '' }, true],
      ['contains, tag slug in a list attribute', { attr: 'tags.slug', op: 'contains', value: 'core' }, true],
      ['contains, tag slug absent', { attr: 'tags.slug', op: 'contains', value: 'spine' }, false],
      ['contains, number in a list', { attr: 'tags.id', op: 'contains', value: 2 }, true],
      ['contains, custom field list', { attr: 'custom_fields.contacts', op: 'contains', value: 'ops' }, true],
      ['contains, key of an object', { attr: 'custom_fields', op: 'contains', value: 'owner' }, true],
      ['contains, missing key of an object', { attr: 'custom_fields', op: 'contains', value: 'site' }, false],
      ['contains, number among string keys', { attr: 'custom_fields', op: 'contains', value: 1 }, false],
      ['regex', { attr: 'name', op: 'regex', value: '^edge-\\d+$' }, true],
      ['regex anchors at the start like re.match', { attr: 'name', op: 'regex', value: 'dge' }, false],
      ['regex without $ matches a prefix', { attr: 'name', op: 'regex', value: 'edge' }, true],
      ['regex with a leading Python inline flag', { attr: 'name', op: 'regex', value: '(?i)EDGE-1' }, true],
      ['regex, case-sensitive by default', { attr: 'name', op: 'regex', value: 'EDGE-1' }, false],
      ['custom field path', { attr: 'custom_fields.priority', op: 'gte', value: 3 }, true],
      ['custom field string', { attr: 'custom_fields.owner', value: 'noc' }, true],
    ];

    it.each(cases)('%s', (_name, condition, expected) => {
      expect(validateCondition(condition)).toEqual([]);
      expect(evaluateCondition(condition, site)).toBe(expected);
      expect(evaluateCondition({ ...condition, negate: true }, site)).toBe(!expected);
      expect(evaluateCondition({ and: [condition] }, site)).toBe(expected);
    });
  });

  describe('condition sets', () => {
    const active = { attr: 'status.value', value: 'active' };
    const planned = { attr: 'status.value', value: 'planned' };
    const cases: Array<[string, object, boolean]> = [
      ['and, all true', { and: [active, { attr: 'tags.slug', op: 'contains', value: 'core' }] }, true],
      ['and, one false', { and: [active, planned] }, false],
      ['or, one true', { or: [planned, active] }, true],
      ['or, none true', { or: [planned, { ...active, negate: true }] }, false],
      ['nested', { and: [active, { or: [planned, { attr: 'asn', op: 'gt', value: 65000 }] }] }, true],
      ['nested, inner false', { or: [planned, { and: [active, { attr: 'asn', op: 'lt', value: 0 }] }] }, false],
      ['negated member', { and: [active, { ...planned, negate: true }] }, true],
      ['and of nothing (Python all)', { and: [] }, true],
      ['or of nothing (Python any)', { or: [] }, false],
      ['a bare condition at the top level', active, true],
    ];

    it.each(cases)('%s', (_name, condition, expected) => {
      expect(validateCondition(condition)).toEqual([]);
      expect(evaluateCondition(condition, site)).toBe(expected);
    });

    it.each([null, undefined, {}])('treats %p as no condition: always true', (condition) => {
      expect(validateCondition(condition)).toEqual([]);
      expect(evaluateCondition(condition, site)).toBe(true);
    });
  });

  describe('conditions that cannot be evaluated make the whole rule false, as in NetBox 4', () => {
    const cases: Array<[string, object, RegExp]> = [
      ['missing attribute', { attr: 'facility', value: 'x' }, /"facility" not found in the data \("facility" is missing\)/],
      ['missing attribute, negated', { attr: 'facility', value: 'x', negate: true }, /"facility" not found/],
      ['missing custom field', { attr: 'custom_fields.rack_count', op: 'gt', value: 1 }, /"rack_count" is missing/],
      [
        'null on the way',
        { attr: 'tenant.slug', value: 'acme', negate: true },
        /"tenant.slug" not found in the data \(null before "slug"\)/,
      ],
      [
        'key looked up within a string',
        { attr: 'name.value', value: 'edge-1' },
        /"name.value" cannot be resolved: "value" is looked up within a string/,
      ],
      ['key missing from a list item', { attr: 'tags.color', value: 'red' }, /"tags.color" not found/],
      ['gt on a string', { attr: 'name', op: 'gt', value: 1 }, /"gt" cannot compare the string at "name" with 1/],
      ['lte on null', { attr: 'tenant', op: 'lte', value: 1 }, /"lte" cannot compare the null at "tenant"/],
      ['gt on a list', { attr: 'asns', op: 'gt', value: 1 }, /cannot compare the list/],
      ['regex on a number', { attr: 'asn', op: 'regex', value: '^65' }, /"regex" cannot compare the number at "asn"/],
      ['regex on a list', { attr: 'tags.slug', op: 'regex', value: 'core' }, /cannot compare the list/],
      ['number contained in a string', { attr: 'name', op: 'contains', value: 1 }, /"contains" cannot compare the string at "name" with 1/],
      ['contains on null', { attr: 'tenant', op: 'contains', value: 'a' }, /cannot compare the null/],
      ['contains on a number', { attr: 'asn', op: 'contains', value: 6 }, /cannot compare the number/],
      ['list looked up among object keys', { attr: 'custom_fields', op: 'contains', value: ['owner'] }, /cannot compare the object/],
      [
        'inside "or", before a match',
        {
          or: [
            { attr: 'facility', value: 'x' },
            { attr: 'id', value: 1 },
          ],
        },
        /"facility" not found/,
      ],
    ];

    it.each(cases)('%s', (_name, condition, reason) => {
      const reasons: string[] = [];
      expect(validateCondition(condition)).toEqual([]);
      expect(evaluateCondition(condition, site, (problem) => reasons.push(problem))).toBe(false);
      expect(reasons).toEqual([expect.stringMatching(reason)]);
    });

    it('is never reached when an earlier member decides the set', () => {
      const reasons: string[] = [];
      const condition = {
        or: [
          { attr: 'id', value: 1 },
          { attr: 'facility', value: 'x' },
        ],
      };
      expect(evaluateCondition(condition, site, (problem) => reasons.push(problem))).toBe(true);
      expect(
        evaluateCondition(
          {
            and: [
              { attr: 'id', value: 2 },
              { attr: 'facility', value: 'x' },
            ],
          },
          site,
        ),
      ).toBe(false);
      expect(reasons).toEqual([]);
    });

    it('maps a key across an empty list to an empty list', () => {
      const untagged = { ...site, tags: [] };
      expect(evaluateCondition({ attr: 'tags.slug', value: [] }, untagged)).toBe(true);
      expect(evaluateCondition({ attr: 'tags.slug', op: 'contains', value: 'core', negate: true }, untagged)).toBe(true);
    });

    it('is false, with the problems as the reason, for an invalid condition', () => {
      const reasons: string[] = [];
      expect(evaluateCondition({ attr: 'id', op: 'like', value: 1 }, site, (problem) => reasons.push(problem))).toBe(false);
      expect(reasons).toEqual(['invalid condition: unknown operator "like"; use one of eq, gt, gte, lt, lte, in, contains, regex']);
    });
  });
});

describe('validateCondition', () => {
  const cases: Array<[string, unknown, string[]]> = [
    ['not an object', 'status == active', ['expected a condition or a condition set (a JSON object), got string']],
    ['a list', [{ attr: 'id', value: 1 }], ['expected a condition or a condition set (a JSON object), got list']],
    [
      'unknown operator',
      { attr: 'id', op: 'ne', value: 1 },
      ['unknown operator "ne"; use one of eq, gt, gte, lt, lte, in, contains, regex'],
    ],
    [
      'snapshot operators of newer NetBox',
      { attr: 'status', op: 'changed', value: true },
      ['unknown operator "changed"; use one of eq, gt, gte, lt, lte, in, contains, regex'],
    ],
    ['missing value', { attr: 'id' }, ['"value" is required']],
    ['null operator', { attr: 'id', op: null, value: 1 }, ['unknown operator null; use one of eq, gt, gte, lt, lte, in, contains, regex']],
    ['missing attr', { value: 1 }, ['"attr" is required']],
    ['attr not a string', { attr: 1, value: 1 }, ['"attr" must be a string, got number']],
    [
      'attr with an empty key',
      { attr: 'status..value', value: 1 },
      ['"attr" must be a dotted path such as "status.value", got "status..value"'],
    ],
    ['negate not a boolean', { attr: 'id', value: 1, negate: 'yes' }, ['"negate" must be true or false, got string']],
    [
      'unknown key',
      { attr: 'id', value: 1, operator: 'eq' },
      ['unknown key(s) "operator"; a condition has "attr", "value", "op" and "negate"'],
    ],
    ['in needs a list', { attr: 'id', op: 'in', value: 1 }, ['the "in" operator needs a list value, got number']],
    ['regex needs a string', { attr: 'id', op: 'regex', value: 1 }, ['the "regex" operator needs a string value, got number']],
    ['gt needs a number', { attr: 'id', op: 'gt', value: '1' }, ['the "gt" operator needs a number value, got string']],
    ['gt does not take a boolean', { attr: 'id', op: 'gt', value: true }, ['the "gt" operator needs a number value, got boolean']],
    [
      'contains does not take null',
      { attr: 'id', op: 'contains', value: null },
      ['the "contains" operator needs a string, boolean, number or list value, got null'],
    ],
    [
      'object value',
      { attr: 'status', value: { value: 'active' } },
      ['"value" must be a string, number, boolean, list or null, got object'],
    ],
    ['invalid regex', { attr: 'name', op: 'regex', value: '(' }, [expect.stringMatching(/^"value" is not a valid regular expression: /)]],
    [
      'Python named group',
      { attr: 'name', op: 'regex', value: '(?P<site>edge)' },
      [expect.stringMatching(/not a valid regular expression/)],
    ],
    [
      'negated set',
      { and: [{ attr: 'id', value: 1 }], negate: true },
      [
        'a condition set has exactly one key, "and" or "or" (found "and", "negate"); sets cannot be negated, negate their conditions instead',
      ],
    ],
    ['both logical operators', { and: [], or: [] }, ['a condition set has exactly one key, "and" or "or" (found "and", "or")']],
    ['uppercase operator', { AND: [] }, ['write the logical operator "AND" in lowercase: "and"']],
    ['set of a non-list', { and: { attr: 'id', value: 1 } }, ['"and" must be a list of conditions, got object']],
    [
      'nested problems with their location',
      { and: [{ attr: 'id', value: 1 }, { or: [{ attr: 'id', op: 'gte', value: 'x' }, 'id'] }] },
      [
        'and[1].or[0]: the "gte" operator needs a number value, got string',
        'and[1].or[1]: expected a condition or a condition set (a JSON object), got string',
      ],
    ],
    [
      'several problems in one condition',
      { op: 'in', value: 'a', negate: 0 },
      ['"attr" is required', '"negate" must be true or false, got number', 'the "in" operator needs a list value, got string'],
    ],
  ];

  it.each(cases)('%s', (_name, condition, problems) => {
    expect(validateCondition(condition)).toEqual(problems);
  });
});
