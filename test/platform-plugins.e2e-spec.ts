import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GraphQLList, GraphQLNonNull, GraphQLString } from 'graphql';
import { NotFoundError } from '../src/common/errors/common-errors';
import { nonFieldError, ProtectedObjectError, ResourceValidationError } from '../src/platform/framework/resource/resource-errors';
import { definePlugin } from '../src/platform/plugins/plugin-declaration';
import { RouteResponse } from '../src/platform/plugins/plugin-route';
import { setting } from '../src/platform/plugins/plugin-settings';
import { AVAILABLE_PLUGINS } from '../src/plugins';
import { PLUGIN_REGISTRY } from '../src/plugins/registry';
import { PASSWORD } from './support/api-client';
import { countRows, PlatformClient, provisionToken, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';
import { BUILT_MAIN, ServerProcess } from './support/server-process';

const ROUTERS = '/api/plugins/routing/bgp-routers/';
/** The plugins src/plugins/registry.ts lists, in its order. */
const REGISTERED = PLUGIN_REGISTRY.manifests;
const TENANTS = '/api/tenancy/tenants/';

/** What the probe plugin's hooks and subscriber saw, in order. */
const seen: string[] = [];

/** A plugin of this test only: hooks and a subscriber on the platform's tenants, a GraphQL query, a setting, routes. */
const ProbePlugin = definePlugin({
  name: 'probe',
  version: '0.0.1',
  description: 'Exercises the extension points.',
  resources: [],
  settings: { greeting: setting.string({ default: 'hello', description: 'prefixes what the probe records' }) },
  subscribers: [
    {
      name: 'tenant watcher',
      objectTypes: ['tenancy.tenant'],
      handle: async (_manager, event, { settings }) => {
        if (event.event === 'created' && event.postchange?.name === 'Explode')
          throw new ResourceValidationError({ name: ['refused by the probe subscriber'] });
        seen.push(`${String(settings.greeting)} ${event.event} ${String((event.postchange ?? event.prechange)?.name)}`);
      },
    },
    { name: 'site watcher', objectTypes: ['dcim.site'], handle: async () => void seen.push('site') },
  ],
  hooks: [
    {
      objectTypes: ['tenancy.tenant'],
      beforeUpdate: async ({ settings }, _existing, changes) => {
        if (changes.name === 'Forbidden') throw new ResourceValidationError({ name: [`${String(settings.greeting)}: not this name`] });
      },
      afterUpdate: async (_context, before, after) => void seen.push(`renamed ${String(before.name)} to ${String(after.name)}`),
      beforeDelete: async (_context, row) => {
        if (row.slug === 'keep') throw new ProtectedObjectError(`Unable to delete object. The probe keeps tenant ${String(row.name)}.`);
      },
      afterDelete: async (_context, row) => void seen.push(`deleted ${String(row.name)}`),
    },
  ],
  routes: [
    {
      method: 'GET',
      path: 'tenants/{tenant_id}/echo',
      permission: { objectType: 'tenancy.tenant', action: 'view' },
      openapi: {
        summary: 'One visible tenant, with what the route was given',
        pathParameters: { tenant_id: { description: 'A tenant id', schema: { type: 'integer', minimum: 1 } } },
        parameters: [{ name: 'note', description: 'Echoed back', schema: { type: 'string' } }],
        response: { type: 'object', required: ['tenant', 'params', 'note', 'greeting'], properties: { tenant: { type: 'string' } } },
      },
      handle: async ({ params, query, settings, visibleRows, manager }) => {
        const [tenant] = await visibleRows('tenancy.tenant', { id: [params.tenant_id] });
        if (!tenant) throw new NotFoundError('Not found.');
        const inTransaction = manager.queryRunner?.isTransactionActive ?? false;
        return { tenant: tenant.name, params, note: query.note ?? null, greeting: settings.greeting, in_transaction: inTransaction };
      },
    },
    {
      method: 'POST',
      path: 'tenants/{tenant_id}/describe',
      permission: { objectType: 'tenancy.tenant', action: 'change' },
      openapi: {
        summary: "Sets a tenant's description",
        pathParameters: { tenant_id: { description: 'A tenant id', schema: { type: 'integer' } } },
        request: { type: 'object', required: ['description'], properties: { description: { type: 'string' } } },
        response: { type: 'array', items: { type: 'integer' } },
      },
      handle: async ({ params, body, manager }) => {
        const description = (body as { description?: unknown } | null)?.description;
        if (typeof description !== 'string') throw nonFieldError('A description is required.');
        const [rows] = (await manager.query('UPDATE tenancy_tenant SET description = $2 WHERE id = $1 RETURNING id', [
          Number(params.tenant_id),
          description,
        ])) as [Array<{ id: number }>];
        // After the write: the refusal must roll it back.
        if (description === 'kept') throw new ProtectedObjectError('The probe keeps this description.');
        return rows.map((row) => row.id);
      },
    },
    {
      method: 'POST',
      path: 'render',
      permission: 'authenticated',
      safePost: true,
      openapi: {
        summary: 'Renders the body as text',
        request: { type: 'object' },
        response: { type: 'string' },
        responseMediaType: 'text/plain',
      },
      handle: async ({ body, scope }) => RouteResponse.text(`${scope.principal.name}: ${JSON.stringify(body)}\n`),
    },
    {
      method: 'GET',
      path: 'geo',
      permission: 'authenticated',
      openapi: { summary: 'An empty feature collection', response: { type: 'object' }, responseMediaType: 'application/geo+json' },
      handle: async () => RouteResponse.json({ type: 'FeatureCollection', features: [] }, 'application/geo+json'),
    },
  ],
  graphqlQueries: ({ typeOf, definition }) => ({
    probe_tenants_named: {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(typeOf('tenancy.tenant')))),
      args: { part: { type: new GraphQLNonNull(GraphQLString) } },
      resolve: (_source, args: { part: string }, context) =>
        context.loaders.list(definition('tenancy.tenant'), { name__ic: [args.part] }, { limit: 10, offset: 0 }),
    },
  }),
});
const graphql = (client: PlatformClient, query: string) => client.post('/graphql/', { query });

