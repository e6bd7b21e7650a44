import { buildSchema, getIntrospectionQuery, parse, specifiedRules, validate, ValidationRule } from 'graphql';
import { maxComplexityRule, maxDepthRule } from './query-limits';

const schema = buildSchema(`
  input OffsetPaginationInput { offset: Int = 0, limit: Int }

  interface Node { id: ID! }

  type Region implements Node { id: ID!, name: String!, parent: Region }

  type Site implements Node {
    id: ID!
    name: String!
    tags: [String!]!
    region: Region
    devices(pagination: OffsetPaginationInput): [Device!]!
  }

  type Device implements Node { id: ID!, name: String, site: Site! }

  union SearchResult = Site | Device

  type Query {
    site(id: ID!): Site
    site_list(pagination: OffsetPaginationInput): [Site!]!
    node(id: ID!): Node
    search(q: String!): [SearchResult!]!
  }
`);

/** Messages from `rule` alone, after checking the test document itself is a valid one. */
function messages(query: string, rule: ValidationRule): string[] {
  const document = parse(query);
  expect(validate(schema, document, specifiedRules)).toEqual([]);
  return validate(schema, document, [rule]).map((error) => error.message);
}

describe('maxDepthRule', () => {
  const fourDeep = '{ site(id: 1) { region { parent { name } } } }';

  it('passes a query at the limit', () => {
    expect(messages(fourDeep, maxDepthRule(4))).toEqual([]);
  });

  it('rejects a query one level too deep', () => {
    expect(messages(fourDeep, maxDepthRule(3))).toEqual(['Query depth 4 exceeds the maximum of 3']);
  });

  it('counts through nested fragment spreads', () => {
    const query = `
      { site(id: 1) { ...SiteRegion } }
      fragment SiteRegion on Site { region { ...RegionParent } }
      fragment RegionParent on Region { parent { parent { name } } }
    `;
    expect(messages(query, maxDepthRule(5))).toEqual([]);
    expect(messages(query, maxDepthRule(4))).toEqual(['Query depth 5 exceeds the maximum of 4']);
  });

  it('counts through inline fragments', () => {
    const query = '{ node(id: 1) { ... on Site { region { parent { name } } } } }';
    expect(messages(query, maxDepthRule(3))).toEqual(['Query depth 4 exceeds the maximum of 3']);
  });

  it('reports the deepest branch, not the first', () => {
    const query = '{ site(id: 1) { name } node(id: 2) { ... on Region { parent { parent { name } } } } }';
    expect(messages(query, maxDepthRule(3))).toEqual(['Query depth 4 exceeds the maximum of 3']);
  });

  it('reports each operation of a document on its own', () => {
    const query = `
      query Shallow { site(id: 1) { name } }
      query Deep { site(id: 1) { region { parent { name } } } }
    `;
    expect(messages(query, maxDepthRule(3))).toEqual(['Query depth 4 exceeds the maximum of 3']);
  });

  it("passes GraphiQL's introspection query with maxDepth 10", () => {
    expect(messages(getIntrospectionQuery(), maxDepthRule(10))).toEqual([]);
  });

  it('ignores top-level introspection, also inside a fragment spread at the root', () => {
    const query = `
      { __typename ...Schema site(id: 1) { name } }
      fragment Schema on Query { __schema { types { fields { type { ofType { name } } } } } }
    `;
    expect(messages(query, maxDepthRule(2))).toEqual([]);
  });

  it('counts __typename below the top level like any other field', () => {
    expect(messages('{ site(id: 1) { region { __typename } } }', maxDepthRule(2))).toEqual(['Query depth 3 exceeds the maximum of 2']);
  });

  it('terminates on a fragment cycle, which the specified rules report', () => {
    const document = parse(`
      { site(id: 1) { ...SiteRegion } }
      fragment SiteRegion on Site { region { ...Parents } }
      fragment Parents on Region { parent { ...Parents } }
    `);
    expect(validate(schema, document, [maxDepthRule(10)])).toEqual([]);
  });
});

