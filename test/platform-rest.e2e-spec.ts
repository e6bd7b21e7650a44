import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ApiClient, PASSWORD } from './support/api-client';
import { PlatformClient, provisionToken } from './support/platform-client';
import { startSeededApp, World } from './support/seeded-app';
import { TestApp } from './support/test-app';
import { AVAILABLE_PLUGINS } from '../src/plugins';

/**
 * The NetBox 4.x-style REST API of the platform (`/api/…`), end to end: list envelope and
 * pagination, filter lookups, brief and full representations, bulk writes (atomic), validation and
 * error bodies, tags and custom fields. Database state is checked directly.
 */

const SITES = '/api/dcim/sites/';
const TENANTS = '/api/tenancy/tenants/';
const TENANT_GROUPS = '/api/tenancy/tenant-groups/';
const TAGS = '/api/extras/tags/';
const CUSTOM_FIELDS = '/api/extras/custom-fields/';

const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'inventory.example.com' };
const PROXY_ORIGIN = 'https://inventory.example.com';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const SLUG_MESSAGE = /^Enter a valid [“"]slug[”"] consisting of letters, numbers, underscores or hyphens\.$/;
const STANDARD_KEYS = ['id', 'url', 'display', 'tags', 'custom_fields', 'created', 'last_updated'];
const SITE_KEYS = [
  ...STANDARD_KEYS,
  'name',
  'slug',
  'status',
  'region',
  'group',
  'tenant',
  'facility',
  'time_zone',
  'physical_address',
  'shipping_address',
  'latitude',
  'longitude',
  'description',
  'comments',
].sort();
const BRIEF_KEYS = ['description', 'display', 'id', 'name', 'slug', 'url'];

/** A `next`/`previous` link taken apart: parameter order is not part of the contract. */
function link(url: string | null): { origin: string; path: string; params: string[][] } | null {
  if (url === null) return null;
  const parsed = new URL(url);
  const params = [...parsed.searchParams.entries()].sort((a, b) => (a[0] + '=' + a[1]).localeCompare(b[0] + '=' + b[1]));
  return { origin: parsed.origin, path: parsed.pathname, params };
}

function expectedLink(origin: string, path: string, params: Record<string, string | string[]>) {
  const pairs = Object.entries(params).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((item) => [name, item]));
  return { origin, path, params: pairs.sort((a, b) => (a[0] + '=' + a[1]).localeCompare(b[0] + '=' + b[1])) };
}