/**
 * The plugin shape: PLUGINS selects which available plugins are mounted; a mounted plugin is served
 * and listed, a left-out one serves nothing but keeps its tables, and a bad PLUGINS stops the start.
 */
describe('platform plugins', () => {
  describe('every available plugin mounted (PLUGINS unset)', () => {
    let seeded: SeededApp;
    let api: PlatformClient;
    let base: string;

    beforeAll(async () => {
      ({ seeded, api, base } = await startPlatformApp());
    });

    afterAll(async () => {
      await seeded?.db.end();
      await seeded?.testApp.close();
    });

    it('lists every available plugin with its version in /api/status/ and as NetBox lists plugins', async () => {
      expect((await api.get('/api/status/')).body.plugins).toEqual(
        Object.fromEntries(REGISTERED.map(({ name, version }) => [name, version])),
      );
      expect((await api.get('/api/plugins/')).body).toEqual({
        'installed-plugins': `${base}/api/plugins/installed-plugins/`,
        ...Object.fromEntries(REGISTERED.map(({ name }) => [name, `${base}/api/plugins/${name}/`])),
      });
      expect((await api.get('/api/plugins/installed-plugins/')).body).toEqual(
        REGISTERED.map(({ name, version }) => ({ name, package: name, description: expect.any(String), version })),
      );
      const root = await api.get('/api/plugins/routing/');
      expect(root.status).toBe(200);
      expect(root.body['bgp-routers']).toBe(`${base}${ROUTERS}`);
      // One entry per model the plugin declares.
      expect(Object.keys(root.body)).toHaveLength(AVAILABLE_PLUGINS.find(({ name }) => name === 'routing')!.resources.length);
      expect((await api.get('/api/plugins/nope/')).status).toBe(404);
      expect((await api.as(undefined).get('/api/plugins/')).status).toBe(403);
    });

    it('does not serve or document the routes of a plugin that is not mounted', async () => {
      expect((await api.get('/api/plugins/probe/tenants/1/echo/')).status).toBe(404);
      expect((await api.post('/api/plugins/probe/render/', {})).status).toBe(404);
      const schema = await api.get('/api/schema/');
      expect(Object.keys(schema.body.paths).filter((path) => path.startsWith('/api/plugins/probe/'))).toEqual([]);
    });

    it('serves its REST routes, GraphQL queries and OpenAPI paths', async () => {
      expect((await api.get(ROUTERS)).status).toBe(200);
      const response = await graphql(api, '{ routing_bgp_router_list { id } }');
      expect(response.body).toEqual({ data: { routing_bgp_router_list: [] } });
      const schema = await api.get('/api/schema/');
      expect(Object.keys(schema.body.paths)).toEqual(expect.arrayContaining([ROUTERS, `${ROUTERS}{id}/`]));
    });
  });

  describe('no plugin mounted (PLUGINS empty)', () => {
    let seeded: SeededApp;
    let api: PlatformClient;
    const fx: Record<string, any> = {};

    beforeAll(async () => {
      ({ seeded, api } = await startPlatformApp({ PLUGINS: '' }));
      const site = await api.created('/api/dcim/sites/', { name: 'DC1', slug: 'dc1' });
      const manufacturer = await api.created('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
      const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'MX204', slug: 'mx204' });
      const role = await api.created('/api/dcim/device-roles/', { name: 'Router', slug: 'router' });
      fx.device = await api.created('/api/dcim/devices/', { name: 'rtr1', device_type: deviceType.id, role: role.id, site: site.id });
      const rir = await api.created('/api/ipam/rirs/', { name: 'RFC 6996', slug: 'rfc-6996', is_private: true });
      fx.asn = await api.created('/api/ipam/asns/', { asn: 65000, rir: rir.id });
    });

    afterAll(async () => {
      await seeded?.db.end();
      await seeded?.testApp.close();
    });

    it('answers 404 on its REST routes', async () => {
      expect((await api.get(ROUTERS)).status).toBe(404);
      expect((await api.get(`${ROUTERS}1/`)).status).toBe(404);
      expect((await api.post(ROUTERS, { device: fx.device.id, asn: fx.asn.id })).status).toBe(404);
      expect((await api.get('/api/plugins/routing/')).status).toBe(404);
    });

    it('has no GraphQL queries, OpenAPI paths or status entry for it', async () => {
      const response = await graphql(api, '{ routing_bgp_router_list { id } }');
      expect(response.status).toBe(400);
      expect(response.body.errors[0].message).toContain('Cannot query field "routing_bgp_router_list"');
      expect((await graphql(api, '{ site_list { id } }')).body.data.site_list).toHaveLength(1);
      const schema = await api.get('/api/schema/');
      expect(Object.keys(schema.body.paths).filter((path) => path.startsWith('/api/plugins/'))).toEqual([]);
      expect(Object.keys(schema.body.components.schemas).filter((name) => name.startsWith('Routing'))).toEqual([]);
      const status = (await api.get('/api/status/')).body;
      expect(status.plugins).toEqual({});
      expect(Object.keys(status['installed-apps'])).not.toContain('routing');
      expect((await api.get('/api/plugins/')).body).toEqual({ 'installed-plugins': expect.any(String) });
      expect((await api.get('/api/plugins/installed-plugins/')).body).toEqual([]);
    });

    it('keeps its tables, and deleting what its rows refer to still protects and cascades, recorded in the change log', async () => {
      const [router] = (
        await seeded.db.query('INSERT INTO routing_bgprouter (device_id, asn_id) VALUES ($1, $2) RETURNING id', [fx.device.id, fx.asn.id])
      ).rows as Array<{ id: number }>;

      const protectedAsn = await api.delete(`/api/ipam/asns/${fx.asn.id}/`);
      expect(protectedAsn.status).toBe(409);
      expect(protectedAsn.body.detail).toContain(`BGP router Router ${fx.device.id} AS ${fx.asn.id}`);

      expect((await api.delete(`/api/dcim/devices/${fx.device.id}/`)).status).toBe(204);
      expect(await countRows(seeded.db, 'routing_bgprouter')).toBe(0);
      const changes = await seeded.db.query(
        `SELECT c.action FROM core_objectchange c JOIN core_objecttype t ON t.id = c.changed_object_type_id
          WHERE t.app_label = 'routing' AND t.model = 'bgprouter' AND c.changed_object_id = $1`,
        [router.id],
      );
      expect(changes.rows).toEqual([{ action: 'delete' }]);
    });
  });

  describe('extension points', () => {
    let seeded: SeededApp;
    let api: PlatformClient;

    beforeAll(async () => {
      ({ seeded, api } = await startPlatformApp(
        { PLUGIN_PROBE_GREETING: 'hi', EGRESS_ALLOW: '127.0.0.1' },
        { plugins: [...AVAILABLE_PLUGINS, ProbePlugin] },
      ));
    });

    afterAll(async () => {
      await seeded?.db.end();
      await seeded?.testApp.close();
    });

    beforeEach(() => {
      seen.length = 0;
    });

    it('several subscribers receive each change of their object types, webhooks included, in its transaction', async () => {
      const hook = await api.created('/api/extras/webhooks/', { name: 'hook', payload_url: 'http://127.0.0.1:9/hook' });
      await api.created('/api/extras/event-rules/', {
        name: 'tenants',
        object_types: ['tenancy.tenant'],
        event_types: ['object_created'],
        action_type: 'webhook',
        action_object_type: 'extras.webhook',
        action_object_id: hook.id,
      });
      await api.created(TENANTS, { name: 'Acme', slug: 'acme' });
      expect(seen).toEqual(['hi created Acme']);
      expect(await countRows(seeded.db, 'jobs', `WHERE queue = 'webhook' AND payload->>'webhook_id' = $1`, [String(hook.id)])).toBe(1);

      const refused = await api.post(TENANTS, { name: 'Explode', slug: 'explode' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ name: ['refused by the probe subscriber'] });
      expect(await countRows(seeded.db, 'tenancy_tenant', `WHERE slug = 'explode'`)).toBe(0);
      expect(await countRows(seeded.db, 'jobs', `WHERE queue = 'webhook'`)).toBe(1);
    });

    it('before and after update hooks see the row, the changes and the plugin settings; a refusal writes nothing', async () => {
      const tenant = await api.created(TENANTS, { name: 'Globex', slug: 'globex' });
      seen.length = 0;
      const refused = await api.patch(`${TENANTS}${tenant.id}/`, { name: 'Forbidden' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ name: ['hi: not this name'] });
      expect((await api.get(`${TENANTS}${tenant.id}/`)).body.name).toBe('Globex');
      expect(seen).toEqual([]);

      expect((await api.patch(`${TENANTS}${tenant.id}/`, { name: 'Globex Corp' })).status).toBe(200);
      expect(seen).toEqual(['hi updated Globex Corp', 'renamed Globex to Globex Corp']);
    });

    it('before and after delete hooks: a refusal answers 409 and deletes nothing, not even the other objects of a bulk delete', async () => {
      const kept = await api.created(TENANTS, { name: 'Kept', slug: 'keep' });
      const gone = await api.created(TENANTS, { name: 'Gone', slug: 'gone' });
      seen.length = 0;
      const refused = await api.delete(`${TENANTS}${kept.id}/`);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ detail: 'Unable to delete object. The probe keeps tenant Kept.' });
      expect((await api.delete(TENANTS, [{ id: gone.id }, { id: kept.id }])).status).toBe(409);
      expect(await countRows(seeded.db, 'tenancy_tenant', 'WHERE id = ANY($1)', [[kept.id, gone.id]])).toBe(2);
      expect(seen).toEqual([]);

      expect((await api.delete(`${TENANTS}${gone.id}/`)).status).toBe(204);
      expect(seen).toEqual(['hi deleted Gone', 'deleted Gone']);
    });

    it('routes: a GET with a path parameter gets the parameters, query, settings and the visible rows, outside a transaction', async () => {
      const tenant = await api.created(TENANTS, { name: 'Umbrella', slug: 'umbrella' });
      const echo = await api.get(`/api/plugins/probe/tenants/${tenant.id}/echo/?note=x`);
      expect(echo.status).toBe(200);
      expect(echo.headers.get('content-type')).toMatch(/^application\/json/);
      expect(echo.body).toEqual({
        tenant: 'Umbrella',
        params: { tenant_id: String(tenant.id) },
        note: 'x',
        greeting: 'hi',
        in_transaction: false,
      });
      expect((await api.get(`/api/plugins/probe/tenants/${tenant.id}/echo`)).status).toBe(200);
      // Not an integer of the declared range: no such URL. A missing tenant: the handler's 404.
      for (const id of ['abc', '0', '-1', '01', '99999999999']) {
        const response = await api.get(`/api/plugins/probe/tenants/${id}/echo/`);
        expect({ id, status: response.status, body: response.body }).toEqual({ id, status: 404, body: { detail: 'Not found.' } });
      }
      expect((await api.get('/api/plugins/probe/tenants/999999/echo/')).body).toEqual({ detail: 'Not found.' });
    });

    it('routes: the declared permission decides; read-only tokens may GET and safePost, not POST; no credentials is 403', async () => {
      const tenant = await api.created(TENANTS, { name: 'Hooli', slug: 'hooli' });
      const readOnly = api.as(await provisionToken(seeded.api, seeded.w.root.username, PASSWORD, { write_enabled: false }));
      const user = api.as(await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
      const anonymous = api.as(undefined);

      expect((await readOnly.get(`/api/plugins/probe/tenants/${tenant.id}/echo/`)).status).toBe(200);
      const rendered = await readOnly.post('/api/plugins/probe/render/', { a: 1 });
      expect(rendered.status).toBe(200);
      expect(rendered.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(rendered.text).toBe(`${seeded.w.root.username}: {"a":1}\n`);
      const refused = await readOnly.post(`/api/plugins/probe/tenants/${tenant.id}/describe/`, { description: 'ro' });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ detail: expect.any(String) });

      // 'authenticated' lets any caller in; a model permission needs to be held.
      expect((await user.post('/api/plugins/probe/render/', {})).status).toBe(200);
      const geo = await user.get('/api/plugins/probe/geo/');
      expect(geo.headers.get('content-type')).toMatch(/^application\/geo\+json/);
      expect(JSON.parse(geo.text)).toEqual({ type: 'FeatureCollection', features: [] });
      expect(await user.get(`/api/plugins/probe/tenants/${tenant.id}/echo/`)).toMatchObject({
        status: 403,
        body: { detail: 'You do not have permission to perform this action.' },
      });
      expect((await user.get('/api/plugins/probe/tenants/abc/echo/')).status).toBe(404);
      for (const response of [
        await anonymous.get(`/api/plugins/probe/tenants/${tenant.id}/echo/`),
        await anonymous.post('/api/plugins/probe/render/', {}),
        await anonymous.get('/api/plugins/probe/geo/'),
      ]) {
        expect(response.status).toBe(403);
      }
      expect(await countRows(seeded.db, 'tenancy_tenant', `WHERE description = 'ro'`)).toBe(0);
    });

    it('routes: a POST writes in its transaction; its errors answer 400 and 409 in the platform shapes', async () => {
      const tenant = await api.created(TENANTS, { name: 'Stark', slug: 'stark' });
      const described = await api.post(`/api/plugins/probe/tenants/${tenant.id}/describe/`, { description: 'armour' });
      expect(described.status).toBe(200);
      expect(described.body).toEqual([tenant.id]);
      expect((await api.get(`${TENANTS}${tenant.id}/`)).body.description).toBe('armour');
      expect(await api.post(`/api/plugins/probe/tenants/${tenant.id}/describe/`, {})).toMatchObject({
        status: 400,
        body: { non_field_errors: ['A description is required.'] },
      });
      expect(await api.post(`/api/plugins/probe/tenants/${tenant.id}/describe/`, { description: 'kept' })).toMatchObject({
        status: 409,
        body: { detail: 'The probe keeps this description.' },
      });
      expect((await api.get(`${TENANTS}${tenant.id}/`)).body.description).toBe('armour');
      expect((await api.get(`/api/plugins/probe/tenants/${tenant.id}/describe/`)).status).toBe(404);
    });

    it('routes: listed in the plugin API root when they take no parameters, and documented in /api/schema/', async () => {
      const root = await api.get('/api/plugins/probe/');
      expect(root.body).toEqual({
        render: expect.stringMatching(/\/api\/plugins\/probe\/render\/$/),
        geo: expect.stringMatching(/\/api\/plugins\/probe\/geo\/$/),
      });
      const { paths } = (await api.get('/api/schema/')).body;
      expect(paths['/api/plugins/probe/tenants/{tenant_id}/echo/'].get).toMatchObject({
        operationId: 'probe_tenants_echo_retrieve',
        tags: ['probe'],
        parameters: [
          { name: 'tenant_id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
          { name: 'note', in: 'query' },
        ],
        responses: { '200': { content: { 'application/json': { schema: { required: ['tenant', 'params', 'note', 'greeting'] } } } } },
      });
      expect(paths['/api/plugins/probe/tenants/{tenant_id}/describe/'].post).toMatchObject({
        operationId: 'probe_tenants_describe_create',
        requestBody: { content: { 'application/json': { schema: { required: ['description'] } } } },
      });
      expect(paths['/api/plugins/probe/render/'].post).toMatchObject({
        operationId: 'probe_render_create',
        responses: { '200': { content: { 'text/plain': { schema: { type: 'string' } } } } },
      });
      expect(paths['/api/plugins/probe/geo/'].get.operationId).toBe('probe_geo_list');
    });

    it('serves the plugin GraphQL queries beside the generated ones', async () => {
      await api.created(TENANTS, { name: 'Initech', slug: 'initech' });
      const response = await graphql(
        api,
        '{ probe_tenants_named(part: "nitec") { name slug } tenant_list(filters: { slug: ["initech"] }) { id } }',
      );
      expect(response.body.data.probe_tenants_named).toEqual([{ name: 'Initech', slug: 'initech' }]);
      expect(response.body.data.tenant_list).toHaveLength(1);
    });
  });

  describe('routing uses them', () => {
    let seeded: SeededApp;
    let api: PlatformClient;
    let viewer: PlatformClient;
    const fx: Record<string, any> = {};

    beforeAll(async () => {
      ({ seeded, api } = await startPlatformApp());
      const site = await api.created('/api/dcim/sites/', { name: 'DC1', slug: 'dc1' });
      const manufacturer = await api.created('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
      const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'MX204', slug: 'mx204' });
      const role = await api.created('/api/dcim/device-roles/', { name: 'Router', slug: 'router' });
      const device = await api.created('/api/dcim/devices/', { name: 'rtr1', device_type: deviceType.id, role: role.id, site: site.id });
      const rir = await api.created('/api/ipam/rirs/', { name: 'RFC 6996', slug: 'rfc-6996', is_private: true });
      const asn = await api.created('/api/ipam/asns/', { asn: 65000, rir: rir.id });
      const router = await api.created(ROUTERS, { device: device.id, asn: asn.id });
      const scope = await api.created('/api/plugins/routing/bgp-scopes/', { router: router.id });
      for (const [index, status] of ['active', 'active', 'planned'].entries()) {
        const ip = await api.created('/api/ipam/ip-addresses/', { address: `192.0.2.${index + 1}/32` });
        fx[`peer${index}`] = await api.created('/api/plugins/routing/bgp-peers/', {
          scope: scope.id,
          peer: ip.id,
          status,
          name: `peer${index}`,
        });
      }
      // An ordinary user holds no permission on BGP peers.
      viewer = api.as(await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
    });

    afterAll(async () => {
      await seeded?.db.end();
      await seeded?.testApp.close();
    });

    it('GET bgp-peers/summary/ (a collection action) counts the visible peers by status, with the list filters', async () => {
      const summary = await api.get('/api/plugins/routing/bgp-peers/summary/');
      expect(summary.status).toBe(200);
      expect(summary.body).toEqual({ count: 3, by_status: { active: 2, planned: 1, offline: 0, decommissioned: 0 } });
      const filtered = await api.get('/api/plugins/routing/bgp-peers/summary/?status=planned');
      expect(filtered.body).toEqual({ count: 1, by_status: { active: 0, planned: 1, offline: 0, decommissioned: 0 } });
      expect((await viewer.get('/api/plugins/routing/bgp-peers/summary/')).status).toBe(403);
      // The action's name is not read as an object id, and objects are still served.
      expect((await api.get(`/api/plugins/routing/bgp-peers/${fx.peer0.id}/`)).body.name).toBe('peer0');
      expect((await api.post('/api/plugins/routing/bgp-peers/summary/', {})).status).toBe(404);
    });

    it('a prefix list with entries cannot change family (a beforeUpdate hook); without entries it can', async () => {
      const list = await api.created('/api/plugins/routing/prefix-lists/', { name: 'CUSTOMERS', family: 'ipv4' });
      expect((await api.patch(`/api/plugins/routing/prefix-lists/${list.id}/`, { family: 'ipv6' })).status).toBe(200);
      expect((await api.patch(`/api/plugins/routing/prefix-lists/${list.id}/`, { family: 'ipv4' })).status).toBe(200);
      await api.created('/api/plugins/routing/prefix-list-entries/', {
        prefix_list: list.id,
        sequence: 10,
        action: 'permit',
        prefix: '10.0.0.0/8',
      });
      const refused = await api.patch(`/api/plugins/routing/prefix-lists/${list.id}/`, { family: 'ipv6', description: 'v6 now' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ family: ['The family of a prefix list with entries cannot change (1 entries).'] });
      expect((await api.get(`/api/plugins/routing/prefix-lists/${list.id}/`)).body).toMatchObject({
        family: { value: 'ipv4' },
        description: '',
      });
      expect((await api.patch(`/api/plugins/routing/prefix-lists/${list.id}/`, { description: 'same family' })).status).toBe(200);
    });

    it('GraphQL routing_prefix_list_by_name (a plugin query)', async () => {
      await api.created('/api/plugins/routing/prefix-lists/', { name: 'BOGONS', family: 'ipv6' });
      const response = await graphql(
        api,
        '{ found: routing_prefix_list_by_name(name: "BOGONS") { name family } missing: routing_prefix_list_by_name(name: "NONE") { name } }',
      );
      expect(response.body).toEqual({ data: { found: { name: 'BOGONS', family: 'ipv6' }, missing: null } });
    });

    it('documents its collection action, and the platform object actions, in /api/schema/', async () => {
      const { paths } = (await api.get('/api/schema/')).body;
      expect(paths['/api/plugins/routing/bgp-peers/summary/'].get).toMatchObject({
        operationId: 'routing_bgp_peers_summary_list',
        responses: { '200': { content: { 'application/json': { schema: { required: ['count', 'by_status'] } } } } },
      });
      expect(paths['/api/dcim/front-ports/{id}/trace/'].get.operationId).toBe('dcim_front_ports_trace_retrieve');
      expect(paths['/api/dcim/devices/{id}/render-config/'].post.operationId).toBe('dcim_devices_render_config_create');
    });
  });

  describe('a PLUGINS the process cannot honour', () => {
    let workDir: string;

    beforeEach(() => {
      workDir = mkdtempSync(join(tmpdir(), 'pki-plugins-'));
    });

    afterEach(() => {
      rmSync(workDir, { recursive: true, force: true });
    });

    it('names an unknown plugin in one line and exits 1 before opening a database', async () => {
      const server = ServerProcess.spawn({ PLUGINS: 'routing,nope' }, workDir);
      expect(await server.waitForExit()).toBe(1);
      expect(server.logs().trim().split('\n')).toEqual([
        `Invalid configuration: PLUGINS names "nope", which is not an available plugin (available: ${REGISTERED.map(({ name }) => name).join(', ')})`,
      ]);
    });

    it('checks PLUGINS from the manifests alone: the built check loads no plugin model and no framework module', () => {
      const dist = join(dirname(BUILT_MAIN), '..');
      const loaded = JSON.parse(
        execFileSync(
          process.execPath,
          [
            '-e',
            'require(process.argv[1]); console.log(JSON.stringify(Object.keys(require.cache)))',
            join(dist, 'src', 'plugin-configuration-check.js'),
          ],
          {
            encoding: 'utf8',
          },
        ),
      ) as string[];
      const plugins = join(dist, 'src', 'plugins');
      const pluginModules = loaded.filter((file) => file.startsWith(`${plugins}/`));
      expect(pluginModules).toEqual(expect.arrayContaining(REGISTERED.map(({ name }) => join(plugins, name, 'manifest.js'))));
      expect(pluginModules.filter((file) => file.endsWith('/index.js') || file.endsWith('.resources.js'))).toEqual([]);
      expect(loaded.filter((file) => file.startsWith(join(dist, 'src', 'platform', 'framework')))).toEqual([]);
    });

    it('names an unknown setting of an available plugin', async () => {
      const server = ServerProcess.spawn({ PLUGIN_ROUTING_COLOUR: 'blue' }, workDir);
      expect(await server.waitForExit()).toBe(1);
      expect(server.logs().trim().split('\n')).toEqual([
        'Invalid configuration: PLUGIN_ROUTING_COLOUR is not a setting of plugin routing (its settings: none)',
      ]);
    });
  });
});