describe('maxComplexityRule', () => {
  const listMultiplier = 10;
  const complexity = (query: string, variableValues?: Record<string, unknown>): string[] =>
    messages(query, maxComplexityRule(0, listMultiplier, variableValues));

  // With a maximum of 0 every non-free query is reported, and the message carries its cost.
  it.each([
    ['one object field with scalars', '{ site(id: 1) { name region { name } } }', 4],
    ['a scalar list, which has nothing to multiply', '{ site(id: 1) { tags } }', 2],
    ['a list without a limit, by listMultiplier', '{ site_list { name } }', 11],
    ['a list with a literal limit', '{ site_list(pagination: { limit: 5 }) { name } }', 6],
    ['a limit of 0, which bounds nothing', '{ site_list(pagination: { limit: 0 }) { name } }', 11],
    [
      'nested lists, each by its own limit',
      '{ site_list(pagination: { limit: 5 }) { name devices(pagination: { limit: 3 }) { name } } }',
      26,
    ],
    [
      'a fragment spread, once per use',
      '{ a: site(id: 1) { ...SiteFields } b: site(id: 2) { ...SiteFields } } fragment SiteFields on Site { name region { name } }',
      8,
    ],
    [
      'a fragment spread under a list',
      '{ site_list(pagination: { limit: 2 }) { ...SiteFields } } fragment SiteFields on Site { name region { name } }',
      7,
    ],
    ['inline fragments on union members', '{ search(q: "a") { ... on Site { name } ... on Device { id } } }', 21],
  ])('costs %s', (_description, query, cost) => {
    expect(complexity(query)).toEqual([`Query complexity ${cost} exceeds the maximum of 0`]);
  });

  it('passes a query at the limit and rejects it one below', () => {
    const query = '{ site_list(pagination: { limit: 5 }) { name devices(pagination: { limit: 3 }) { name } } }';
    expect(messages(query, maxComplexityRule(26, listMultiplier))).toEqual([]);
    expect(messages(query, maxComplexityRule(25, listMultiplier))).toEqual(['Query complexity 26 exceeds the maximum of 25']);
  });

  it('counts a variable-valued limit as listMultiplier when the variables are not given', () => {
    const query = 'query Sites($limit: Int) { site_list(pagination: { limit: $limit }) { name } }';
    expect(complexity(query)).toEqual(['Query complexity 11 exceeds the maximum of 0']);
  });

  it('reads a variable-valued limit from the variables when given', () => {
    const limitVariable = 'query Sites($limit: Int) { site_list(pagination: { limit: $limit }) { name } }';
    expect(complexity(limitVariable, { limit: 2 })).toEqual(['Query complexity 3 exceeds the maximum of 0']);

    const paginationVariable = 'query Sites($page: OffsetPaginationInput) { site_list(pagination: $page) { name } }';
    expect(complexity(paginationVariable)).toEqual(['Query complexity 11 exceeds the maximum of 0']);
    expect(complexity(paginationVariable, { page: { limit: 4 } })).toEqual(['Query complexity 5 exceeds the maximum of 0']);
    expect(complexity(paginationVariable, { page: { offset: 4 } })).toEqual(['Query complexity 11 exceeds the maximum of 0']);
  });

  it('makes introspection free', () => {
    expect(messages(getIntrospectionQuery(), maxComplexityRule(0, listMultiplier))).toEqual([]);
    expect(messages('{ __typename site(id: 1) { __typename } }', maxComplexityRule(1, listMultiplier))).toEqual([]);
  });

  it('terminates on a fragment cycle, which the specified rules report', () => {
    const document = parse(`
      { site(id: 1) { ...SiteRegion } }
      fragment SiteRegion on Site { region { ...Parents } }
      fragment Parents on Region { parent { ...Parents } }
    `);
    expect(validate(schema, document, [maxComplexityRule(100, listMultiplier)])).toEqual([]);
  });
});
