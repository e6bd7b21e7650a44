import { getIntrospectionQuery } from 'graphql';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { PASSWORD } from './support/api-client';
import { PlatformClient, provisionToken } from './support/platform-client';
import { SeededApp, startSeededApp } from './support/seeded-app';

/** The platform's GraphQL API: same data as REST, permission-restricted, batched, limited. */
describe('platform GraphQL', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let user: PlatformClient;
  let tenantIds: number[];

  const graphql = (client: PlatformClient, query: string, variables?: Record<string, unknown>) =>
    client.post('/graphql/', { query, variables });

  beforeAll(async () => {
    seeded = await startSeededApp();
    const { api, w, testApp } = seeded;
    root = new PlatformClient(testApp.baseUrl, await provisionToken(api, w.root.username, PASSWORD));
    user = new PlatformClient(testApp.baseUrl, await provisionToken(api, w.user1.username, PASSWORD));
    const tags = await root.post('/api/extras/tags/', [
      { name: 'Gold', slug: 'gold' },
      { name: 'Core', slug: 'core' },
    ]);
    expect(tags.status).toBe(201);
    const tenants = await root.post(
      '/api/tenancy/tenants/',
      Array.from({ length: 5 }, (_, index) => ({ name: `Tenant ${index}`, slug: `tenant-${index}` })),
    );
    expect(tenants.status).toBe(201);
    tenantIds = (tenants.body as Array<{ id: number }>).map((tenant) => tenant.id);
    const sites = await root.post(
      '/api/dcim/sites/',
      Array.from({ length: 110 }, (_, index) => ({
        name: `site-${String(index).padStart(3, '0')}`,
        slug: `site-${index}`,
        status: index % 2 === 0 ? 'active' : 'planned',
        tenant: tenantIds[index % tenantIds.length],
        tags: index % 3 === 0 ? [{ slug: 'gold' }, { slug: 'core' }] : [],
      })),
    );
    expect(sites.status).toBe(201);
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it('answers a filtered list with nested related objects exactly as the REST API does', async () => {
    const rest = await root.get('/api/dcim/sites/?status=active&tenant_id=' + tenantIds[1] + '&limit=1000');
    expect(rest.status).toBe(200);
    const response = await graphql(
      root,
      `
        query ($tenant: FilterValue) {
          site_list(filters: { status: "active", tenant_id: $tenant }, pagination: { limit: 1000 }) {
            id
            name
            slug
            status
            display
            tenant {
              id
              name
              slug
            }
            tags {
              name
              slug
              color
            }
            custom_fields
            created
            last_updated
          }
        }
      `,
      { tenant: [String(tenantIds[1])] },
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.status).toBe(200);
    const fromRest = (rest.body.results as Array<Record<string, any>>).map((site) => ({
      id: String(site.id),
      name: site.name,
      slug: site.slug,
      status: site.status.value,
      display: site.display,
      tenant: { id: String(site.tenant.id), name: site.tenant.name, slug: site.tenant.slug },
      tags: site.tags.map((tag: Record<string, unknown>) => ({ name: tag.name, slug: tag.slug, color: tag.color })),
      custom_fields: site.custom_fields,
      created: site.created,
      last_updated: site.last_updated,
    }));
    expect(fromRest.length).toBeGreaterThan(0);
    expect(response.body.data.site_list).toEqual(fromRest);
  });

  it('runs a bounded number of SQL statements for 100 objects with a relation and tags (no N+1)', async () => {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, applied to each runner by the spy below
    const query = PostgresQueryRunner.prototype.query;
    const statements: string[] = [];
    const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (this: PostgresQueryRunner, ...args) {
      statements.push(String(args[0]));
      return query.apply(this, args);
    });
    try {
      const response = await graphql(root, '{ site_list(pagination: { limit: 100 }) { id name tenant { id name } tags { slug } } }');
      expect(response.status).toBe(200);
      expect(response.body.data.site_list).toHaveLength(100);
      expect(response.body.data.site_list.every((site: { tenant: unknown }) => site.tenant !== null)).toBe(true);
    } finally {
      spy.mockRestore();
    }
    // Token lookup (and at most a last-used write), the page, one batch of tenants, one of tags.
    expect(statements.length).toBeLessThanOrEqual(6);
    expect(statements.filter((sql) => sql.includes('tenancy_tenant')).length).toBe(1);
  });

  it('returns one object by id and null for an unknown id', async () => {
    const list = await root.get('/api/dcim/sites/?name=site-007');
    const id = list.body.results[0].id as number;
    const response = await graphql(root, `{ site(id: ${id}) { name status } missing: site(id: 999999) { name } }`);
    expect(response.body.data).toEqual({ site: { name: 'site-007', status: 'planned' }, missing: null });
  });

  it('restricts every query to what the caller may view', async () => {
    expect((await graphql(user, '{ site_list { id } }')).body.data.site_list).toEqual([]);
    const permission = await root.post('/api/users/permissions/', {
      name: 'view active sites',
      object_types: ['dcim.site'],
      actions: ['view'],
      constraints: { status: 'active' },
      users: [seeded.w.user1.id],
    });
    expect(permission.status).toBe(201);
    const response = await graphql(user, '{ site_list(pagination: { limit: 1000 }) { name status tenant { name } } }');
    expect(response.body.data.site_list).toHaveLength(55);
    expect(response.body.data.site_list.every((site: { status: string }) => site.status === 'active')).toBe(true);
    // Tenants are not viewable by this user: the relation resolves to null rather than leaking.
    expect(response.body.data.site_list.every((site: { tenant: unknown }) => site.tenant === null)).toBe(true);
  });

  it('refuses requests without credentials with 403, like the REST API', async () => {
    const response = await graphql(root.as(undefined), '{ site_list { id } }');
    expect(response.status).toBe(403);
    expect(response.body.errors[0].message).toBe('Authentication credentials were not provided.');
    expect(response.text).not.toContain('stacktrace');
  });

  it('rejects a query whose list sizes multiply beyond the complexity limit', async () => {
    const response = await graphql(
      root,
      '{ tenant_list(pagination: { limit: 1000 }) { group { name } tags { slug } a: tags { slug } b: tags { slug } c: tags { slug } d: tags { slug } e: tags { slug } f: tags { slug } g: tags { slug } h: tags { slug } i: tags { slug } j: tags { slug } } }',
    );
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toMatch(/complexity/i);
  });

  it('refuses 1 500 aliases of the schema introspection from a user without permissions, at once and in a few bytes', async () => {
    // Answering them would cost 1 500 introspections; the refusal must cost a few at most.
    const oneStarted = Date.now();
    expect((await graphql(user, getIntrospectionQuery())).status).toBe(200);
    const oneIntrospectionMs = Date.now() - oneStarted;
    const query = `{ ${Array.from({ length: 1500 }, (_, index) => `s${index}: __schema { types { fields { name } } }`).join(' ')} }`;
    const started = Date.now();
    const response = await graphql(user, query);
    const ms = Date.now() - started;
    expect({ status: response.status, message: response.body.errors?.[0]?.message }).toEqual({
      status: 400,
      message: 'The operation selects 1500 root fields (aliases included); the limit is 100',
    });
    expect(response.text.length).toBeLessThan(2000);
    expect(ms).toBeLessThan(Math.max(3000, 20 * oneIntrospectionMs));
  });

  it('refuses an operation of 101 root fields with 400, and answers one of 100', async () => {
    const aliases = (count: number) =>
      `{ ${Array.from({ length: count }, (_, index) => `s${index}: site(id: ${index + 1}) { id }`).join(' ')} }`;
    const over = await graphql(root, aliases(101));
    expect({ status: over.status, message: over.body.errors?.[0]?.message }).toEqual({
      status: 400,
      message: 'The operation selects 101 root fields (aliases included); the limit is 100',
    });
    const at = await graphql(root, aliases(100));
    expect(at.body.errors).toBeUndefined();
    expect(at.status).toBe(200);
    expect(Object.keys(at.body.data)).toHaveLength(100);
  });

  it('costs a page size given in a variable: 100 aliases of a 1000-object page are refused before anything runs', async () => {
    const aliases = Array.from({ length: 100 }, (_, index) => `s${index}: site_list(pagination: $p) { id name }`).join(' ');
    const response = await graphql(root, `query ($p: OffsetPaginationInput) { ${aliases} }`, { p: { limit: 1000 } });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { errors: [{ message: 'Query complexity 200100 exceeds the maximum of 100000', extensions: { code: 'QUERY_TOO_COMPLEX' } }] },
    });
    // The same variable with a small page is a normal query.
    const small = await graphql(root, `query ($p: OffsetPaginationInput) { ${aliases} }`, { p: { limit: 2 } });
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data.s99).toHaveLength(2);
  });

  it('answers the full introspection query, and refuses the schema repeated in aliases', async () => {
    const full = await graphql(user, getIntrospectionQuery());
    expect(full.body.errors).toBeUndefined();
    expect(full.status).toBe(200);
    expect(full.body.data.__schema.types.length).toBeGreaterThan(100);
    const repeated = `{ ${Array.from({ length: 100 }, (_, index) => `s${index}: __schema { types { inputFields { name type { name } } } }`).join(' ')} }`;
    const response = await graphql(user, repeated);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toMatch(/^Introspection complexity \d+ exceeds the maximum of \d+$/);
    expect(response.text.length).toBeLessThan(2000);
  });

  it('rejects queries over the depth limit and has no mutations', async () => {
    const deep = await graphql(
      root,
      '{ tenant_list { group { parent { parent { parent { parent { parent { parent { parent { parent { parent { name } } } } } } } } } } } }',
    );
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].message).toMatch(/Query depth \d+ exceeds the maximum of 10/);
    const mutation = await graphql(root, 'mutation { site(id: 1) { id } }');
    expect(mutation.body.errors[0].message).toMatch(/not configured to execute mutation/i);
  });

  it('offers the declaration-level filters too (region tree, prefix containment)', async () => {
    const parent = await root.post('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
    const child = await root.post('/api/dcim/regions/', { name: 'Benelux', slug: 'benelux', parent: parent.body.id });
    const site = (await root.get('/api/dcim/sites/?name=site-001')).body.results[0];
    expect((await root.patch(`/api/dcim/sites/${site.id}/`, { region: child.body.id })).status).toBe(200);
    const response = await graphql(root, '{ site_list(filters: { region: "europe" }) { name region { slug } } }');
    expect(response.body.data.site_list).toEqual([{ name: 'site-001', region: { slug: 'benelux' } }]);
    await root.post('/api/ipam/prefixes/', [{ prefix: '10.0.0.0/8' }, { prefix: '10.1.0.0/16' }, { prefix: '192.168.0.0/16' }]);
    const prefixes = await graphql(root, '{ prefix_list(filters: { contains: "10.1.2.3" }) { prefix } }');
    expect(prefixes.body.errors).toBeUndefined();
    expect(prefixes.body.data.prefix_list).toEqual([{ prefix: '10.0.0.0/8' }, { prefix: '10.1.0.0/16' }]);
  });

  it('rejects an unknown filter value of a choice field with a clear message', async () => {
    const response = await graphql(root, '{ site_list(filters: { status: "bogus" }) { id } }');
    expect(response.body.data).toBeNull();
    expect(response.body.errors[0].message).toContain('bogus is not one of the available choices');
  });

  it('serves the explorer page and its assets from this origin', async () => {
    const page = await fetch(`${seeded.testApp.baseUrl}/graphiql/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset.startsWith('/graphiql/static/')).toBe(true);
      const response = await fetch(`${seeded.testApp.baseUrl}${asset}`);
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });

  it('opens the explorer with an Authorization header to complete and a default query that works once it is', async () => {
    const html = await (await fetch(`${seeded.testApp.baseUrl}/graphiql/`)).text();
    const literal = (prop: string): string => JSON.parse(new RegExp(`${prop}: ("(?:[^"\\\\]|\\\\.)*"),`).exec(html)![1]) as string;
    const headers = JSON.parse(literal('defaultHeaders')) as Record<string, string>;
    expect(headers).toEqual({ Authorization: 'Token <your token>' });
    const query = literal('defaultQuery');
    expect(query).toMatch(/^# .*token/);
    // Where a token comes from is said once, in the hint line above the explorer.
    expect(html).toContain('POST /api/users/tokens/provision/ gives one');

    // As it stands, the placeholder is refused; with a real token in its place the query answers.
    const asIs = await fetch(`${seeded.testApp.baseUrl}/graphql/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query }),
    });
    expect(asIs.status).toBe(403);
    const completed = await fetch(`${seeded.testApp.baseUrl}/graphql/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Authorization: headers.Authorization.replace('<your token>', root.token!) },
      body: JSON.stringify({ query }),
    });
    const body = (await completed.json()) as { data: { site_list: Array<{ id: string; name: string }> }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data.site_list).toHaveLength(5);
  });
});
