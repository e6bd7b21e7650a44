import { PASSWORD } from '../../../../test/support/api-client';
import { countRows, PlatformClient, provisionToken, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const P = '/api/plugins/pathways';
const point = (longitude: number, latitude: number) => ({ type: 'Point', coordinates: [longitude, latitude] });
const line = (...coordinates: number[][]) => ({ type: 'LineString', coordinates });
/** About 0.5 m east of a longitude at latitude 52 (1e-5 degrees of longitude there is about 0.69 m). */
const HALF_METRE = 0.7e-5;

/**
 * The pathways plugin's models and rules: structures and pathway kinds with validated GeoJSON,
 * lifecycle statuses with colours, path ends snapping to structures, the bbox list filter, cable
 * segments and the cable trace.
 */
describe('platform pathways plugin: structures, pathways, snapping, cable segments', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  const fx: Record<string, any> = {};

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    fx.site = await root.created('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1' });
    fx.otherSite = await root.created('/api/dcim/sites/', { name: 'AMS2', slug: 'ams2' });
    fx.location = await root.created('/api/dcim/locations/', { name: 'Basement', slug: 'basement', site: fx.site.id });
    fx.mh1 = await root.created(`${P}/structures/`, {
      name: 'MH-1',
      structure_type: 'manhole',
      geometry: point(4.9, 52.37),
      site: fx.site.id,
    });
    fx.mh2 = await root.created(`${P}/structures/`, { name: 'MH-2', structure_type: 'manhole', geometry: point(4.91, 52.37) });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('structures', () => {
    it('reads back its point and the lifecycle status as value, label and colour', async () => {
      const response = await root.get(`${P}/structures/${fx.mh1.id}/`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        name: 'MH-1',
        geometry: point(4.9, 52.37),
        status: { value: 'active', label: 'Active', color: 'green' },
        structure_type: { value: 'manhole', label: 'Manhole' },
        site: { id: fx.site.id, name: 'AMS1' },
      });
      expect(response.body).not.toHaveProperty('bbox');
    });

    it.each([
      [
        {
          type: 'LineString',
          coordinates: [
            [4.9, 52.37],
            [4.91, 52.37],
          ],
        },
        /Expected a GeoJSON Point or Polygon/,
      ],
      [point(4.9, 91), /latitude 91 is outside -90…90/],
      [point(181, 52), /longitude 181 is outside -180…180/],
      [{ type: 'Point', coordinates: ['4.9', 52] }, /numbers only/],
      [{ type: 'Point', coordinates: [4.9] }, /\[longitude, latitude\]/],
      ['POINT 4.9 52.37', /this text is not WKT/],
      ['SRID=3857;POINT(545465 6865070)', /only SRID 4326/],
      ['LINESTRING(4.9 52.37, 4.91 52.37)', /Expected a GeoJSON Point or Polygon/],
    ])('refuses the geometry %j with a 400 naming geometry', async (geometry, message) => {
      const response = await root.post(`${P}/structures/`, { name: 'bad', geometry });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['geometry']);
      expect(response.body.geometry[0]).toMatch(message);
    });

    it('requires a geometry', async () => {
      const response = await root.post(`${P}/structures/`, { name: 'nowhere' });
      expect(response.status).toBe(400);
      expect(response.body.geometry[0]).toMatch(/required/);
    });

    it('takes its site from the location when none is given, and refuses a location of another site', async () => {
      const vault = await root.created(`${P}/structures/`, { name: 'V-1', geometry: point(4.92, 52.38), location: fx.location.id });
      expect(vault.site).toMatchObject({ id: fx.site.id });
      const elsewhere = await root.post(`${P}/structures/`, {
        name: 'V-2',
        geometry: point(4.92, 52.38),
        location: (await root.created('/api/dcim/locations/', { name: 'Attic', slug: 'attic', site: fx.site.id })).id,
        site: fx.otherSite.id,
      });
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body.location[0]).toMatch(/must belong/);
      await root.delete(`${P}/structures/${vault.id}/`);
    });

    it('keeps the bounding box of each structure in the GiST-indexed column, and filters lists by bbox', async () => {
      const { rows } = await seeded.db.query('SELECT bbox::text AS bbox FROM pathways_structure WHERE id = $1', [fx.mh1.id]);
      expect(rows[0].bbox).toBe('(4.9,52.37),(4.9,52.37)');
      expect(await root.listed(`${P}/structures/?bbox=4.89,52.36,4.905,52.38`, 'name')).toEqual(['MH-1']);
      const bad = await root.get(`${P}/structures/?bbox=1,2,3`);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toMatch(/bbox must be four comma-separated numbers/);
    });
  });

  describe('pathways', () => {
    it('snaps path ends lying within the tolerance onto the structures, and measures the geodesic length', async () => {
      const conduit = await root.created(`${P}/conduits/`, {
        label: 'C-1',
        material: 'hdpe',
        inner_diameter: 40,
        outer_diameter: 50,
        depth: 0.8,
        start_structure: fx.mh1.id,
        end_structure: fx.mh2.id,
        path: line([4.9 + HALF_METRE, 52.37], [4.905, 52.371], [4.91 - HALF_METRE, 52.37]),
      });
      expect(conduit.path.coordinates).toEqual([
        [4.9, 52.37],
        [4.905, 52.371],
        [4.91, 52.37],
      ]);
      expect(conduit.pathway_type).toBe('conduit');
      expect(conduit.status).toEqual({ value: 'active', label: 'Active', color: 'green' });
      // Two legs of about 350 m and 125 m: 684 m east-west at latitude 52.37 plus the detour north.
      expect(conduit.geo_length).toBeGreaterThan(690);
      expect(conduit.geo_length).toBeLessThan(720);
      const stored = await seeded.db.query('SELECT path, bbox::text AS bbox FROM pathways_conduit WHERE id = $1', [conduit.id]);
      expect(stored.rows[0].path.coordinates[0]).toEqual([4.9, 52.37]);
      expect(stored.rows[0].bbox).toBe('(4.91,52.371),(4.9,52.37)');
      fx.conduit = conduit;
    });

    it('refuses a path end farther than the tolerance from its structure with a 400 on path, and writes nothing', async () => {
      const before = await countRows(seeded.db, 'pathways_aerialspan');
      const response = await root.post(`${P}/aerial-spans/`, {
        label: 'far',
        start_structure: fx.mh1.id,
        path: line([4.9 + 3 * HALF_METRE, 52.37], [4.91, 52.37]),
      });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['path']);
      expect(response.body.path[0]).toMatch(/start is 1\.\d\d m from start structure MH-1; it must lie within 1 m/);
      expect(await countRows(seeded.db, 'pathways_aerialspan')).toBe(before);
    });

    it('follows the tolerance setting, and snaps again when an update moves the path', async () => {
      const { seeded: loose, api } = await startPlatformApp({ PLUGIN_PATHWAYS_SNAP_TOLERANCE_CM: '300' });
      try {
        const a = await api.created(`${P}/structures/`, { name: 'P-1', structure_type: 'pole', geometry: point(5, 52) });
        const span = await api.created(`${P}/aerial-spans/`, {
          label: 'A-1',
          aerial_type: 'adss',
          start_structure: a.id,
          path: line([5 + 3 * HALF_METRE, 52], [5.01, 52]),
        });
        expect(span.path.coordinates[0]).toEqual([5, 52]);
        const moved = await api.patch(`${P}/aerial-spans/${span.id}/`, { path: line([5 - 2 * HALF_METRE, 52], [5.02, 52]) });
        expect(moved.status).toBe(200);
        expect(moved.body.path.coordinates).toEqual([
          [5, 52],
          [5.02, 52],
        ]);
        const tooFar = await api.patch(`${P}/aerial-spans/${span.id}/`, { path: line([5.001, 52], [5.02, 52]) });
        expect(tooFar.status).toBe(400);
        expect(tooFar.body.path[0]).toMatch(/within 3 m/);
      } finally {
        await loose.db.end();
        await loose.testApp.close();
      }
    });

    it.each([
      [line([4.9, 52.37]), /at least two positions/],
      [line([4.9, 52.37], [4.9, -95]), /position 1: latitude -95 is outside -90…90/],
      [line([4.9, 52.37], [-181, 52]), /position 1: longitude -181 is outside -180…180/],
      [line([4.9, 52.37], [4.9, null as unknown as number]), /position 1 must hold numbers only/],
      [point(4.9, 52.37), /Expected a GeoJSON LineString/],
      [
        {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
          crs: 'EPSG:3857',
        },
        /Unexpected member/,
      ],
    ])('refuses the path %j with a 400 naming path', async (path, message) => {
      const response = await root.post(`${P}/direct-buried/`, { label: 'bad', path });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['path']);
      expect(response.body.path[0]).toMatch(message);
    });

    it('requires a path except between two locations, for conduits in a bank and for innerducts', async () => {
      const missing = await root.post(`${P}/direct-buried/`, { label: 'no path' });
      expect(missing.status).toBe(400);
      expect(missing.body.path[0]).toMatch(/required/);
      const bank = await root.created(`${P}/conduit-banks/`, {
        label: 'B-1',
        configuration: '2x2',
        total_conduits: 4,
        path: line([4.9, 52.37], [4.91, 52.37]),
      });
      const inBank = await root.created(`${P}/conduits/`, { label: 'B-1/1', conduit_bank: bank.id, bank_position: 'A1' });
      const duplicate = await root.post(`${P}/conduits/`, { label: 'B-1/1b', conduit_bank: bank.id, bank_position: 'A1' });
      expect(duplicate.status).toBe(400);
      const innerduct = await root.created(`${P}/innerducts/`, { label: 'ID-1', parent_conduit: inBank.id, size: '32mm', color: 'ff8000' });
      expect(innerduct.pathway_type).toBe('innerduct');
      expect(innerduct.geo_length).toBeNull();
      const indoor = await root.created(`${P}/aerial-spans/`, {
        label: 'between rooms',
        start_location: fx.location.id,
        end_location: fx.location.id,
      });
      expect(indoor.path).toBeNull();
      // Deleting a conduit takes its innerducts (and their base rows); deleting a bank leaves its conduits outside any bank.
      expect((await root.delete(`${P}/conduits/${inBank.id}/`)).status).toBe(204);
      expect(await countRows(seeded.db, 'pathways_innerduct', 'WHERE id = $1', [innerduct.id])).toBe(0);
      expect(await countRows(seeded.db, 'pathways_pathway', 'WHERE id = ANY($1)', [[inBank.id, innerduct.id]])).toBe(0);
      const another = await root.created(`${P}/conduits/`, { label: 'B-1/2', conduit_bank: bank.id, bank_position: 'A2' });
      expect((await root.delete(`${P}/conduit-banks/${bank.id}/`)).status).toBe(204);
      expect((await root.get(`${P}/conduits/${another.id}/`)).body.conduit_bank).toBeNull();
      await root.delete(`${P}/conduits/${another.id}/`);
      await root.delete(`${P}/aerial-spans/${indoor.id}/`);
    });

    it('protects a structure that a pathway starts or ends at', async () => {
      const response = await root.delete(`${P}/structures/${fx.mh2.id}/`);
      expect(response.status).toBe(409);
    });

    it('answers the GraphQL queries of each kind, statuses as their values', async () => {
      const response = await root.post('/graphql/', {
        query: `{ pathways_conduit_list { label material status } pathways_structure(id: ${fx.mh1.id}) { name status } }`,
      });
      expect(response.status).toBe(200);
      expect(response.body.data.pathways_conduit_list).toEqual([{ label: 'C-1', material: 'hdpe', status: 'active' }]);
      expect(response.body.data.pathways_structure).toEqual({ name: 'MH-1', status: 'active' });
    });
  });

  describe('cable segments and the cable trace', () => {
    let cable: any;
    let loose: any;

    beforeAll(async () => {
      const manufacturer = await root.created('/api/dcim/manufacturers/', { name: 'Generic', slug: 'generic' });
      const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'Panel', slug: 'panel' });
      const role = await root.created('/api/dcim/device-roles/', { name: 'Panel', slug: 'panel' });
      const panel = (name: string) =>
        root.created('/api/dcim/devices/', { name, device_type: deviceType.id, role: role.id, site: fx.site.id });
      const [a, b] = [await panel('panel-a'), await panel('panel-b')];
      const port = (device: any, name: string) => root.created('/api/dcim/rear-ports/', { device: device.id, name, type: 'splice' });
      cable = await root.created('/api/dcim/cables/', {
        label: 'OSP-1',
        a_terminations: [{ object_type: 'dcim.rearport', object_id: (await port(a, 'R1')).id }],
        b_terminations: [{ object_type: 'dcim.rearport', object_id: (await port(b, 'R1')).id }],
      });
      loose = await root.created('/api/dcim/cables/', {
        label: 'half',
        a_terminations: [{ object_type: 'dcim.rearport', object_id: (await port(a, 'R2')).id }],
        b_terminations: [{ object_type: 'dcim.rearport', object_id: (await port(b, 'R2')).id }],
      });
      // The API keeps both ends of a cable; an end left open (by an older import, say) is made here.
      await seeded.db.query("DELETE FROM dcim_cabletermination WHERE cable_id = $1 AND cable_end = 'B'", [loose.id]);
      fx.span = await root.created(`${P}/aerial-spans/`, { label: 'A-9', length: 120.5, path: line([4.91, 52.37], [4.92, 52.37]) });
    });

    it('numbers segments in order when no sequence is given, and refuses a cable with an open end', async () => {
      const first = await root.created(`${P}/cable-segments/`, { cable: cable.id, pathway: fx.conduit.id });
      const second = await root.created(`${P}/cable-segments/`, { cable: cable.id, pathway: fx.span.id });
      expect([first.sequence, second.sequence]).toEqual([1, 2]);
      expect(second.pathway).toMatchObject({ id: fx.span.id, display: 'A-9', pathway_type: { value: 'aerial', label: 'Aerial span' } });
      const open = await root.post(`${P}/cable-segments/`, { cable: loose.id, pathway: fx.conduit.id });
      expect(open.status).toBe(400);
      expect(open.body.cable[0]).toMatch(/Both ends/);
      const notAPathway = await root.post(`${P}/cable-segments/`, { cable: cable.id, pathway: 999999 });
      expect(notAPathway.status).toBe(400);
      expect(Object.keys(notAPathway.body)).toEqual(['pathway']);
    });

    it('traces the cable through its pathways in order; a pathway without a length counts 0', async () => {
      const response = await root.get(`${P}/traversal/cable-trace/?cable_id=${cable.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ cable_id: cable.id, segment_count: 2, total_length: 120.5 });
      expect(response.body.segments.map((segment: any) => [segment.sequence, segment.pathway_type, segment.pathway_name])).toEqual([
        [1, 'conduit', 'C-1'],
        [2, 'aerial', 'A-9'],
      ]);
      expect(response.body.segments[0]).toMatchObject({
        pathway_id: fx.conduit.id,
        pathway_url: expect.stringMatching(new RegExp(`/api/plugins/pathways/pathways/${fx.conduit.id}/$`)),
        start_name: 'MH-1',
        end_name: 'MH-2',
        coords: [
          [4.9, 52.37],
          [4.905, 52.371],
          [4.91, 52.37],
        ],
      });
      expect((await root.get(`${P}/traversal/cable-trace/?cable_id=${loose.id}`)).body).toMatchObject({
        segment_count: 0,
        total_length: 0,
      });
    });

    it.each(['', '?cable_id=', '?cable_id=abc', '?cable_id=1.5'])('answers 400 {"error"} for %s', async (query) => {
      const response = await root.get(`${P}/traversal/cable-trace/${query}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.stringMatching(/cable_id/) });
    });

    it('keeps the segments of a deleted pathway, without their pathway', async () => {
      await root.delete(`${P}/aerial-spans/${fx.span.id}/`);
      expect(await countRows(seeded.db, 'pathways_cablesegment', 'WHERE cable_id = $1', [cable.id])).toBe(2);
      expect(await countRows(seeded.db, 'pathways_cablesegment', 'WHERE cable_id = $1 AND pathway_id IS NULL', [cable.id])).toBe(1);
    });

    it('needs credentials and the view permission', async () => {
      expect((await root.as(undefined).get(`${P}/traversal/cable-trace/?cable_id=${cable.id}`)).status).toBe(403);
      const user = root.as(await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
      expect((await user.get(`${P}/traversal/cable-trace/?cable_id=${cable.id}`)).status).toBe(403);
    });
  });
});
