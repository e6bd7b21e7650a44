import { PASSWORD } from '../../../../test/support/api-client';
import { rfc7946Problems } from './geojson-schema';
import { PlatformClient, provisionToken, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const P = '/api/plugins/pathways';
const G = `${P}/geo`;
const point = (longitude: number, latitude: number) => ({ type: 'Point', coordinates: [longitude, latitude] });
const line = (...coordinates: number[][]) => ({ type: 'LineString', coordinates });
/** The box the bbox tests look through. */
const BOX = '9.9,9.9,10.6,10.6';

/**
 * The GeoJSON layers: geometry and properties of each, bbox by exact intersection, exclude_status,
 * the feature cap, ETag/304, info/ counts and permissions. Every collection is checked against RFC 7946.
 */
describe('platform pathways plugin: GeoJSON layers', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  const fx: Record<string, any> = {};

  /** GET of a layer that must answer 200 with an RFC 7946 FeatureCollection. */
  const collection = async (path: string, client = root) => {
    const response = await client.get(path);
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    expect(response.headers.get('content-type')).toMatch(/^application\/geo\+json/);
    expect(rfc7946Problems(response.body)).toEqual([]);
    return response.body;
  };
  const names = async (path: string, client = root) =>
    ((await collection(path, client)).features as any[]).map((feature) => feature.properties.name ?? feature.properties.cid).sort();

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    fx.site = await root.created('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1' });
    const structure = (name: string, geometry: object, extra: object = {}) =>
      root.created(`${P}/structures/`, { name, geometry, ...extra });
    fx.inside = await structure('S-in', point(10, 10), {
      structure_type: 'manhole',
      site: fx.site.id,
      elevation: 2.5,
      installation_date: '2024-05-01',
    });
    fx.retired = await structure('S-retired', point(10.5, 10.5), { status: 'retired', structure_type: 'pole' });
    fx.outside = await structure('S-out', point(20, 20), { status: 'planned', structure_type: 'pole' });
    fx.antimeridian = await structure('S-anti', point(179.5, 0));
    // Crosses the box with no vertex inside it.
    fx.crossing = await root.created(`${P}/conduits/`, {
      label: 'crossing',
      material: 'pvc',
      inner_diameter: 40,
      outer_diameter: 50,
      depth: 1.2,
      start_structure: fx.inside.id,
      path: line([10, 10], [9.5, 10.3], [11, 10.3]),
    });
    // Its bounding box overlaps the box; the line itself passes the corner outside.
    fx.nearMiss = await root.created(`${P}/aerial-spans/`, {
      label: 'near miss',
      status: 'construction',
      path: line([9.5, 10.0], [9.5, 11.0], [10.3, 11.0]),
    });
    fx.bank = await root.created(`${P}/conduit-banks/`, { label: 'bank', configuration: '2x2', path: line([10.1, 10.1], [10.2, 10.2]) });
    fx.inBank = await root.created(`${P}/conduits/`, { label: 'in bank', conduit_bank: fx.bank.id, bank_position: 'A1' });
    fx.buried = await root.created(`${P}/direct-buried/`, {
      label: 'buried',
      status: 'abandoned',
      path: line([10.05, 10.05], [10.4, 10.05]),
    });
    fx.buriedFar = await root.created(`${P}/direct-buried/`, { label: 'far buried', path: line([30, 30], [30.1, 30]) });
    fx.provider = await root.created('/api/circuits/providers/', { name: 'Carrier', slug: 'carrier' });
    fx.circuitType = await root.created('/api/circuits/circuit-types/', { name: 'Dark fiber', slug: 'dark-fiber' });
    fx.circuit = await root.created('/api/circuits/circuits/', {
      cid: 'DF-1',
      provider: fx.provider.id,
      type: fx.circuitType.id,
      status: 'active',
    });
    await root.created(`${P}/circuit-geometries/`, { circuit: fx.circuit.id, path: line([10, 10], [10.3, 10.4]) });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it('the schema the layers are checked against refuses what RFC 7946 refuses', () => {
    const feature = (geometry: object) => ({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry, properties: {} }] });
    expect(rfc7946Problems(feature(point(10, 10)))).toEqual([]);
    expect(rfc7946Problems(feature(point(10, 91)))).not.toEqual([]);
    expect(rfc7946Problems(feature(line([1, 1])))).not.toEqual([]);
    expect(rfc7946Problems({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: point(1, 1) }] })).not.toEqual([]);
    expect(rfc7946Problems({ type: 'Feature', geometry: null, properties: {} })).not.toEqual([]);
  });

  describe('each layer', () => {
    it('structures/: Points with id, name, structure_type, site, elevation, installation_date and the status as value, label, colour', async () => {
      const body = await collection(`${G}/structures/`);
      expect(body).toMatchObject({ type: 'FeatureCollection', truncated: false, total_count: 4 });
      const inside = body.features.find((feature: any) => feature.properties.name === 'S-in');
      expect(inside).toEqual({
        type: 'Feature',
        id: fx.inside.id,
        geometry: point(10, 10),
        properties: {
          id: fx.inside.id,
          name: 'S-in',
          structure_type: 'manhole',
          status: { value: 'active', label: 'Active', color: 'green' },
          site: 'AMS1',
          site_name: 'AMS1',
          elevation: 2.5,
          installation_date: '2024-05-01',
        },
      });
    });

    it('conduits/: LineStrings of conduits outside banks, with the conduit properties', async () => {
      const body = await collection(`${G}/conduits/`);
      expect(body.features).toHaveLength(1);
      const [feature] = body.features;
      expect(feature.geometry.type).toBe('LineString');
      expect(feature.properties).toEqual({
        id: fx.crossing.id,
        name: 'crossing',
        label: 'crossing',
        pathway_type: 'conduit',
        status: { value: 'active', label: 'Active', color: 'green' },
        start_structure: 'S-in',
        end_structure: null,
        length: fx.crossing.geo_length,
        geo_length: fx.crossing.geo_length,
        material: 'pvc',
        inner_diameter: 40,
        outer_diameter: 50,
        depth: 1.2,
      });
    });

    it('conduit-banks/, aerial-spans/, direct-buried/: their kind only; banks add configuration and conduit_count', async () => {
      const banks = await collection(`${G}/conduit-banks/`);
      expect(
        banks.features.map((feature: any) => [feature.geometry.type, feature.properties.configuration, feature.properties.conduit_count]),
      ).toEqual([['LineString', '2x2', 1]]);
      expect(await names(`${G}/aerial-spans/`)).toEqual(['near miss']);
      const buried = await collection(`${G}/direct-buried/`);
      expect(buried.features.map((feature: any) => feature.properties.pathway_type)).toEqual(['direct_buried', 'direct_buried']);
    });

    it("pathways/: every kind with a path (not the conduit in a bank), ids the pathways' own (one id space); filtered by pathway_type", async () => {
      const body = await collection(`${G}/pathways/`);
      expect(body.features.map((feature: any) => feature.properties.name).sort()).toEqual([
        'bank',
        'buried',
        'crossing',
        'far buried',
        'near miss',
      ]);
      const ids = body.features.map((feature: any) => feature.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toContain(fx.crossing.id);
      expect(body.features.find((feature: any) => feature.id === fx.crossing.id).properties).toMatchObject({
        id: fx.crossing.id,
        pathway_type: 'conduit',
      });
      expect(await names(`${G}/pathways/?pathway_type=conduit`)).toEqual(['crossing']);
    });

    it('circuits/: LineStrings with the circuit properties', async () => {
      const body = await collection(`${G}/circuits/`);
      expect(body.features).toEqual([
        {
          type: 'Feature',
          id: expect.any(Number),
          geometry: line([10, 10], [10.3, 10.4]),
          properties: {
            id: fx.circuit.id,
            cid: 'DF-1',
            provider: 'Carrier',
            circuit_type: 'Dark fiber',
            status: 'active',
            provider_reference: null,
          },
        },
      ]);
    });
  });

  describe('bbox', () => {
    it('selects exactly what meets the box: the crossing line included, the near miss and the far ones left out', async () => {
      expect(await names(`${G}/structures/?bbox=${BOX}`)).toEqual(['S-in', 'S-retired']);
      expect(await names(`${G}/pathways/?bbox=${BOX}`)).toEqual(['bank', 'buried', 'crossing']);
      expect(await names(`${G}/aerial-spans/?bbox=${BOX}`)).toEqual([]);
      expect(await names(`${G}/aerial-spans/?bbox=9,9,11,11.5`)).toEqual(['near miss']);
      expect(await names(`${G}/circuits/?bbox=${BOX}`)).toEqual(['DF-1']);
    });

    it('honours a box crossing the antimeridian (west greater than east)', async () => {
      expect(await names(`${G}/structures/?bbox=179,-1,-179,1`)).toEqual(['S-anti']);
      expect(await names(`${G}/structures/?bbox=-179,-1,179,1`)).toEqual([]);
    });

    it('takes a line over the antimeridian the short way: found at ±180, not at Greenwich', async () => {
      const pacific = await root.created(`${P}/aerial-spans/`, { label: 'pacific', path: line([179.9, 0.1], [-179.9, -0.1]) });
      try {
        expect(await names(`${G}/aerial-spans/?bbox=-1,-1,1,1`)).toEqual([]);
        expect(await names(`${G}/aerial-spans/?bbox=-90,-1,90,1`)).toEqual([]);
        expect(await names(`${G}/aerial-spans/?bbox=179,-1,-179,1`)).toEqual(['pacific']);
        expect(await names(`${G}/aerial-spans/?bbox=179.95,-1,180,1`)).toEqual(['pacific']);
        expect(await names(`${G}/aerial-spans/?bbox=-180,-1,-179.95,1`)).toEqual(['pacific']);
        // Where it crosses ±180 it is at latitude 0; a box north of that misses it.
        expect(await names(`${G}/aerial-spans/?bbox=179.99,0.05,-179.99,1`)).toEqual([]);
        expect((await root.get(`${G}/info/?bbox=-1,-1,1,1`)).body.counts.aerial_spans).toBe(0);
      } finally {
        expect((await root.delete(`${P}/aerial-spans/${pacific.id}/`)).status).toBe(204);
      }
    });

    it.each([
      ['0x10,0,20,10', /four comma-separated numbers/],
      ['0,0,1e1,0b1', /four comma-separated numbers/],
      ['Infinity,0,1,1', /four comma-separated numbers/],
      ['1,2,3', /four comma-separated numbers/],
      ['a,b,c,d', /four comma-separated numbers/],
      ['1,2,3,4,5', /four comma-separated numbers/],
      ['1,,3,4', /four comma-separated numbers/],
      ['-181,0,10,10', /longitudes must lie within -180…180/],
      ['0,-91,10,10', /latitudes must lie within -90…90/],
      ['0,10,10,5', /south \(10\) must not be greater than north \(5\)/],
    ])('answers 400 naming bbox for bbox=%s', async (bbox, message) => {
      const response = await root.get(`${G}/structures/?bbox=${bbox}`);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['bbox']);
      expect(response.body.bbox[0]).toMatch(message);
    });

    it('accepts decimal numbers in any of their usual spellings', async () => {
      expect(await names(`${G}/structures/?bbox=9.9,+9.9,1.06e1,10.60`)).toEqual(['S-in', 'S-retired']);
      expect(await names(`${G}/structures/?bbox=-0.5,-.5,.5,0.5`)).toEqual([]);
    });

    it('answers 400 for a bad zoom or format', async () => {
      expect((await root.get(`${G}/structures/?zoom=25`)).body).toEqual({ zoom: [expect.stringMatching(/0 to 24/)] });
      expect((await root.get(`${G}/structures/?format=kml`)).body).toEqual({ format: [expect.stringMatching(/json/)] });
      expect((await root.get(`${G}/structures/?format=json&zoom=12`)).status).toBe(200);
    });
  });

  describe('path size', () => {
    const positions = (count: number) => Array.from({ length: count }, (_, i) => [10 + i / 1e5, 10]);

    it.each([
      ['aerial-spans', (path: object) => ({ label: 'long', path })],
      ['circuit-geometries', (path: object) => ({ circuit: fx.unrouted.id, path })],
    ])('refuses a path of more than 10 000 positions on %s with 400 naming path', async (model, body) => {
      fx.unrouted ??= await root.created('/api/circuits/circuits/', { cid: 'DF-2', provider: fx.provider.id, type: fx.circuitType.id });
      const response = await root.post(`${P}/${model}/`, body(line(...positions(10_001))));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ path: [expect.stringMatching(/at most 10000 positions \(got 10001\)/)] });
    });

    it('refuses it on update too, and takes 10 000', async () => {
      const span = await root.created(`${P}/aerial-spans/`, { label: 'long', path: line(...positions(10_000)) });
      try {
        const response = await root.patch(`${P}/aerial-spans/${span.id}/`, { path: line(...positions(10_001)) });
        expect(response.status).toBe(400);
        expect(Object.keys(response.body)).toEqual(['path']);
        expect((await root.get(`${P}/aerial-spans/${span.id}/`)).body.path.coordinates).toHaveLength(10_000);
      } finally {
        expect((await root.delete(`${P}/aerial-spans/${span.id}/`)).status).toBe(204);
      }
    });
  });

  describe('exclude_status', () => {
    it.each([
      ['exclude_status=retired', ['S-anti', 'S-in', 'S-out']],
      ['exclude_status=retired,planned', ['S-anti', 'S-in']],
      ['exclude_status=retired&exclude_status=planned', ['S-anti', 'S-in']],
      ['exclude_status=bogus', ['S-anti', 'S-in', 'S-out', 'S-retired']],
      ['exclude_status=bogus,retired', ['S-anti', 'S-in', 'S-out']],
    ])('structures/?%s', async (query, expected) => {
      expect(await names(`${G}/structures/?${query}`)).toEqual(expected);
    });

    it('applies to pathway layers but not to circuits', async () => {
      expect(await names(`${G}/pathways/?exclude_status=abandoned,construction`)).toEqual(['bank', 'crossing', 'far buried']);
      expect(await names(`${G}/circuits/?exclude_status=active`)).toEqual(['DF-1']);
    });

    it("combines with the models' own filters", async () => {
      expect(await names(`${G}/structures/?structure_type=pole&exclude_status=retired`)).toEqual(['S-out']);
      expect(await names(`${G}/structures/?site_id=${fx.site.id}`)).toEqual(['S-in']);
    });
  });

  describe('ETag', () => {
    it('answers 304 to If-None-Match with the current ETag, and a new ETag when a feature or the filters change', async () => {
      const first = await root.get(`${G}/structures/`);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]{8}"$/);
      const again = await root.get(`${G}/structures/`, { 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      const filtered = await root.get(`${G}/structures/?exclude_status=retired`, { 'If-None-Match': etag });
      expect(filtered.status).toBe(200);
      expect(filtered.headers.get('etag')).not.toBe(etag);
      await root.patch(`${P}/structures/${fx.outside.id}/`, { elevation: 7 });
      const changed = await root.get(`${G}/structures/`, { 'If-None-Match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
    });
  });

  describe('info/', () => {
    it('counts every layer under the same filters, with the bbox, thresholds and statuses', async () => {
      const response = await root.get(`${G}/info/?bbox=${BOX}&exclude_status=abandoned`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        bbox: [9.9, 9.9, 10.6, 10.6],
        counts: { structures: 2, conduit_banks: 1, conduits: 1, aerial_spans: 0, direct_buried: 0, circuits: 1 },
        thresholds: { structures: { cluster: 200, hide: 5000 }, others: { hide: 500 } },
        statuses: [
          { value: 'planned', label: 'Planned', color: 'cyan' },
          { value: 'active', label: 'Active', color: 'green' },
          { value: 'construction', label: 'Under Construction', color: 'blue' },
          { value: 'decommissioning', label: 'Decommissioning', color: 'yellow' },
          { value: 'retired', label: 'Retired', color: 'red' },
          { value: 'abandoned', label: 'Abandoned in place', color: 'gray' },
        ],
      });
      const all = await root.get(`${G}/info/`);
      expect(all.body.bbox).toBeNull();
      expect(all.body.counts).toEqual({ structures: 4, conduit_banks: 1, conduits: 1, aerial_spans: 1, direct_buried: 2, circuits: 1 });
      const etag = all.headers.get('etag')!;
      expect((await root.get(`${G}/info/`, { 'If-None-Match': etag })).status).toBe(304);
    });
  });

  describe('permissions', () => {
    it('needs credentials; a user sees only the structures their permission allows', async () => {
      expect((await root.as(undefined).get(`${G}/structures/`)).status).toBe(403);
      const { w } = seeded;
      await root.created('/api/users/permissions/', {
        name: 'poles only',
        object_types: ['pathways.structure'],
        actions: ['view'],
        constraints: { structure_type: 'pole' },
        users: [w.user2.id],
      });
      const user = root.as(await provisionToken(seeded.api, w.user2.username, PASSWORD));
      expect(await names(`${G}/structures/`, user)).toEqual(['S-out', 'S-retired']);
      expect(await names(`${G}/pathways/`, user)).toEqual([]);
    });

    it('info/ counts for a user who may view some layer models and not others only what they may view', async () => {
      const { w } = seeded;
      const user = root.as(await provisionToken(seeded.api, w.user2.username, PASSWORD));
      const response = await user.get(`${G}/info/`);
      expect(response.status).toBe(200);
      expect(response.body.counts).toEqual({
        structures: 2,
        conduit_banks: 0,
        conduits: 0,
        aerial_spans: 0,
        direct_buried: 0,
        circuits: 0,
      });
    });
  });

  describe('external layers', () => {
    it('serves the fiber cables fms publishes, drawn along the pathways their cable runs through', async () => {
      const maker = await root.created('/api/dcim/manufacturers/', { name: 'Prysmian', slug: 'prysmian' });
      const role = await root.created('/api/dcim/device-roles/', { name: 'ODF', slug: 'odf' });
      const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: maker.id, model: 'ODF-48', slug: 'odf-48' });
      const odf = (name: string) =>
        root.created('/api/dcim/devices/', { name, device_type: deviceType.id, role: role.id, site: fx.site.id });
      const [a, b] = [await odf('odf-a'), await odf('odf-b')];
      const port = (device: any) => root.created('/api/dcim/rear-ports/', { device: device.id, name: 'R1', type: 'splice' });
      const cable = await root.created('/api/dcim/cables/', {
        label: 'FEEDER-1',
        type: 'smf',
        a_terminations: [{ object_type: 'dcim.rearport', object_id: (await port(a)).id }],
        b_terminations: [{ object_type: 'dcim.rearport', object_id: (await port(b)).id }],
      });
      const type = await root.created('/api/plugins/fms/cable-types/', {
        manufacturer: maker.id,
        model: 'ALTOS 24',
        construction: 'loose_tube',
        strand_count: 24,
      });
      const fiberCable = await root.created('/api/plugins/fms/fiber-cables/', {
        fiber_cable_type: type.id,
        cable: cable.id,
        serial_number: 'SN-1',
      });
      await root.created(`${P}/cable-segments/`, { cable: cable.id, pathway: fx.crossing.id });
      await root.created(`${P}/cable-segments/`, { cable: cable.id, pathway: fx.buriedFar.id });

      const body = await collection(`${G}/external/fiber-cables/`);
      expect(body).toMatchObject({ name: 'fiber-cables', truncated: false, total_count: 1 });
      expect(body.features).toEqual([
        {
          type: 'Feature',
          id: fiberCable.id,
          geometry: {
            type: 'MultiLineString',
            coordinates: [
              [
                [10, 10],
                [9.5, 10.3],
                [11, 10.3],
              ],
              [
                [30, 30],
                [30.1, 30],
              ],
            ],
          },
          properties: {
            id: fiberCable.id,
            cable: 'FEEDER-1',
            fiber_cable_type: expect.stringContaining('ALTOS 24'),
            serial_number: 'SN-1',
            install_date: null,
          },
        },
      ]);
      expect((await collection(`${G}/external/fiber-cables/?bbox=29.9,29.9,30.2,30.2`)).total_count).toBe(1);
      expect((await collection(`${G}/external/fiber-cables/?bbox=0,0,1,1`)).features).toEqual([]);
    });

    it('answers 404 for a layer nobody publishes', async () => {
      expect((await root.get(`${G}/external/nope/`)).status).toBe(404);
      expect((await root.get(`${G}/external/Fiber_Cables/`)).status).toBe(404);
    });
  });

  describe('the cap', () => {
    beforeAll(async () => {
      // 2100 structures in a 0.1° square around (40, 40), written directly: the API path is tested above.
      await seeded.db.query(
        `INSERT INTO pathways_structure (name, status, geometry, bbox)
         SELECT 'bulk-' || n, 'active', jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(40 + (n % 50) * 0.002, 40 + (n / 50) * 0.002)),
                box(point(40 + (n % 50) * 0.002, 40 + (n / 50) * 0.002), point(40 + (n % 50) * 0.002, 40 + (n / 50) * 0.002))
           FROM generate_series(0, 2099) AS n`,
      );
    });

    it('answers at most 2000 features and says how many match', async () => {
      const body = await collection(`${G}/structures/?bbox=39,39,41,41`);
      expect(body.features).toHaveLength(2000);
      expect(body).toMatchObject({ truncated: true, total_count: 2100 });
      const exact = await collection(`${G}/structures/?bbox=39,39,41,40.051`);
      expect(exact).toMatchObject({ truncated: false, total_count: 1300 });
    });

    it('clusters the structures at a low zoom when more than 2000 match', async () => {
      const body = await collection(`${G}/structures/?bbox=39,39,41,41&zoom=8`);
      expect(body).toMatchObject({ clustered: true, truncated: false, total_count: 2100 });
      expect(body.features.length).toBeLessThan(20);
      expect(body.features.every((feature: any) => feature.properties.cluster === true)).toBe(true);
      expect(body.features.reduce((sum: number, feature: any) => sum + feature.properties.point_count, 0)).toBe(2100);
    });
  });
});
