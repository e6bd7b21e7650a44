import { graphql, GraphQLInt } from 'graphql';
import { ConcurrencyLimit } from './concurrency-limit';
import { buildGraphqlSchema, GraphqlContext } from './graphql-schema.factory';

describe('buildGraphqlSchema', () => {
  it("resolves a request's root fields at most its root-field limit at a time", async () => {
    let running = 0;
    let mostRunning = 0;
    const slowField = {
      type: GraphQLInt,
      resolve: async () => {
        running += 1;
        mostRunning = Math.max(mostRunning, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return 1;
      },
    };
    const schema = buildGraphqlSchema([], [() => ({ slow: slowField })]);
    const aliases = Array.from({ length: 8 }, (_, index) => `s${index}: slow`).join(' ');
    const contextValue = { rootFields: new ConcurrencyLimit(3) } as Partial<GraphqlContext>;
    const result = await graphql({ schema, source: `{ ${aliases} }`, contextValue });
    expect(result.errors).toBeUndefined();
    expect(Object.values(result.data ?? {})).toEqual(Array.from({ length: 8 }, () => 1));
    expect(mostRunning).toBe(3);
  });
});
