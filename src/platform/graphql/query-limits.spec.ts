import {
  buildSchema,
  FieldNode,
  getIntrospectionQuery,
  isInterfaceType,
  isObjectType,
  Kind,
  NameNode,
  OperationDefinitionNode,
  parse,
  specifiedRules,
  validate,
  ValidationRule,
} from 'graphql';
import { FULL_INTROSPECTION, introspectionCostLimit, maxDepthRule, maxRootFieldsRule, queryCost, QueryCostOptions } from './query-limits';

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

describe('maxRootFieldsRule', () => {
  const aliases = (count: number) =>
    `{ ${Array.from({ length: count }, (_, index) => `s${index}: site(id: ${index}) { name }`).join(' ')} }`;

  it('passes an operation at the limit and rejects one alias more', () => {
    expect(messages(aliases(3), maxRootFieldsRule(3))).toEqual([]);
    expect(messages(aliases(4), maxRootFieldsRule(3))).toEqual(['The operation selects 4 root fields (aliases included); the limit is 3']);
  });

  it('counts introspection fields and root fields in fragments, and a repeated response key once', () => {
    const query = `
      { __typename __schema { queryType { name } } site(id: 1) { name } site(id: 1) { id } ...More ... on Query { b: site(id: 3) { name } } }
      fragment More on Query { a: site(id: 2) { name } }
    `;
    expect(messages(query, maxRootFieldsRule(5))).toEqual([]);
    expect(messages(query, maxRootFieldsRule(4))).toEqual(['The operation selects 5 root fields (aliases included); the limit is 4']);
  });
});

describe('queryCost', () => {
  const options: QueryCostOptions = { listMultiplier: 10, defaultPageSize: 10, maxPageSize: 1000 };

  /** The cost of a valid document's only operation. */
  function cost(query: string, variables: Record<string, unknown> = {}, costOptions = options) {
    const document = parse(query);
    expect(validate(schema, document, specifiedRules)).toEqual([]);
    const operation = document.definitions.find(
      (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
    )!;
    return queryCost(schema, document, operation, variables, costOptions);
  }

  it.each([
    ['one object field with scalars', '{ site(id: 1) { name region { name } } }', 4],
    ['a scalar list, which has nothing to multiply', '{ site(id: 1) { tags } }', 2],
    ['a paginated list without a limit, by the default page size', '{ site_list { name } }', 11],
    ['a list with a literal limit', '{ site_list(pagination: { limit: 5 }) { name } }', 6],
    ['a limit of 0, which bounds nothing', '{ site_list(pagination: { limit: 0 }) { name } }', 11],
    ['a limit past the largest page, as the largest page', '{ site_list(pagination: { limit: 5000 }) { name } }', 1001],
    [
      'nested lists, each by its own limit',
      '{ site_list(pagination: { limit: 5 }) { name devices(pagination: { limit: 3 }) { name } } }',
      26,
    ],
    ['a list without pagination, by listMultiplier', '{ search(q: "a") { ... on Site { name } } }', 11],
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
    ['__typename, as any other value', '{ __typename site(id: 1) { __typename } }', 3],
  ])('costs %s', (_description, query, expected) => {
    expect(cost(query)).toEqual({ data: expected, introspection: 0 });
  });

  it('uses the default page size of a paginated list, and listMultiplier for the others', () => {
    const costs = { listMultiplier: 10, defaultPageSize: 100, maxPageSize: 1000 };
    expect(cost('{ site_list { name } }', {}, costs).data).toBe(101);
    expect(cost('{ search(q: "a") { ... on Site { name } } }', {}, costs).data).toBe(11);
  });

  it('reads a limit given in variables, capped to the largest page', () => {
    const limitVariable = 'query Sites($limit: Int) { site_list(pagination: { limit: $limit }) { name } }';
    expect(cost(limitVariable, { limit: 2 }).data).toBe(3);
    expect(cost(limitVariable, {}).data).toBe(11);

    const pageVariable = 'query Sites($page: OffsetPaginationInput) { site_list(pagination: $page) { name } }';
    expect(cost(pageVariable, { page: { limit: 4 } }).data).toBe(5);
    expect(cost(pageVariable, { page: { limit: 1000 } }).data).toBe(1001);
    expect(cost(pageVariable, { page: { limit: 100000 } }).data).toBe(1001);
    expect(cost(pageVariable, { page: { offset: 4 } }).data).toBe(11);
  });

  it('multiplies a variable page by every alias that uses it', () => {
    const aliases = Array.from({ length: 100 }, (_, index) => `s${index}: site_list(pagination: $p) { name }`).join(' ');
    expect(cost(`query ($p: OffsetPaginationInput) { ${aliases} }`, { p: { limit: 1000 } }).data).toBe(100 * 1001);
  });

  it('counts introspection apart from data, by what the schema holds', () => {
    const types = Object.values(schema.getTypeMap());
    const fieldCounts = types.map((type) => (isObjectType(type) || isInterfaceType(type) ? Object.keys(type.getFields()).length : 0));
    const mostFields = Math.max(...fieldCounts);
    const averageFields = Math.ceil(fieldCounts.reduce((sum, count) => sum + count, 0) / types.length);
    expect(cost('{ __schema { types { name } } }')).toEqual({ data: 0, introspection: 2 + types.length });
    // Through `types` a type's fields count their average (the sum over all types is what is returned); one type's, the most.
    expect(cost('{ __schema { types { fields { name } } } }')).toEqual({ data: 0, introspection: 2 + types.length * (1 + averageFields) });
    expect(cost('{ __type(name: "Site") { fields { name } } }')).toEqual({ data: 0, introspection: 2 + mostFields });
    expect(cost('{ site(id: 1) { name } __type(name: "Site") { name } }')).toEqual({ data: 2, introspection: 2 });
  });

  it("allows GraphiQL's introspection query, and not three full introspections in aliases", () => {
    const limit = introspectionCostLimit(schema, options);
    expect(cost(getIntrospectionQuery()).introspection).toBeLessThanOrEqual(limit);
    const full = parse(getIntrospectionQuery(FULL_INTROSPECTION));
    const operation = full.definitions[0] as OperationDefinitionNode;
    const schemaField = operation.selectionSet.selections[0] as FieldNode;
    const aliased = ['a', 'b', 'c'].map((alias) => ({ ...schemaField, alias: { kind: Kind.NAME, value: alias } as NameNode }));
    const tripled = {
      ...full,
      definitions: [{ ...operation, selectionSet: { ...operation.selectionSet, selections: aliased } }, ...full.definitions.slice(1)],
    };
    const tripledOperation = tripled.definitions[0] as OperationDefinitionNode;
    expect(validate(schema, tripled, specifiedRules)).toEqual([]);
    expect(queryCost(schema, tripled, tripledOperation, {}, options).introspection).toBeGreaterThan(limit);
  });

  it('terminates on a fragment cycle', () => {
    const document = parse(`
      { site(id: 1) { ...SiteRegion } }
      fragment SiteRegion on Site { region { ...Parents } }
      fragment Parents on Region { parent { ...Parents } }
    `);
    const operation = document.definitions[0] as OperationDefinitionNode;
    expect(queryCost(schema, document, operation, {}, options).data).toBeGreaterThan(0);
  });
});
