import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countRows, PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';
import { ServerProcess } from './support/server-process';

const ROUTERS = '/api/plugins/routing/bgp-routers/';
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

    it('lists routing with its version in /api/status/ and as NetBox lists plugins', async () => {
      expect((await api.get('/api/status/')).body.plugins).toEqual({ routing: '1.0.0' });
      expect((await api.get('/api/plugins/')).body).toEqual({
        'installed-plugins': `${base}/api/plugins/installed-plugins/`,
        routing: `${base}/api/plugins/routing/`,
      });
      expect((await api.get('/api/plugins/installed-plugins/')).body).toEqual([
        { name: 'routing', package: 'routing', description: expect.any(String), version: '1.0.0' },
      ]);
      const root = await api.get('/api/plugins/routing/');
      expect(root.status).toBe(200);
      expect(root.body['bgp-routers']).toBe(`${base}${ROUTERS}`);
      expect(Object.keys(root.body)).toHaveLength(9);
      expect((await api.get('/api/plugins/nope/')).status).toBe(404);
      expect((await api.as(undefined).get('/api/plugins/')).status).toBe(403);
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
        'Invalid configuration: PLUGINS names "nope", which is not an available plugin (available: routing)',
      ]);
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
