import { ApolloServer } from '@apollo/server';
import { buildSchema } from 'graphql';
import { queryLimitsPlugin } from './query-limits.plugin';

const schema = buildSchema(`
  input OffsetPaginationInput { offset: Int, limit: Int }
  type Site { name: String! }
  type Query { site_list(pagination: OffsetPaginationInput): [Site!]! }
`);

let resolvedLists = 0;

/** A server whose site_list answers `limit` sites named with `nameLength` characters each. */
async function serverWith(limits: { maxCost: number; maxResponseBytes: number }, nameLength = 10) {
  const { plugin, stringifyResult } = queryLimitsPlugin({ ...limits, cost: { listMultiplier: 10, defaultPageSize: 10, maxPageSize: 100 } });
  const server = new ApolloServer({
    schema,
    plugins: [plugin],
    stringifyResult,
    rootValue: {
      site_list: (args: { pagination?: { limit?: number } }) => {
        resolvedLists += 1;
        return Array.from({ length: args.pagination?.limit ?? 10 }, (_, index) => ({ name: String(index).padStart(nameLength, 'x') }));
      },
    },
  });
  await server.start();
  return server;
}

/** Status and body as an HTTP client would see them. */
async function send(server: ApolloServer, query: string, variables?: Record<string, unknown>) {
  const { status, body } = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: {
      method: 'POST',
      headers: new Map([['content-type', 'application/json']]) as never,
      search: '',
      body: { query, variables },
    },
    context: () => Promise.resolve({}),
  });
  if (body.kind !== 'complete') throw new Error('expected a complete body');
  return { status: status ?? 200, body: JSON.parse(body.string) as Record<string, unknown>, text: body.string };
}

describe('queryLimitsPlugin', () => {
  const pageQuery = 'query ($page: OffsetPaginationInput) { site_list(pagination: $page) { name } }';

  it('answers an operation within its limits, serialised as Apollo would', async () => {
    const server = await serverWith({ maxCost: 100, maxResponseBytes: 10_000 });
    const answer = await send(server, pageQuery, { page: { limit: 2 } });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(`${JSON.stringify({ data: { site_list: [{ name: 'xxxxxxxxx0' }, { name: 'xxxxxxxxx1' }] } })}\n`);
    await server.stop();
  });

  it('refuses with 400, before resolving, an operation whose page size in a variable costs too much', async () => {
    const server = await serverWith({ maxCost: 50, maxResponseBytes: 10_000 });
    resolvedLists = 0;
    expect(await send(server, pageQuery, { page: { limit: 60 } })).toMatchObject({
      status: 400,
      body: { errors: [{ message: 'Query complexity 61 exceeds the maximum of 50', extensions: { code: 'QUERY_TOO_COMPLEX' } }] },
    });
    expect(resolvedLists).toBe(0);
    await server.stop();
  });

  it('replaces an answer over the size limit with a 400 error', async () => {
    const server = await serverWith({ maxCost: 1000, maxResponseBytes: 2_000 }, 100);
    const answer = await send(server, pageQuery, { page: { limit: 30 } });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        errors: [
          { message: expect.stringMatching(/^The answer would be \d+ bytes, over the limit of 2000; ask for fewer objects or fields$/) },
        ],
      },
    });
    expect(answer.body).not.toHaveProperty('data');
    expect(answer.text.length).toBeLessThan(500);
    await server.stop();
  });
});