describe('platform REST API (/api/…)', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;
  let w: World;
  let client: PlatformClient;
  let base: string;

  /** Fixture ids by name. */
  const tenant: Record<string, number> = {};
  const tag: Record<string, number> = {};
  const site: Record<string, number> = {};
  let customersGroupId: number;

  async function count(table: string, where = '', params: unknown[] = []): Promise<number> {
    const result = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} ${where}`, params);
    return result.rows[0].n;
  }

  const siteType = async (): Promise<number> =>
    (await db.query<{ id: number }>(`SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = 'site'`)).rows[0].id;

  async function create(path: string, body: unknown): Promise<any> {
    const response = await client.post(path, body);
    if (response.status !== 201) throw new Error(`POST ${path} ${JSON.stringify(body)}: ${response.status} ${response.text}`);
    return response.body;
  }

  /** Names of the sites a query selects (default ordering: name), checking the envelope's count. */
  async function siteNames(query: string): Promise<string[]> {
    const response = await client.get(`${SITES}?limit=0&${query}`);
    expect({ query, status: response.status, body: response.status === 200 ? 'ok' : response.body }).toEqual({
      query,
      status: 200,
      body: 'ok',
    });
    expect(response.body.count).toBe(response.body.results.length);
    return response.body.results.map((result: { name: string }) => result.name);
  }

  beforeAll(async () => {
    ({ testApp, api, db, w } = await startSeededApp({ TRUST_PROXY: 'true' }));
    base = testApp.baseUrl;
    client = new PlatformClient(base, await provisionToken(api, w.root.username, PASSWORD));

    customersGroupId = (await create(TENANT_GROUPS, { name: 'Customers', slug: 'customers' })).id;
    tenant.acme = (await create(TENANTS, { name: 'Acme', slug: 'acme', group: customersGroupId, description: 'Acme Corp' })).id;
    tenant.globex = (await create(TENANTS, { name: 'Globex', slug: 'globex' })).id;
    tag.red = (await create(TAGS, { name: 'Red', slug: 'red', color: 'ff0000' })).id;
    tag.blue = (await create(TAGS, { name: 'Blue', slug: 'blue', color: '0000ff' })).id;
    tag.green = (await create(TAGS, { name: 'Green', slug: 'green' })).id;

    // Created one by one (distinct ids), in an order that differs from the name ordering.
    const fixtures = [
      {
        name: 'Alpha DC',
        slug: 'alpha-dc',
        status: 'active',
        tenant: tenant.acme,
        facility: 'Building 1',
        description: 'primary datacenter',
        comments: 'has generator',
        tags: [{ slug: 'red' }, { slug: 'blue' }],
      },
      {
        name: 'Beta Office',
        slug: 'beta-office',
        status: 'planned',
        tenant: tenant.globex,
        description: 'branch',
        tags: [{ slug: 'red' }],
      },
      {
        name: 'Gamma Lab',
        slug: 'gamma-lab',
        status: 'retired',
        tenant: null,
        facility: 'Lab 3',
        comments: 'GENERATOR backup',
        tags: [{ slug: 'blue' }],
      },
      { name: 'Delta Edge', slug: 'delta-edge', status: 'staging', tenant: tenant.acme, description: 'edge POP', tags: [] },
      {
        name: 'Epsilon DC',
        slug: 'epsilon-dc',
        status: 'active',
        facility: 'Bldg 5',
        time_zone: 'Europe/Berlin',
        tags: [{ slug: 'green' }],
      },
    ];
    for (const [index, fixture] of fixtures.entries()) {
      site[fixture.name] = (await create(SITES, fixture)).id;
      // Fixed timestamps make the created/last_updated range filters deterministic.
      await db.query(`UPDATE dcim_site SET created = $2::timestamptz, last_updated = $3::timestamptz WHERE id = $1`, [
        site[fixture.name],
        `2024-0${index + 1}-01T00:00:00Z`,
        `2024-0${index + 1}-15T12:00:00Z`,
      ]);
    }
  });

  afterAll(async () => {
    await db?.end();
    await testApp?.close();
  });

  describe('API root, status and object types', () => {
    it('GET /api/ lists each app with its absolute URL', async () => {
      const response = await client.get('/api/');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        circuits: `${base}/api/circuits/`,
        core: `${base}/api/core/`,
        dcim: `${base}/api/dcim/`,
        extras: `${base}/api/extras/`,
        ipam: `${base}/api/ipam/`,
        plugins: `${base}/api/plugins/`,
        status: `${base}/api/status/`,
        tenancy: `${base}/api/tenancy/`,
        users: `${base}/api/users/`,
        virtualization: `${base}/api/virtualization/`,
        vpn: `${base}/api/vpn/`,
        wireless: `${base}/api/wireless/`,
      });
    });

    it('GET /api/ builds its URLs from X-Forwarded-Proto/Host when the proxy is trusted', async () => {
      const response = await client.get('/api/', FORWARDED);
      expect(response.status).toBe(200);
      expect(response.body.dcim).toBe(`${PROXY_ORIGIN}/api/dcim/`);
      expect(response.body.status).toBe(`${PROXY_ORIGIN}/api/status/`);
    });

    it('GET /api/status/ reports versions, installed apps, mounted plugins and workers', async () => {
      const version = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
      const response = await client.get('/api/status/');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        'netbox-version': '4.5.0',
        'app-version': version,
        'node-version': process.versions.node,
        'postgresql-version': expect.stringMatching(/^\d+/),
        'installed-apps': {
          circuits: version,
          core: version,
          dcim: version,
          extras: version,
          ipam: version,
          tenancy: version,
          users: version,
          virtualization: version,
          vpn: version,
          wireless: version,
        },
        // Every available plugin is mounted by default (platform-plugins.e2e-spec.ts names them).
        plugins: Object.fromEntries(AVAILABLE_PLUGINS.map((plugin) => [plugin.name, plugin.version])),
        'workers-running': expect.any(Number),
      });
    });

    it('the object types include dcim.site', async () => {
      const all = await client.get('/api/core/object-types/?limit=0');
      expect(all.status).toBe(200);
      const labels = all.body.results.map((row: { app_label: string; model: string }) => `${row.app_label}.${row.model}`);
      expect(labels).toEqual(
        expect.arrayContaining(['dcim.site', 'tenancy.tenant', 'tenancy.tenantgroup', 'extras.tag', 'extras.customfield']),
      );

      const filtered = await client.get('/api/core/object-types/?app_label=dcim&model=site');
      expect(filtered.status).toBe(200);
      expect(filtered.body).toEqual({
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            id: await siteType(),
            url: `${base}/api/core/object-types/${await siteType()}/`,
            display: 'dcim.site',
            app_label: 'dcim',
            model: 'site',
          },
        ],
      });
    });

    it('accepts the PKI bearer JWT as well as a platform token', async () => {
      const response = await client.as(undefined, { authorization: `Bearer ${w.root.token}` }).get(`${SITES}?limit=1`);
      expect(response.status).toBe(200);
      expect(response.body.count).toBe(5);
    });
  });

  describe('list envelope and pagination', () => {
    it('answers {count, next, previous, results} in the default ordering (name)', async () => {
      const response = await client.get(SITES);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['count', 'next', 'previous', 'results']);
      expect(response.body.count).toBe(5);
      expect(response.body.next).toBeNull();
      expect(response.body.previous).toBeNull();
      expect(response.body.results.map((r: { name: string }) => r.name)).toEqual([
        'Alpha DC',
        'Beta Office',
        'Delta Edge',
        'Epsilon DC',
        'Gamma Lab',
      ]);
    });

    it('pages with limit/offset and absolute next/previous links', async () => {
      const first = await client.get(`${SITES}?limit=2`);
      expect(first.status).toBe(200);
      expect(first.body.count).toBe(5);
      expect(first.body.results.map((r: { name: string }) => r.name)).toEqual(['Alpha DC', 'Beta Office']);
      expect(link(first.body.next)).toEqual(expectedLink(base, SITES, { limit: '2', offset: '2' }));
      expect(first.body.previous).toBeNull();

      const second = await client.get(`${SITES}?limit=2&offset=2`);
      expect(second.body.count).toBe(5);
      expect(second.body.results.map((r: { name: string }) => r.name)).toEqual(['Delta Edge', 'Epsilon DC']);
      expect(link(second.body.next)).toEqual(expectedLink(base, SITES, { limit: '2', offset: '4' }));
      // The first page is addressed without an offset.
      expect(link(second.body.previous)).toEqual(expectedLink(base, SITES, { limit: '2' }));

      const last = await client.get(`${SITES}?limit=2&offset=4`);
      expect(last.body.results.map((r: { name: string }) => r.name)).toEqual(['Gamma Lab']);
      expect(last.body.next).toBeNull();
      expect(link(last.body.previous)).toEqual(expectedLink(base, SITES, { limit: '2', offset: '2' }));
    });

    it('an offset past the end gives an empty page that links back', async () => {
      const response = await client.get(`${SITES}?offset=10`);
      expect(response.status).toBe(200);
      expect(response.body.count).toBe(5);
      expect(response.body.results).toEqual([]);
      expect(response.body.next).toBeNull();
      expect(link(response.body.previous)).toEqual(expectedLink(base, SITES, { limit: '50' }));
    });

    it('next/previous carry the other query parameters (filters, ordering)', async () => {
      const response = await client.get(`${SITES}?status=active&status=planned&ordering=-name&limit=1&offset=1`);
      expect(response.status).toBe(200);
      expect(response.body.count).toBe(3);
      expect(response.body.results.map((r: { name: string }) => r.name)).toEqual(['Beta Office']);
      const carried = { status: ['active', 'planned'], ordering: '-name', limit: '1' };
      expect(link(response.body.next)).toEqual(expectedLink(base, SITES, { ...carried, offset: '2' }));
      expect(link(response.body.previous)).toEqual(expectedLink(base, SITES, carried));
    });

    it('builds next/previous and every url from X-Forwarded-Proto/Host (TRUST_PROXY=true)', async () => {
      const response = await client.get(`${SITES}?limit=2&offset=2`, FORWARDED);
      expect(response.status).toBe(200);
      const detail = await client.get(`${SITES}${site['Alpha DC']}/`, FORWARDED);
      expect(detail.status).toBe(200);
      const delta = response.body.results.find((r: { name: string }) => r.name === 'Delta Edge');
      expect({
        next: link(response.body.next),
        previous: link(response.body.previous),
        urls: response.body.results.map((r: { url: string }) => r.url),
        nestedTenant: delta.tenant.url,
        detail: detail.body.url,
        nestedTags: detail.body.tags.map((t: { url: string }) => t.url),
      }).toEqual({
        next: expectedLink(PROXY_ORIGIN, SITES, { limit: '2', offset: '4' }),
        previous: expectedLink(PROXY_ORIGIN, SITES, { limit: '2' }),
        urls: [`${PROXY_ORIGIN}${SITES}${site['Delta Edge']}/`, `${PROXY_ORIGIN}${SITES}${site['Epsilon DC']}/`],
        nestedTenant: `${PROXY_ORIGIN}${TENANTS}${tenant.acme}/`,
        detail: `${PROXY_ORIGIN}${SITES}${site['Alpha DC']}/`,
        nestedTags: [`${PROXY_ORIGIN}${TAGS}${tag.blue}/`, `${PROXY_ORIGIN}${TAGS}${tag.red}/`],
      });
    });

    it('refuses a malformed limit or offset with 400 naming the parameter', async () => {
      for (const query of ['limit=abc', 'limit=-1', 'limit=1.5']) {
        const response = await client.get(`${SITES}?${query}`);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
        expect(response.body).toEqual({ limit: [expect.any(String)] });
      }
      const offset = await client.get(`${SITES}?offset=x`);
      expect(offset.status).toBe(400);
      expect(offset.body).toEqual({ offset: [expect.any(String)] });
    });

    describe('with more objects than a page', () => {
      const TOTAL = 1100;
      beforeAll(async () => {
        await db.query(
          `INSERT INTO extras_tag (name, slug) SELECT 'bulk-' || lpad(g::text, 4, '0'), 'bulk-' || lpad(g::text, 4, '0') FROM generate_series(1, $1) g`,
          [TOTAL],
        );
      });
      afterAll(async () => {
        await db.query(`DELETE FROM extras_tag WHERE slug LIKE 'bulk-%'`);
      });

      it('defaults to 50 per page', async () => {
        const response = await client.get(TAGS);
        expect(response.status).toBe(200);
        expect(response.body.count).toBe(TOTAL + 3);
        expect(response.body.results).toHaveLength(50);
        expect(link(response.body.next)).toEqual(expectedLink(base, TAGS, { limit: '50', offset: '50' }));
        expect(response.body.previous).toBeNull();
      });

      it('limit=0 means the maximum (1000), and a larger limit is capped at 1000', async () => {
        for (const limit of ['0', '5000', '1000']) {
          const response = await client.get(`${TAGS}?limit=${limit}`);
          expect(response.status).toBe(200);
          expect(response.body.count).toBe(TOTAL + 3);
          expect({ limit, length: response.body.results.length }).toEqual({ limit, length: 1000 });
          expect(link(response.body.next)).toEqual(expectedLink(base, TAGS, { limit: '1000', offset: '1000' }));
        }
        const rest = await client.get(`${TAGS}?limit=0&offset=1000`);
        expect(rest.body.results).toHaveLength(TOTAL + 3 - 1000);
        expect(rest.body.next).toBeNull();
        expect(link(rest.body.previous)).toEqual(expectedLink(base, TAGS, { limit: '1000' }));
      });
    });
  });

  describe('filters on sites', () => {
    it('exact match is case-sensitive; a repeated parameter is OR; different parameters AND', async () => {
      expect(await siteNames('name=Alpha%20DC')).toEqual(['Alpha DC']);
      expect(await siteNames('name=alpha%20dc')).toEqual([]);
      expect(await siteNames('name=Alpha%20DC&name=Gamma%20Lab')).toEqual(['Alpha DC', 'Gamma Lab']);
      expect(await siteNames('slug=beta-office&slug=delta-edge&slug=nope')).toEqual(['Beta Office', 'Delta Edge']);
      expect(await siteNames('status=active')).toEqual(['Alpha DC', 'Epsilon DC']);
      expect(await siteNames('status=active&status=planned')).toEqual(['Alpha DC', 'Beta Office', 'Epsilon DC']);
      expect(await siteNames('status=active&tenant=acme')).toEqual(['Alpha DC']);
    });

    it('__n excludes every value given', async () => {
      expect(await siteNames('name__n=Alpha%20DC&name__n=Beta%20Office')).toEqual(['Delta Edge', 'Epsilon DC', 'Gamma Lab']);
      expect(await siteNames('status__n=active')).toEqual(['Beta Office', 'Delta Edge', 'Gamma Lab']);
    });

    it('case-insensitive text lookups and their negations', async () => {
      expect(await siteNames('name__ic=dc')).toEqual(['Alpha DC', 'Epsilon DC']);
      expect(await siteNames('name__nic=dc')).toEqual(['Beta Office', 'Delta Edge', 'Gamma Lab']);
      expect(await siteNames('name__ie=ALPHA%20dc')).toEqual(['Alpha DC']);
      expect(await siteNames('name__nie=ALPHA%20dc')).toEqual(['Beta Office', 'Delta Edge', 'Epsilon DC', 'Gamma Lab']);
      expect(await siteNames('name__isw=BETA')).toEqual(['Beta Office']);
      expect(await siteNames('name__isw=beta&name__isw=gamma')).toEqual(['Beta Office', 'Gamma Lab']);
      expect(await siteNames('name__nisw=beta&name__nisw=gamma')).toEqual(['Alpha DC', 'Delta Edge', 'Epsilon DC']);
      expect(await siteNames('name__iew=LAB')).toEqual(['Gamma Lab']);
      expect(await siteNames('name__niew=lab')).toEqual(['Alpha DC', 'Beta Office', 'Delta Edge', 'Epsilon DC']);
      expect(await siteNames('facility__isw=b')).toEqual(['Alpha DC', 'Epsilon DC']);
      expect(await siteNames('facility__ic=B')).toEqual(['Alpha DC', 'Epsilon DC', 'Gamma Lab']);
    });

    it('range lookups on id', async () => {
      const gamma = site['Gamma Lab'];
      expect(await siteNames(`id__gt=${gamma}`)).toEqual(['Delta Edge', 'Epsilon DC']);
      expect(await siteNames(`id__gte=${gamma}`)).toEqual(['Delta Edge', 'Epsilon DC', 'Gamma Lab']);
      expect(await siteNames(`id__lt=${gamma}`)).toEqual(['Alpha DC', 'Beta Office']);
      expect(await siteNames(`id__lte=${gamma}`)).toEqual(['Alpha DC', 'Beta Office', 'Gamma Lab']);
      expect(await siteNames(`id__gte=${site['Beta Office']}&id__lte=${site['Delta Edge']}`)).toEqual([
        'Beta Office',
        'Delta Edge',
        'Gamma Lab',
      ]);
      expect(await siteNames(`id=${site['Alpha DC']}&id=${site['Epsilon DC']}`)).toEqual(['Alpha DC', 'Epsilon DC']);
      expect(await siteNames(`id__n=${site['Alpha DC']}&id__n=${site['Epsilon DC']}`)).toEqual(['Beta Office', 'Delta Edge', 'Gamma Lab']);
    });

    it('created and last_updated: exact and range lookups (ISO 8601, offsets, bare dates)', async () => {
      // Fixtures: created 2024-0N-01T00:00Z, last_updated 2024-0N-15T12:00Z, N = 1..5 in creation order.
      const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
      expect(await siteNames(q({ created: '2024-03-01T00:00:00Z' }))).toEqual(['Gamma Lab']);
      expect(await siteNames(q({ created__gte: '2024-03-01T00:00:00Z' }))).toEqual(['Delta Edge', 'Epsilon DC', 'Gamma Lab']);
      expect(await siteNames(q({ created__gt: '2024-03-01T00:00:00+00:00' }))).toEqual(['Delta Edge', 'Epsilon DC']);
      expect(await siteNames(q({ created__lt: '2024-03-01' }))).toEqual(['Alpha DC', 'Beta Office']);
      expect(await siteNames(q({ created__lte: '2024-03-01T01:00:00+01:00' }))).toEqual(['Alpha DC', 'Beta Office', 'Gamma Lab']);
      expect(await siteNames(q({ created__gte: '2024-02-01', created__lt: '2024-04-01' }))).toEqual(['Beta Office', 'Gamma Lab']);
      expect(await siteNames(q({ last_updated__gte: '2024-04-15T12:00:00Z' }))).toEqual(['Delta Edge', 'Epsilon DC']);
      expect(await siteNames(q({ last_updated__lt: '2024-02-15T12:00:00Z' }))).toEqual(['Alpha DC']);
      expect(await siteNames(q({ last_updated__gt: '2024-01-15T12:00:00Z', last_updated__lte: '2024-03-15T12:00:00Z' }))).toEqual([
        'Beta Office',
        'Gamma Lab',
      ]);

      const bad = await client.get(`${SITES}?created__gte=yesterday`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ created__gte: [expect.any(String)] });
    });

    it('created as served round-trips through the created filter', async () => {
      const fresh = await create(SITES, { name: 'Timestamp Probe', slug: 'timestamp-probe' });
      try {
        const found = await client.get(`${SITES}?${new URLSearchParams({ created: fresh.created }).toString()}`);
        expect(found.status).toBe(200);
        expect(found.body.results.map((r: { id: number }) => r.id)).toEqual([fresh.id]);
      } finally {
        expect((await client.delete(`${SITES}${fresh.id}/`)).status).toBe(204);
      }
    });

    it('__empty on text: blank facility', async () => {
      expect(await siteNames('facility__empty=true')).toEqual(['Beta Office', 'Delta Edge']);
      expect(await siteNames('facility__empty=false')).toEqual(['Alpha DC', 'Epsilon DC', 'Gamma Lab']);
    });

    it('tenant_id (with null for no tenant), tenant by slug, and their negations', async () => {
      expect(await siteNames(`tenant_id=${tenant.acme}`)).toEqual(['Alpha DC', 'Delta Edge']);
      expect(await siteNames(`tenant_id=${tenant.acme}&tenant_id=${tenant.globex}`)).toEqual(['Alpha DC', 'Beta Office', 'Delta Edge']);
      expect(await siteNames('tenant_id=null')).toEqual(['Epsilon DC', 'Gamma Lab']);
      expect(await siteNames(`tenant_id=null&tenant_id=${tenant.globex}`)).toEqual(['Beta Office', 'Epsilon DC', 'Gamma Lab']);
      expect(await siteNames(`tenant_id__n=${tenant.acme}`)).toEqual(['Beta Office', 'Epsilon DC', 'Gamma Lab']);
      expect(await siteNames('tenant=acme')).toEqual(['Alpha DC', 'Delta Edge']);
      expect(await siteNames('tenant=acme&tenant=globex')).toEqual(['Alpha DC', 'Beta Office', 'Delta Edge']);
      expect(await siteNames('tenant__n=acme')).toEqual(['Beta Office', 'Epsilon DC', 'Gamma Lab']);

      const bad = await client.get(`${SITES}?tenant_id=abc`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ tenant_id: [expect.any(String)] });
    });

    it('tenant=<unknown slug> is a 400, as NetBox’s model choice filter answers', async () => {
      const response = await client.get(`${SITES}?tenant=no-such-tenant`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ tenant: ['Select a valid choice. no-such-tenant is not one of the available choices.'] });
    });

    it('q searches name, facility, description and comments (case-insensitive substring)', async () => {
      expect(await siteNames('q=dc')).toEqual(['Alpha DC', 'Epsilon DC']);
      expect(await siteNames('q=building')).toEqual(['Alpha DC']);
      expect(await siteNames('q=BRANCH')).toEqual(['Beta Office']);
      expect(await siteNames('q=generator')).toEqual(['Alpha DC', 'Gamma Lab']);
      expect(await siteNames('q=edge')).toEqual(['Delta Edge']);
      expect(await siteNames('q=%25')).toEqual([]);
      expect(await siteNames('q=dc&tenant=acme')).toEqual(['Alpha DC']);
      expect(await siteNames('q=')).toHaveLength(5);
    });

    it('tag (slug): repeated means all of them; tag__n excludes any of them', async () => {
      expect(await siteNames('tag=red')).toEqual(['Alpha DC', 'Beta Office']);
      expect(await siteNames('tag=blue')).toEqual(['Alpha DC', 'Gamma Lab']);
      expect(await siteNames('tag=red&tag=blue')).toEqual(['Alpha DC']);
      expect(await siteNames('tag=red&tag=green')).toEqual([]);
      expect(await siteNames('tag__n=red')).toEqual(['Delta Edge', 'Epsilon DC', 'Gamma Lab']);
      expect(await siteNames('tag__n=red&tag__n=blue')).toEqual(['Delta Edge', 'Epsilon DC']);
      expect(await siteNames('tag=blue&tag__n=red')).toEqual(['Gamma Lab']);
    });

    it('tag=<unknown slug> is a 400, as NetBox’s tag filter answers', async () => {
      const response = await client.get(`${SITES}?tag=no-such-tag`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ tag: ['Select a valid choice. no-such-tag is not one of the available choices.'] });
    });

    it('unknown parameters are ignored', async () => {
      expect(await siteNames('foo=bar&bogus__ic=x&format=json')).toHaveLength(5);
      expect(await siteNames('status=active&not_a_filter=1')).toEqual(['Alpha DC', 'Epsilon DC']);
    });

    it('an unsupported lookup on a known field is a 400 naming the parameter', async () => {
      for (const param of ['status__ic=act', 'name__gt=A', 'tenant_id__ic=1']) {
        const response = await client.get(`${SITES}?${param}`);
        expect({ param, status: response.status }).toEqual({ param, status: 400 });
        expect(response.body).toEqual({ [param.split('=')[0]]: [expect.any(String)] });
      }
    });

    it('an unknown choice value is a 400 {"status": [...]}', async () => {
      const response = await client.get(`${SITES}?status=bogus`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ status: ['Select a valid choice. bogus is not one of the available choices.'] });
      const mixed = await client.get(`${SITES}?status=active&status=bogus`);
      expect(mixed.status).toBe(400);
      expect(Object.keys(mixed.body)).toEqual(['status']);
    });

    it('ordering: by any field, descending with "-", several fields; unknown field is a 400', async () => {
      expect(await siteNames('ordering=-name')).toEqual(['Gamma Lab', 'Epsilon DC', 'Delta Edge', 'Beta Office', 'Alpha DC']);
      expect(await siteNames('ordering=id')).toEqual(['Alpha DC', 'Beta Office', 'Gamma Lab', 'Delta Edge', 'Epsilon DC']);
      expect(await siteNames('ordering=-created')).toEqual(['Epsilon DC', 'Delta Edge', 'Gamma Lab', 'Beta Office', 'Alpha DC']);
      expect(await siteNames('ordering=status,-name')).toEqual(['Epsilon DC', 'Alpha DC', 'Beta Office', 'Gamma Lab', 'Delta Edge']);

      const response = await client.get(`${SITES}?ordering=bogus`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ ordering: [expect.any(String)] });
    });
  });

  describe('representations', () => {
    it('?brief=true on list and detail: exactly {id, url, display, name, slug, description}', async () => {
      const list = await client.get(`${SITES}?brief=true&name=Alpha%20DC`);
      expect(list.status).toBe(200);
      const brief = {
        id: site['Alpha DC'],
        url: `${base}${SITES}${site['Alpha DC']}/`,
        display: 'Alpha DC',
        name: 'Alpha DC',
        slug: 'alpha-dc',
        description: 'primary datacenter',
      };
      expect(list.body).toEqual({ count: 1, next: null, previous: null, results: [brief] });

      const all = await client.get(`${SITES}?brief=true`);
      for (const result of all.body.results) expect(Object.keys(result).sort()).toEqual(BRIEF_KEYS);

      const detail = await client.get(`${SITES}${site['Alpha DC']}/?brief=true`);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(brief);
    });

    it('a site in full: standard attributes, choice as {value, label}, nested tenant, nested tags', async () => {
      const id = site['Alpha DC'];
      const response = await client.get(`${SITES}${id}/`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id,
        url: `${base}${SITES}${id}/`,
        display: 'Alpha DC',
        name: 'Alpha DC',
        slug: 'alpha-dc',
        status: { value: 'active', label: 'Active' },
        region: null,
        group: null,
        tenant: {
          id: tenant.acme,
          url: `${base}${TENANTS}${tenant.acme}/`,
          display: 'Acme',
          name: 'Acme',
          slug: 'acme',
          description: 'Acme Corp',
        },
        facility: 'Building 1',
        time_zone: '',
        physical_address: '',
        shipping_address: '',
        latitude: null,
        longitude: null,
        description: 'primary datacenter',
        comments: 'has generator',
        tags: [
          {
            id: tag.blue,
            url: `${base}${TAGS}${tag.blue}/`,
            display: 'Blue',
            name: 'Blue',
            slug: 'blue',
            color: '0000ff',
            description: '',
          },
          { id: tag.red, url: `${base}${TAGS}${tag.red}/`, display: 'Red', name: 'Red', slug: 'red', color: 'ff0000', description: '' },
        ],
        custom_fields: {},
        created: expect.stringMatching(ISO_TIMESTAMP),
        last_updated: expect.stringMatching(ISO_TIMESTAMP),
      });
      expect(new Date(response.body.created).toISOString()).toBe('2024-01-01T00:00:00.000Z');
      expect(new Date(response.body.last_updated).toISOString()).toBe('2024-01-15T12:00:00.000Z');
      const list = await client.get(`${SITES}?id=${id}`);
      expect(list.body.results).toEqual([response.body]);
    });

    it('every object of every resource carries id, url, display, tags, custom_fields, created, last_updated', async () => {
      for (const path of [SITES, TENANTS, TENANT_GROUPS]) {
        const response = await client.get(path);
        expect(response.status).toBe(200);
        expect(response.body.results.length).toBeGreaterThan(0);
        for (const object of response.body.results) {
          expect(Object.keys(object)).toEqual(expect.arrayContaining(STANDARD_KEYS));
          expect(object.url).toBe(`${base}${path}${object.id}/`);
          expect(typeof object.display).toBe('string');
          expect(Array.isArray(object.tags)).toBe(true);
          expect(object.custom_fields).toEqual(expect.any(Object));
          expect(object.created).toMatch(ISO_TIMESTAMP);
          expect(object.last_updated).toMatch(ISO_TIMESTAMP);
        }
      }
      const sites = await client.get(SITES);
      for (const object of sites.body.results) expect(Object.keys(object).sort()).toEqual(SITE_KEYS);
      const epsilon = sites.body.results.find((r: { name: string }) => r.name === 'Epsilon DC');
      expect(epsilon.tenant).toBeNull();
      expect(epsilon.time_zone).toBe('Europe/Berlin');

      const acme = await client.get(`${TENANTS}${tenant.acme}/`);
      expect(acme.body.group).toEqual({
        id: customersGroupId,
        url: `${base}${TENANT_GROUPS}${customersGroupId}/`,
        display: 'Customers',
        name: 'Customers',
        slug: 'customers',
        description: '',
      });
    });

    it('writes take a related object as an integer id or {"id": n}', async () => {
      const byId = await client.post(SITES, { name: 'Write Int', slug: 'write-int', tenant: tenant.globex });
      expect(byId.status).toBe(201);
      expect(byId.body.tenant).toEqual(expect.objectContaining({ id: tenant.globex, name: 'Globex', slug: 'globex' }));
      expect(byId.body.status).toEqual({ value: 'active', label: 'Active' });

      const byDict = await client.post(SITES, { name: 'Write Dict', slug: 'write-dict', tenant: { id: tenant.acme }, status: 'planned' });
      expect(byDict.status).toBe(201);
      expect(byDict.body.tenant).toEqual(expect.objectContaining({ id: tenant.acme, slug: 'acme' }));
      expect(byDict.body.status).toEqual({ value: 'planned', label: 'Planned' });

      const rows = await db.query<{ name: string; tenant_id: number | null; status: string }>(
        `SELECT name, tenant_id, status FROM dcim_site WHERE id = ANY($1) ORDER BY name`,
        [[byId.body.id, byDict.body.id]],
      );
      expect(rows.rows).toEqual([
        { name: 'Write Dict', tenant_id: tenant.acme, status: 'planned' },
        { name: 'Write Int', tenant_id: tenant.globex, status: 'active' },
      ]);

      const cleared = await client.patch(`${SITES}${byDict.body.id}/`, { tenant: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.tenant).toBeNull();

      await client.delete(SITES, [{ id: byId.body.id }, { id: byDict.body.id }]);
    });

    it('writes take a related object by attributes ({"slug": …}), as NetBox’s nested serializers do', async () => {
      const response = await client.post(SITES, { name: 'Write Attrs', slug: 'write-attrs', tenant: { slug: 'globex' } });
      expect(response.status).toBe(201);
      expect(response.body.tenant).toEqual(expect.objectContaining({ id: tenant.globex }));
      await client.delete(`${SITES}${response.body.id}/`);
    });

    it('a change is recorded in the change log with the full snapshot', async () => {
      const before = await count('core_objectchange');
      const created = await create(SITES, { name: 'Logged', slug: 'logged', tenant: tenant.acme });
      expect(await count('core_objectchange')).toBe(before + 1);
      const change = await db.query(
        `SELECT action, changed_object_type_id, changed_object_id, object_repr, prechange_data, postchange_data FROM core_objectchange
          WHERE changed_object_id = $1 AND changed_object_type_id = $2`,
        [created.id, await siteType()],
      );
      expect(change.rows).toEqual([
        {
          action: 'create',
          changed_object_type_id: await siteType(),
          changed_object_id: created.id,
          object_repr: 'Logged',
          prechange_data: null,
          postchange_data: expect.objectContaining({ name: 'Logged', slug: 'logged', status: 'active', tenant: tenant.acme }),
        },
      ]);
      await client.delete(`${SITES}${created.id}/`);
      expect(
        await count('core_objectchange', 'WHERE changed_object_id = $1 AND changed_object_type_id = $2', [created.id, await siteType()]),
      ).toBe(2);
    });
  });

  describe('bulk create, update and delete', () => {
    const bulkNames = `name LIKE 'Bulk %'`;

    it('POST a list creates every object and answers 201 with the list', async () => {
      const changesBefore = await count('core_objectchange');
      const response = await client.post(SITES, [
        { name: 'Bulk A', slug: 'bulk-a', tenant: tenant.acme },
        { name: 'Bulk B', slug: 'bulk-b', status: 'planned', tags: [tag.red] },
      ]);
      expect(response.status).toBe(201);
      expect(Array.isArray(response.body)).toBe(true);
      expect(response.body.map((r: { name: string }) => r.name)).toEqual(['Bulk A', 'Bulk B']);
      for (const object of response.body) expect(Object.keys(object).sort()).toEqual(SITE_KEYS);
      expect(response.body[1].tags.map((t: { slug: string }) => t.slug)).toEqual(['red']);
      expect(await count('dcim_site', `WHERE ${bulkNames}`)).toBe(2);
      expect(await count('core_objectchange')).toBe(changesBefore + 2);
    });

    it('bulk create is atomic: one bad item → 400 with per-item errors, nothing written', async () => {
      const sitesBefore = await count('dcim_site');
      const changesBefore = await count('core_objectchange');
      const taggedBefore = await count('extras_taggeditem');
      const response = await client.post(SITES, [
        { name: 'Bulk C', slug: 'bulk-c', tags: [tag.blue] },
        { name: 'Bulk D', slug: 'not a slug' },
        { name: 'Bulk E', slug: 'bulk-e' },
      ]);
      expect(response.status).toBe(400);
      expect(response.body).toEqual([{}, { slug: [expect.stringMatching(SLUG_MESSAGE)] }, {}]);
      expect(await count('dcim_site')).toBe(sitesBefore);
      expect(await count('core_objectchange')).toBe(changesBefore);
      expect(await count('extras_taggeditem')).toBe(taggedBefore);
    });

    it('PATCH a list with ids updates each (partial)', async () => {
      const ids = (await db.query<{ id: number }>(`SELECT id FROM dcim_site WHERE ${bulkNames} ORDER BY name`)).rows.map((r) => r.id);
      const changesBefore = await count('core_objectchange');
      const response = await client.patch(SITES, [
        { id: ids[0], description: 'first' },
        { id: ids[1], status: 'retired', facility: 'F2' },
      ]);
      expect(response.status).toBe(200);
      expect(response.body.map((r: { id: number }) => r.id)).toEqual(ids);
      expect(response.body[0]).toEqual(expect.objectContaining({ description: 'first', status: { value: 'active', label: 'Active' } }));
      expect(response.body[0].tenant).toEqual(expect.objectContaining({ id: tenant.acme }));
      expect(response.body[1]).toEqual(
        expect.objectContaining({ status: { value: 'retired', label: 'Retired' }, facility: 'F2', description: '' }),
      );
      const rows = await db.query(`SELECT name, description, status, facility, tenant_id FROM dcim_site WHERE ${bulkNames} ORDER BY name`);
      expect(rows.rows).toEqual([
        { name: 'Bulk A', description: 'first', status: 'active', facility: '', tenant_id: tenant.acme },
        { name: 'Bulk B', description: '', status: 'retired', facility: 'F2', tenant_id: null },
      ]);
      expect(await count('core_objectchange')).toBe(changesBefore + 2);
    });

    it('PUT a list with ids replaces each', async () => {
      const ids = (await db.query<{ id: number }>(`SELECT id FROM dcim_site WHERE ${bulkNames} ORDER BY name`)).rows.map((r) => r.id);
      const response = await client.put(SITES, [
        { id: ids[0], name: 'Bulk A2', slug: 'bulk-a2', status: 'staging', tenant: null },
        { id: ids[1], name: 'Bulk B2', slug: 'bulk-b2' },
      ]);
      expect(response.status).toBe(200);
      expect(response.body.map((r: { name: string }) => r.name)).toEqual(['Bulk A2', 'Bulk B2']);
      const rows = await db.query(`SELECT id, name, slug, status, tenant_id FROM dcim_site WHERE ${bulkNames} ORDER BY id`);
      expect(rows.rows).toEqual([
        { id: ids[0], name: 'Bulk A2', slug: 'bulk-a2', status: 'staging', tenant_id: null },
        { id: ids[1], name: 'Bulk B2', slug: 'bulk-b2', status: 'retired', tenant_id: null },
      ]);
    });

    it('bulk PATCH and PUT are atomic: one bad item → 400 with per-item errors, nothing written', async () => {
      const before = (await db.query(`SELECT * FROM dcim_site WHERE ${bulkNames} ORDER BY id`)).rows;
      const ids = before.map((row: { id: number }) => row.id);
      const changesBefore = await count('core_objectchange');

      const patch = await client.patch(SITES, [
        { id: ids[0], description: 'should not stick' },
        { id: ids[1], status: 'bogus' },
      ]);
      expect(patch.status).toBe(400);
      expect(patch.body).toEqual([{}, { status: ['"bogus" is not a valid choice.'] }]);

      const put = await client.put(SITES, [
        { id: ids[0], name: 'Bulk Renamed', slug: 'bulk-renamed' },
        { id: ids[1], slug: 'bulk-b3' },
      ]);
      expect(put.status).toBe(400);
      expect(put.body).toEqual([{}, { name: ['This field is required.'] }]);

      const missingId = await client.patch(SITES, [{ id: ids[0], description: 'x' }, { description: 'no id' }]);
      expect(missingId.status).toBe(400);
      expect(missingId.body).toEqual([{}, { id: ['This field is required.'] }]);

      expect((await db.query(`SELECT * FROM dcim_site WHERE ${bulkNames} ORDER BY id`)).rows).toEqual(before);
      expect(await count('core_objectchange')).toBe(changesBefore);
    });

    it('bulk delete is atomic: an item without id → 400 per item, nothing deleted', async () => {
      const ids = (await db.query<{ id: number }>(`SELECT id FROM dcim_site WHERE ${bulkNames} ORDER BY id`)).rows.map((r) => r.id);
      const changesBefore = await count('core_objectchange');
      const response = await client.delete(SITES, [{ id: ids[0] }, {}]);
      expect(response.status).toBe(400);
      expect(response.body).toEqual([{}, { id: ['This field is required.'] }]);
      expect(await count('dcim_site', `WHERE ${bulkNames}`)).toBe(2);
      expect(await count('core_objectchange')).toBe(changesBefore);
    });

    it('DELETE a list of {id} deletes them all → 204, recorded and untagged', async () => {
      const ids = (await db.query<{ id: number }>(`SELECT id FROM dcim_site WHERE ${bulkNames} ORDER BY id`)).rows.map((r) => r.id);
      const changesBefore = await count('core_objectchange');
      expect(await count('extras_taggeditem', 'WHERE object_type_id = $1 AND object_id = ANY($2)', [await siteType(), ids])).toBe(1);
      const response = await client.delete(
        SITES,
        ids.map((id) => ({ id })),
      );
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(await count('dcim_site', `WHERE ${bulkNames}`)).toBe(0);
      expect(await count('core_objectchange', `WHERE action = 'delete'`)).toBeGreaterThanOrEqual(2);
      expect(await count('core_objectchange')).toBe(changesBefore + 2);
      expect(await count('extras_taggeditem', 'WHERE object_type_id = $1 AND object_id = ANY($2)', [await siteType(), ids])).toBe(0);
      expect((await client.get(`${SITES}${ids[0]}/`)).status).toBe(404);
    });

    it('bulk delete blocked by PROTECT on one item deletes nothing (409)', async () => {
      const free = await create(TENANT_GROUPS, { name: 'Free Group', slug: 'free-group' });
      const response = await client.delete(TENANT_GROUPS, [{ id: free.id }, { id: customersGroupId }]);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ detail: expect.stringContaining('Acme') });
      expect(await count('tenancy_tenantgroup', 'WHERE id = ANY($1)', [[free.id, customersGroupId]])).toBe(2);
      expect((await client.delete(`${TENANT_GROUPS}${free.id}/`)).status).toBe(204);
    });
  });

  describe('validation and error responses', () => {
    it('a missing required field: 400 {"field": ["This field is required."]}', async () => {
      const before = await count('dcim_site');
      const response = await client.post(SITES, {});
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ name: ['This field is required.'], slug: ['This field is required.'] });
      const noName = await client.post(SITES, { slug: 'x-only' });
      expect(noName.status).toBe(400);
      expect(noName.body).toEqual({ name: ['This field is required.'] });
      expect(await count('dcim_site')).toBe(before);
    });

    it('bad slug, too long, unknown choice and unknown related id, all reported together', async () => {
      const before = await count('dcim_site');
      const response = await client.post(SITES, {
        name: 'x'.repeat(101),
        slug: 'not a slug',
        status: 'bogus',
        tenant: 999999,
        facility: 'f'.repeat(51),
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        name: ['Ensure this field has no more than 100 characters.'],
        slug: [expect.stringMatching(SLUG_MESSAGE)],
        status: ['"bogus" is not a valid choice.'],
        tenant: ['Related object not found using the provided numeric ID: 999999'],
        facility: ['Ensure this field has no more than 50 characters.'],
      });
      expect(await count('dcim_site')).toBe(before);
    });

    it('a blank required field: "This field may not be blank."', async () => {
      const response = await client.post(SITES, { name: '', slug: 'blank-name' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ name: ['This field may not be blank.'] });
    });

    it('a duplicate name or slug: "site with this name already exists."', async () => {
      const response = await client.post(SITES, { name: 'Alpha DC', slug: 'alpha-dc' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ name: ['site with this name already exists.'], slug: ['site with this slug already exists.'] });

      const rename = await client.patch(`${SITES}${site['Beta Office']}/`, { name: 'Alpha DC' });
      expect(rename.status).toBe(400);
      expect(rename.body).toEqual({ name: ['site with this name already exists.'] });

      // An object does not clash with itself.
      const same = await client.patch(`${SITES}${site['Alpha DC']}/`, { name: 'Alpha DC' });
      expect(same.status).toBe(200);
      expect(await count('dcim_site', `WHERE name = 'Alpha DC'`)).toBe(1);
      expect((await db.query(`SELECT name FROM dcim_site WHERE id = $1`, [site['Beta Office']])).rows).toEqual([{ name: 'Beta Office' }]);
    });

    it('a JSON string as the body: 400 {"non_field_errors": ["Invalid data. Expected a dictionary, but got str."]}', async () => {
      const before = await count('dcim_site');
      const text = await client.post(SITES, 'just a string');
      expect(text.status).toBe(400);
      expect(text.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] });
      expect(await count('dcim_site')).toBe(before);
    });

    it('a list where one object is expected, or a non-object item: 400 {"non_field_errors": [...]}', async () => {
      const before = await count('dcim_site');
      const list = await client.patch(`${SITES}${site['Alpha DC']}/`, ['a']);
      expect(list.status).toBe(400);
      expect(list.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });

      const items = await client.post(SITES, ['a', { name: 'NF OK', slug: 'nf-ok' }]);
      expect(items.status).toBe(400);
      expect(items.body).toEqual([{ non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] }, {}]);
      expect(await count('dcim_site')).toBe(before);
    });

    it('malformed JSON: 400 {"detail": …}', async () => {
      const response = await fetch(`${base}${SITES}`, {
        method: 'POST',
        headers: { authorization: `Token ${client.token}`, 'content-type': 'application/json' },
        body: '{"name": "Broken", ',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ detail: expect.any(String) });
    });

    it('404 {"detail": "Not found."} for an unknown id, a non-numeric id, on every method', async () => {
      for (const path of [`${SITES}999999/`, `${SITES}abc/`, `${SITES}0/`, `${SITES}99999999999/`]) {
        for (const method of ['GET', 'PATCH', 'PUT', 'DELETE'] as const) {
          const response = await client.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : { description: 'x' });
          expect({ path, method, status: response.status, body: response.body }).toEqual({
            path,
            method,
            status: 404,
            body: { detail: 'Not found.' },
          });
        }
      }
    });

    it('403 {"detail": "Authentication credentials were not provided."} without credentials, and no WWW-Authenticate', async () => {
      const anonymous = client.as(undefined);
      const before = await count('dcim_site');
      for (const [method, path, body] of [
        ['GET', SITES, undefined],
        ['GET', `${SITES}${site['Alpha DC']}/`, undefined],
        ['POST', SITES, { name: 'Anon', slug: 'anon' }],
        ['GET', '/api/', undefined],
        ['GET', '/api/status/', undefined],
      ] as const) {
        const response = await anonymous.request(method, path, body);
        expect({ method, path, status: response.status, body: response.body }).toEqual({
          method,
          path,
          status: 403,
          body: { detail: 'Authentication credentials were not provided.' },
        });
        expect(response.headers.get('www-authenticate')).toBeNull();
      }
      expect(await count('dcim_site')).toBe(before);

      const badToken = await client.as('0123456789abcdef0123456789abcdef01234567').get(SITES);
      expect(badToken.status).toBe(403);
      expect(badToken.body).toEqual({ detail: 'Invalid token' });
      expect(badToken.headers.get('www-authenticate')).toBeNull();
    });

    it('deleting a tenant group still referenced by a tenant (PROTECT) → 409 naming the tenant', async () => {
      const changesBefore = await count('core_objectchange');
      const response = await client.delete(`${TENANT_GROUPS}${customersGroupId}/`);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ detail: expect.stringMatching(/^Unable to delete object\. .*Acme/) });
      expect(await count('tenancy_tenantgroup', 'WHERE id = $1', [customersGroupId])).toBe(1);
      expect(await count('core_objectchange')).toBe(changesBefore);
    });

    it('deleting a tenant used by a site (SET NULL) clears the site’s tenant', async () => {
      const temp = await create(TENANTS, { name: 'Temp Tenant', slug: 'temp-tenant' });
      const holder = await create(SITES, { name: 'Temp Site', slug: 'temp-site', tenant: temp.id });
      expect((await client.delete(`${TENANTS}${temp.id}/`)).status).toBe(204);
      expect((await client.get(`${SITES}${holder.id}/`)).body.tenant).toBeNull();
      expect((await db.query(`SELECT tenant_id FROM dcim_site WHERE id = $1`, [holder.id])).rows).toEqual([{ tenant_id: null }]);
      await client.delete(`${SITES}${holder.id}/`);
    });
  });

  describe('tags', () => {
    let taggedId: number;
    const taggedRows = async () =>
      (
        await db.query<{ slug: string }>(
          `SELECT t.slug FROM extras_taggeditem ti JOIN extras_tag t ON t.id = ti.tag_id
            WHERE ti.object_type_id = $1 AND ti.object_id = $2 ORDER BY t.slug`,
          [await siteType(), taggedId],
        )
      ).rows.map((row) => row.slug);

    it('assigns tags by id, {"slug": …} and {"name": …}', async () => {
      const response = await client.post(SITES, { name: 'Tagged', slug: 'tagged', tags: [tag.red, { slug: 'blue' }, { name: 'Green' }] });
      expect(response.status).toBe(201);
      taggedId = response.body.id;
      expect(response.body.tags.map((t: { slug: string }) => t.slug)).toEqual(['blue', 'green', 'red']);
      expect(response.body.tags[0]).toEqual({
        id: tag.blue,
        url: `${base}${TAGS}${tag.blue}/`,
        display: 'Blue',
        name: 'Blue',
        slug: 'blue',
        color: '0000ff',
        description: '',
      });
      expect(await taggedRows()).toEqual(['blue', 'green', 'red']);
      expect(await siteNames('tag=green&tag=red')).toEqual(['Tagged']);
    });

    it('an unknown tag → 400 {"tags": [...]}, nothing written', async () => {
      const sitesBefore = await count('dcim_site');
      const taggedBefore = await count('extras_taggeditem');
      for (const tags of [[{ slug: 'no-such-tag' }], [{ name: 'No Such' }], [999999], [tag.red, { slug: 'nope' }]]) {
        const response = await client.post(SITES, { name: 'Tag Fail', slug: 'tag-fail', tags });
        expect({ tags, status: response.status }).toEqual({ tags, status: 400 });
        expect(response.body).toEqual({ tags: [expect.any(String)] });
      }
      const patch = await client.patch(`${SITES}${taggedId}/`, { tags: [{ slug: 'nope' }] });
      expect(patch.status).toBe(400);
      expect(patch.body).toEqual({ tags: [expect.any(String)] });
      expect(await count('dcim_site')).toBe(sitesBefore);
      expect(await count('extras_taggeditem')).toBe(taggedBefore);
      expect(await taggedRows()).toEqual(['blue', 'green', 'red']);
    });

    it('PATCH replaces the tag set; a PATCH without tags keeps it', async () => {
      const replaced = await client.patch(`${SITES}${taggedId}/`, { tags: [{ slug: 'green' }] });
      expect(replaced.status).toBe(200);
      expect(replaced.body.tags.map((t: { slug: string }) => t.slug)).toEqual(['green']);
      expect(await taggedRows()).toEqual(['green']);

      const untouched = await client.patch(`${SITES}${taggedId}/`, { description: 'still green' });
      expect(untouched.body.tags.map((t: { slug: string }) => t.slug)).toEqual(['green']);
      expect(await taggedRows()).toEqual(['green']);

      const cleared = await client.patch(`${SITES}${taggedId}/`, { tags: [] });
      expect(cleared.body.tags).toEqual([]);
      expect(await taggedRows()).toEqual([]);

      await client.patch(`${SITES}${taggedId}/`, { tags: [tag.red, tag.blue] });
      expect(await taggedRows()).toEqual(['blue', 'red']);
    });

    it('deleting an object removes its extras_taggeditem rows', async () => {
      expect((await client.delete(`${SITES}${taggedId}/`)).status).toBe(204);
      expect(await count('extras_taggeditem', 'WHERE object_type_id = $1 AND object_id = $2', [await siteType(), taggedId])).toBe(0);
      expect(await count('extras_tag', `WHERE slug IN ('red', 'blue')`)).toBe(2);
    });
  });

  describe('custom fields', () => {
    const cfIds: Record<string, number> = {};
    const cfSites: Record<string, number> = {};
    const ALL_FIELDS = ['commissioned', 'env', 'monitored', 'notes', 'owner_code', 'rack_count'];

    beforeAll(async () => {
      const definitions = [
        { name: 'rack_count', type: 'integer', validation_minimum: 1, validation_maximum: 100 },
        { name: 'env', type: 'select', choices: ['prod', 'dev', 'test'] },
        { name: 'owner_code', type: 'text', validation_regex: '^[A-Z]{3}-\\d+$' },
        { name: 'commissioned', type: 'date' },
        { name: 'monitored', type: 'boolean', default: true },
        { name: 'notes', type: 'longtext' },
      ];
      for (const definition of definitions) {
        const response = await client.post(CUSTOM_FIELDS, { object_types: ['dcim.site'], ...definition });
        if (response.status !== 201) throw new Error(`custom field ${definition.name}: ${response.status} ${response.text}`);
        expect(response.body.object_types).toEqual(['dcim.site']);
        cfIds[definition.name] = response.body.id;
      }
    });

    it('custom_fields lists every applicable field: null when unset, the default applied on create', async () => {
      const response = await client.post(SITES, { name: 'CF Defaults', slug: 'cf-defaults' });
      expect(response.status).toBe(201);
      expect(response.body.custom_fields).toEqual({
        rack_count: null,
        env: null,
        owner_code: null,
        commissioned: null,
        monitored: true,
        notes: null,
      });
      const stored = await db.query(`SELECT custom_field_data FROM dcim_site WHERE id = $1`, [response.body.id]);
      expect(stored.rows[0].custom_field_data).toEqual(expect.objectContaining({ monitored: true }));

      const existing = await client.get(`${SITES}${site['Gamma Lab']}/`);
      expect(Object.keys(existing.body.custom_fields).sort()).toEqual(ALL_FIELDS);
      expect(existing.body.custom_fields).toEqual(
        expect.objectContaining({ rack_count: null, env: null, owner_code: null, commissioned: null, notes: null }),
      );

      // Fields for dcim.site only: a tenant has none.
      expect((await client.get(`${TENANTS}${tenant.acme}/`)).body.custom_fields).toEqual({});
      await client.delete(`${SITES}${response.body.id}/`);
    });

    it('stores valid values of each type and returns them', async () => {
      const response = await client.post(SITES, {
        name: 'CF Site 1',
        slug: 'cf-site-1',
        custom_fields: {
          rack_count: 2,
          env: 'dev',
          owner_code: 'ABC-1',
          commissioned: '2023-06-30',
          monitored: false,
          notes: 'line 1\nline 2',
        },
      });
      expect(response.status).toBe(201);
      cfSites.one = response.body.id;
      expect(response.body.custom_fields).toEqual({
        rack_count: 2,
        env: 'dev',
        owner_code: 'ABC-1',
        commissioned: '2023-06-30',
        monitored: false,
        notes: 'line 1\nline 2',
      });
      const stored = await db.query(`SELECT custom_field_data FROM dcim_site WHERE id = $1`, [cfSites.one]);
      expect(stored.rows[0].custom_field_data).toEqual({
        rack_count: 2,
        env: 'dev',
        owner_code: 'ABC-1',
        commissioned: '2023-06-30',
        monitored: false,
        notes: 'line 1\nline 2',
      });
      cfSites.two = (await create(SITES, { name: 'CF Site 2', slug: 'cf-site-2', custom_fields: { rack_count: 3, env: 'prod' } })).id;
      cfSites.three = (
        await create(SITES, { name: 'CF Site 3', slug: 'cf-site-3', custom_fields: { rack_count: 10, env: 'prod', owner_code: 'XYZ-77' } })
      ).id;
    });

    it('validates values on write: 400 {"custom_fields": [...]} and nothing written', async () => {
      const before = await count('dcim_site');
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ rack_count: 0 }, "Invalid value for custom field 'rack_count': Value must be at least 1"],
        [{ rack_count: 101 }, "Invalid value for custom field 'rack_count': Value must not exceed 100"],
        [{ rack_count: 'five' }, "Invalid value for custom field 'rack_count': Value must be an integer."],
        [{ rack_count: 2.5 }, "Invalid value for custom field 'rack_count': Value must be an integer."],
        [{ env: 'staging' }, "Invalid value for custom field 'env': Invalid choice (staging). Available choices are: prod, dev, test"],
        [{ owner_code: 'abc-1' }, "Invalid value for custom field 'owner_code': Value must match regex '^[A-Z]{3}-\\d+$'"],
        [
          { commissioned: '30/06/2023' },
          "Invalid value for custom field 'commissioned': Date values must be in ISO 8601 format (YYYY-MM-DD).",
        ],
        [
          { commissioned: '2023-02-30' },
          "Invalid value for custom field 'commissioned': Date values must be in ISO 8601 format (YYYY-MM-DD).",
        ],
        [{ monitored: 'yes' }, "Invalid value for custom field 'monitored': Value must be true or false."],
        [{ no_such_field: 1 }, "Unknown field name 'no_such_field' in custom field data."],
      ];
      const outcomes: unknown[] = [];
      for (const [customFields] of cases) {
        const response = await client.post(SITES, { name: 'CF Bad', slug: 'cf-bad', custom_fields: customFields });
        outcomes.push({ customFields, status: response.status, body: response.status === 201 ? 'written' : response.body });
        // Anything wrongly accepted is removed again, so that one failure does not leak into the other tests.
        if (response.status === 201) await client.delete(`${SITES}${response.body.id}/`);
      }
      expect(outcomes).toEqual(cases.map(([customFields, message]) => ({ customFields, status: 400, body: { custom_fields: [message] } })));
      expect(await count('dcim_site')).toBe(before);

      const patch = await client.patch(`${SITES}${cfSites.two}/`, { custom_fields: { rack_count: 1000 } });
      expect(patch.status).toBe(400);
      expect(patch.body).toEqual({ custom_fields: ["Invalid value for custom field 'rack_count': Value must not exceed 100"] });
      const stored = await db.query(`SELECT custom_field_data->'rack_count' AS value FROM dcim_site WHERE id = $1`, [cfSites.two]);
      expect(stored.rows).toEqual([{ value: 3 }]);
    });

    it('a required field without a default → 400 on create when not given', async () => {
      const required = await client.post(CUSTOM_FIELDS, { object_types: ['dcim.site'], type: 'text', name: 'cost_center', required: true });
      expect(required.status).toBe(201);
      try {
        const before = await count('dcim_site');
        const response = await client.post(SITES, { name: 'CF Required', slug: 'cf-required' });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ custom_fields: [expect.stringContaining('cost_center')] });
        const empty = await client.post(SITES, { name: 'CF Required', slug: 'cf-required', custom_fields: { cost_center: '' } });
        expect(empty.status).toBe(400);
        expect(empty.body).toEqual({ custom_fields: [expect.stringContaining('cost_center')] });
        expect(await count('dcim_site')).toBe(before);

        const given = await client.post(SITES, { name: 'CF Required', slug: 'cf-required', custom_fields: { cost_center: 'CC-1' } });
        expect(given.status).toBe(201);
        expect(given.body.custom_fields.cost_center).toBe('CC-1');
        expect((await client.delete(`${SITES}${given.body.id}/`)).status).toBe(204);
      } finally {
        expect((await client.delete(`${CUSTOM_FIELDS}${required.body.id}/`)).status).toBe(204);
      }
    });

    it('PATCH merges custom field data', async () => {
      const response = await client.patch(`${SITES}${cfSites.one}/`, { custom_fields: { env: 'test', notes: null } });
      expect(response.status).toBe(200);
      expect(response.body.custom_fields).toEqual({
        rack_count: 2,
        env: 'test',
        owner_code: 'ABC-1',
        commissioned: '2023-06-30',
        monitored: false,
        notes: null,
      });
      const stored = await db.query(`SELECT custom_field_data FROM dcim_site WHERE id = $1`, [cfSites.one]);
      expect(stored.rows[0].custom_field_data).toEqual(
        expect.objectContaining({ rack_count: 2, env: 'test', owner_code: 'ABC-1', commissioned: '2023-06-30', monitored: false }),
      );
      const untouched = await client.patch(`${SITES}${cfSites.one}/`, { description: 'no cf change' });
      expect(untouched.body.custom_fields).toEqual(response.body.custom_fields);
      await client.patch(`${SITES}${cfSites.one}/`, { custom_fields: { env: 'dev' } });
    });

    it('filters by cf_<name> with lookups', async () => {
      expect(await siteNames('cf_rack_count__gte=3')).toEqual(['CF Site 2', 'CF Site 3']);
      expect(await siteNames('cf_rack_count__lt=5')).toEqual(['CF Site 1', 'CF Site 2']);
      expect(await siteNames('cf_rack_count=10')).toEqual(['CF Site 3']);
      expect(await siteNames('cf_rack_count=2&cf_rack_count=10')).toEqual(['CF Site 1', 'CF Site 3']);
      expect(await siteNames('cf_env=prod')).toEqual(['CF Site 2', 'CF Site 3']);
      expect(await siteNames('cf_env=prod&cf_env=dev')).toEqual(['CF Site 1', 'CF Site 2', 'CF Site 3']);
      expect(await siteNames('cf_env=prod&cf_rack_count__gt=3')).toEqual(['CF Site 3']);
      expect(await siteNames('cf_owner_code__isw=xyz')).toEqual(['CF Site 3']);
      expect(await siteNames('cf_owner_code__ic=-')).toEqual(['CF Site 1', 'CF Site 3']);
      expect(await siteNames('cf_commissioned__lt=2024-01-01')).toEqual(['CF Site 1']);
      expect(await siteNames('cf_monitored=false')).toEqual(['CF Site 1']);
      expect(await siteNames('cf_no_such_field=1&cf_env=prod')).toEqual(['CF Site 2', 'CF Site 3']);
    });

    it('a bad cf_ filter value is a 400 naming the parameter as sent', async () => {
      const response = await client.get(`${SITES}?cf_rack_count__gte=abc`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ cf_rack_count__gte: [expect.any(String)] });
    });
  });
});
