import { ApiClient } from './support/api-client';
import { countRows, PlatformClient, startPlatformApp } from './support/platform-client';
import { SeededApp } from './support/seeded-app';

/**
 * Input no endpoint can take is a 400 naming the field, never a 500: NUL characters (PostgreSQL
 * text cannot hold them), integers beyond the database's range, JSON nested absurdly deep, path ids
 * not written canonically. And a NetBox-sized bulk body fits while a larger one gets 413.
 */

const TAGS = '/api/extras/tags/';
const NUL_MESSAGE = 'Null characters are not allowed.';
const nulProblem = (...loc: Array<string | number>) => ({ detail: [{ loc, msg: NUL_MESSAGE, type: 'nul_byte' }] });
const rangeProblem = (location: string, field: string, min: number) => ({
  detail: [{ loc: [location, field], msg: `${field} must be an integer from ${min} to 2147483647`, type: 'integerInRange' }],
});
/** `[[[…]]]` nested `depth` levels. */
const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('bad input', () => {
  let seeded: SeededApp;
  let api: ApiClient;
  let platform: PlatformClient;
  let rootToken: string;

  beforeAll(async () => {
    ({ seeded, api: platform } = await startPlatformApp());
    api = seeded.api;
    rootToken = seeded.w.root.token;
  });

  afterAll(async () => {
    await seeded.db.end();
    await seeded.testApp.close();
  });

  describe('NUL characters', () => {
    it('refuses them in inventory query parameters with 400 naming the parameter', async () => {
      for (const path of ['/api/dcim/sites/?q=%00', `${TAGS}?q=%00`, `${TAGS}?name=a%00b`, `${TAGS}?slug__ic=%00&limit=5`]) {
        const response = await platform.get(path);
        const parameter = new URL(path, 'http://x').searchParams.keys().next().value as string;
        expect({ path, status: response.status, body: response.body }).toEqual({ path, status: 400, body: { [parameter]: [NUL_MESSAGE] } });
      }
    });

    it('refuses them in inventory JSON bodies, in values and nested keys, and stores nothing', async () => {
      const single = await platform.post(TAGS, { name: 'a\u0000b', slug: 'ab' });
      expect(single.status).toBe(400);
      expect(single.body).toEqual({ name: [NUL_MESSAGE] });

      const bulk = await platform.post(TAGS, [
        { name: 'ok', slug: 'ok' },
        { name: 'fine', slug: 'fine', custom_fields: { 'x\u0000': 1 } },
      ]);
      expect(bulk.status).toBe(400);
      expect(bulk.body).toEqual({ '1.custom_fields.x': [NUL_MESSAGE] });
      expect(await countRows(seeded.db, 'extras_tag')).toBe(0);
    });

    it('refuses them in GraphQL variables', async () => {
      const response = await platform.post('/graphql/', {
        query: 'query ($name: [String]) { tag_list(name: $name) { id } }',
        variables: { name: ['\u0000'] },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ 'variables.name.0': [NUL_MESSAGE] });
    });

    it('refuses them on the PKI API in the query, the body and the path', async () => {
      const query = await api.get('/users/?skip=%00', rootToken);
      expect(query.status).toBe(400);
      expect(query.body).toEqual(nulProblem('query', 'skip'));

      const body = await api.post('/organizations/', { name: 'Org\u0000', description: 'x' }, rootToken);
      expect(body.status).toBe(400);
      expect(body.body).toEqual(nulProblem('body', 'name'));

      const login = await api.login('root\u0000', 'x');
      expect(login.status).toBe(400);
      expect(login.body).toEqual(nulProblem('body', 'username'));

      const path = await fetch(`${seeded.testApp.baseUrl}/crl/root%00.crl`);
      expect(path.status).toBe(400);
      expect(await path.json()).toEqual(nulProblem('path'));
    });
  });

  describe('unpaired surrogates', () => {
    const message = 'Unpaired surrogate characters are not allowed.';

    it('refuses a lone surrogate in an inventory JSON field (which jsonb cannot store) with 400 naming it, and stores nothing', async () => {
      const response = await platform.post('/api/extras/config-templates/', {
        name: 'surrogate',
        template_code: 'x',
        environment_params: { trim_blocks: '\ud800' },
      });
      expect({ status: response.status, body: response.body }).toEqual({
        status: 400,
        body: { 'environment_params.trim_blocks': [message] },
      });
      expect(await countRows(seeded.db, 'extras_configtemplate')).toBe(0);

      const key = await platform.post(TAGS, { name: 'k', slug: 'k', custom_fields: { 'a\udc00': 1 } });
      expect({ status: key.status, body: key.body }).toEqual({ status: 400, body: { 'custom_fields.a\ufffd': [message] } });
    });

    it('refuses one on the PKI API with 400 naming the field, and accepts a surrogate pair', async () => {
      const lone = await api.post('/organizations/', { name: 'Org \ud83d' }, rootToken);
      expect(lone.status).toBe(400);
      expect(lone.body).toEqual({ detail: [{ loc: ['body', 'name'], msg: message, type: 'unpaired_surrogate' }] });

      const pair = await api.post('/organizations/', { name: 'Org \ud83d\ude00' }, rootToken);
      expect(pair.status).toBe(201);
      expect(pair.body.name).toBe('Org 😀');
    });
  });

  describe('integers beyond the database range', () => {
    it('answers PKI queries and bodies with 400 naming the field', async () => {
      const skip = await api.get('/certificates/?skip=99999999999999999999', rootToken);
      expect(skip.status).toBe(400);
      expect(skip.body).toEqual(rangeProblem('query', 'skip', 0));

      for (const caId of ['1e99', '3000000000', '0x1', '+1', '']) {
        const response = await api.get(`/certificates/?ca_id=${encodeURIComponent(caId)}`, rootToken);
        expect({ caId, status: response.status, body: response.body }).toEqual({
          caId,
          status: 400,
          body: rangeProblem('query', 'ca_id', 1),
        });
      }
      expect((await api.get('/certificates/?ca_id=1&skip=0&limit=5', rootToken)).status).toBe(200);

      const user = await api.post(
        '/users/',
        { username: 'big', email: 'big@example.com', password: 'correct-horse-battery', role: 'user', organization_id: 3_000_000_000 },
        rootToken,
      );
      expect(user.status).toBe(400);
      expect(user.body).toEqual(rangeProblem('body', 'organization_id', 1));

      const audit = await api.get('/audit-logs/?resource_id=2147483648', rootToken);
      expect(audit.status).toBe(400);
      expect(audit.body).toEqual(rangeProblem('query', 'resource_id', 1));
    });

    it('answers inventory filters, bulk ids and integer fields with 400 naming the field', async () => {
      const filter = await platform.get(`${TAGS}?id=3000000000`);
      expect(filter.status).toBe(400);
      expect(filter.body).toEqual({ id: ['Ensure this value is less than or equal to 2147483647.'] });
      expect((await platform.get(`${TAGS}?id=-2147483649`)).body).toEqual({
        id: ['Ensure this value is greater than or equal to -2147483648.'],
      });

      const bulkDelete = await platform.delete(TAGS, [{ id: 2_147_483_648 }]);
      expect(bulkDelete.status).toBe(400);
      expect(bulkDelete.body).toEqual([{ id: ['Ensure this value is less than or equal to 2147483647.'] }]);

      const provider = await platform.created('/api/circuits/providers/', { name: 'Carrier', slug: 'carrier' });
      const type = await platform.created('/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' });
      const circuit = await platform.post('/api/circuits/circuits/', {
        cid: 'C-1',
        provider: provider.id,
        type: type.id,
        commit_rate: 3_000_000_000,
      });
      expect(circuit.status).toBe(400);
      expect(circuit.body).toEqual({ commit_rate: ['Ensure this value is less than or equal to 2147483647.'] });
    });

    it('answers id filters written by hand (trees, cable ends, places, plugins) beyond the integer range with 400 naming the filter', async () => {
      const filters = [
        '/api/dcim/sites/?region_id',
        '/api/dcim/sites/?group_id',
        '/api/dcim/cables/?device_id',
        '/api/dcim/cables/?site_id',
        '/api/circuits/circuit-terminations/?site_id',
        '/api/circuits/circuit-terminations/?location_id',
        '/api/circuits/circuit-terminations/?region_id',
        '/api/circuits/circuit-terminations/?site_group_id',
        '/api/plugins/fms/fiber-cables/?terminated_device_id',
        '/api/plugins/fms/buffer-tubes/?closure_id',
        '/api/plugins/peering/peer-asn/?peerdb_id',
        '/api/plugins/peering/peering-fabric/?tenant_group_id',
        '/api/plugins/peering/peering-connection/?device_id',
        '/api/plugins/notices/maintenance/?site_id',
        '/api/plugins/notices/maintenance/?region_id',
        '/api/plugins/notices/outage/?site_group_id',
        '/api/plugins/notices/outage/?location_id',
        '/api/plugins/notices/impact/?site_id',
        '/api/plugins/notices/impact/?region_id',
      ];
      for (const filter of filters) {
        const name = filter.split('?')[1];
        const response = await platform.get(`${filter}=2147483648`);
        expect({ filter, status: response.status, body: response.body }).toEqual({
          filter,
          status: 400,
          body: { [name]: ['Ensure this value is less than or equal to 2147483647.'] },
        });
        expect({ filter, status: (await platform.get(`${filter}=2147483647`)).status }).toEqual({ filter, status: 200 });
      }
      expect((await platform.get('/api/plugins/fms/buffer-tubes/?closure_id=-1')).body).toEqual({ closure_id: ['Enter a whole number.'] });
    });
  });

  describe('deeply nested JSON', () => {
    it('answers an anonymous /auth/refresh with 400 too_deep', async () => {
      const response = await api.post('/auth/refresh', { refresh_token: nested(2000) });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        detail: [{ loc: ['body', 'refresh_token'], msg: 'Nested deeper than 32 levels.', type: 'too_deep' }],
      });
    });

    it('answers PKI and inventory writes with 400 and accepts nesting up to the limit', async () => {
      const pki = await api.post('/organizations/', nested(2000), rootToken);
      expect(pki.status).toBe(400);
      expect(pki.body).toEqual({ detail: [{ loc: ['body'], msg: 'Nested deeper than 32 levels.', type: 'too_deep' }] });

      const inventory = await platform.post(TAGS, { name: 'deep', slug: 'deep', custom_fields: { x: nested(2000) } });
      expect(inventory.status).toBe(400);
      expect(inventory.body).toEqual({ custom_fields: ['Nested deeper than 32 levels.'] });

      // 32 levels in all pass the guard and reach ordinary validation.
      const atLimit = await api.post('/organizations/', { name: nested(31) }, rootToken);
      expect(atLimit.status).toBe(400);
      expect(atLimit.body.detail[0].loc).toEqual(['body', 'name']);
      expect(atLimit.body.detail[0].type).not.toBe('too_deep');
    });
  });

  describe('path ids', () => {
    it('accept only canonical decimal ids on the PKI API', async () => {
      const id = seeded.w.user1.id;
      expect((await api.get(`/users/${id}`, rootToken)).status).toBe(200);
      for (const written of [`+${id}`, `0x${id.toString(16)}`, `${id}e0`, `%20${id}`, `0${id}`, `${id}.0`, '2147483648']) {
        const response = await api.get(`/users/${written}`, rootToken);
        expect({ written, status: response.status, body: response.body }).toEqual({
          written,
          status: 400,
          body: { detail: [{ loc: ['path', 'user_id'], msg: 'must be an integer from 1 to 2147483647', type: 'id' }] },
        });
      }
    });

    it('accept only canonical decimal ids on the inventory API', async () => {
      const tag = await platform.created(TAGS, { name: 'canonical', slug: 'canonical' });
      expect((await platform.get(`${TAGS}${tag.id}/`)).status).toBe(200);
      for (const written of [`+${tag.id}`, `0x${tag.id.toString(16)}`, `${tag.id}e0`, `%20${tag.id}`, `0${tag.id}`, '2147483648']) {
        const response = await platform.get(`${TAGS}${written}/`);
        expect({ written, status: response.status }).toEqual({ written, status: 404 });
      }
      await platform.delete(`${TAGS}${tag.id}/`);
    });
  });

  describe('body size', () => {
    it('takes a NetBox-style bulk create of 2000 objects in one POST', async () => {
      const tags = Array.from({ length: 2000 }, (_, index) => ({
        name: `bulk tag ${index}`,
        slug: `bulk-tag-${index}`,
        color: '9e9e9e',
        description: 'created in one request, as a NetBox bulk import does',
      }));
      expect(JSON.stringify(tags).length).toBeGreaterThan(200_000);
      const response = await platform.post(TAGS, tags);
      expect(response.status).toBe(201);
      expect(response.body).toHaveLength(2000);
      expect(await countRows(seeded.db, 'extras_tag', "WHERE slug LIKE 'bulk-tag-%'")).toBe(2000);
    }, 180_000);

    it('answers a body beyond MAX_BODY_SIZE (2.5 MB by default) with 413', async () => {
      const response = await platform.post(TAGS, { name: 'huge', slug: 'huge', description: 'x'.repeat(2_700_000) });
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ detail: 'Request body is too large' });
      const pki = await api.post('/organizations/', { name: 'huge', description: 'x'.repeat(2_700_000) }, rootToken);
      expect(pki.status).toBe(413);
      expect(pki.body).toEqual({ detail: 'Request body is too large' });
    });
  });
});
