import { countRows, PlatformClient, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';
import { terminatedCable } from './pathways-fixtures';

const P = '/api/plugins/pathways';
const point = (longitude: number, latitude: number) => ({ type: 'Point', coordinates: [longitude, latitude] });
const line = (...coordinates: number[][]) => ({ type: 'LineString', coordinates });
const square = (west: number, south: number, size: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [west, south],
      [west + size, south],
      [west + size, south + size],
      [west, south + size],
      [west, south],
    ],
  ],
});

/**
 * The one pathway id space (the `pathways/` base over every kind), the fields, values and filters as
 * NetBox's plugin has them, WKT and footprints, the single-feature geo routes and the route planner.
 */
describe('platform pathways plugin: one id space, upstream fields and filters, route planner', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  const fx: Record<string, any> = {};

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    fx.a = await root.created(`${P}/structures/`, { name: 'A', structure_type: 'manhole', geometry: point(4, 50) });
    fx.b = await root.created(`${P}/structures/`, { name: 'B', structure_type: 'handhole', geometry: point(4.01, 50) });
    fx.c = await root.created(`${P}/structures/`, { name: 'C', structure_type: 'pole', geometry: point(4.02, 50) });
    fx.lonely = await root.created(`${P}/structures/`, { name: 'lonely', geometry: point(3, 49) });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('one id space over every kind', () => {
    it('gives every pathway, of whatever kind, an id of its own, listed at pathways/ with its pathway_type', async () => {
      fx.bank = await root.created(`${P}/conduit-banks/`, {
        label: 'bank AB',
        start_structure: fx.a.id,
        end_structure: fx.b.id,
        path: line([4, 50], [4.01, 50]),
      });
      fx.conduit = await root.created(`${P}/conduits/`, {
        label: 'conduit AB',
        start_structure: fx.a.id,
        end_structure: fx.b.id,
        path: line([4, 50], [4.01, 50]),
      });
      fx.span = await root.created(`${P}/aerial-spans/`, {
        label: 'span BC',
        start_structure: fx.b.id,
        end_structure: fx.c.id,
        start_attachment_height: 8,
        end_attachment_height: 7,
        path: line([4.01, 50], [4.02, 50]),
      });
      fx.tray = await root.created(`${P}/pathways/`, {
        label: 'tray',
        pathway_type: 'tray',
        start_structure: fx.a.id,
        end_structure: fx.c.id,
        path: line([4, 50], [4.02, 50]),
      });
      const ids = [fx.bank.id, fx.conduit.id, fx.span.id, fx.tray.id];
      expect(new Set(ids).size).toBe(4);
      const listed = await root.get(`${P}/pathways/?id=${ids.join('&id=')}`);
      expect(listed.body.results.map((row: any) => [row.id, row.label, row.pathway_type.value])).toEqual([
        [fx.bank.id, 'bank AB', 'conduit_bank'],
        [fx.conduit.id, 'conduit AB', 'conduit'],
        [fx.span.id, 'span BC', 'aerial'],
        [fx.tray.id, 'tray', 'tray'],
      ]);
      expect((await root.get(`${P}/pathways/${fx.conduit.id}/`)).body).toMatchObject({
        pathway_type: { value: 'conduit', label: 'Conduit' },
        start_structure: { id: fx.a.id },
        geo_length: fx.conduit.geo_length,
        cables_routed: 0,
      });
      expect(fx.span).toMatchObject({ start_attachment_height: 8, end_attachment_height: 7, attachment_height: 7.5 });
      // A kind's row is a base row too: ids of the kinds never meet.
      expect(await countRows(seeded.db, 'pathways_pathway', 'WHERE id = ANY($1)', [ids])).toBe(4);
      expect((await root.get(`${P}/conduits/${fx.span.id}/`)).status).toBe(404);
    });

    it('keeps a kind and its base row one pathway: a change through either shows through both', async () => {
      const viaBase = await root.patch(`${P}/pathways/${fx.conduit.id}/`, { label: 'conduit AB main', status: 'planned' });
      expect(viaBase.status).toBe(200);
      expect((await root.get(`${P}/conduits/${fx.conduit.id}/`)).body).toMatchObject({
        label: 'conduit AB main',
        status: { value: 'planned' },
      });
      await root.patch(`${P}/conduits/${fx.conduit.id}/`, { label: 'conduit AB', status: 'active', material: 'hdpe', start_face: 'north' });
      expect((await root.get(`${P}/pathways/${fx.conduit.id}/`)).body).toMatchObject({ label: 'conduit AB', status: { value: 'active' } });
      const retyped = await root.patch(`${P}/pathways/${fx.conduit.id}/`, { pathway_type: 'tray' });
      expect(retyped.status).toBe(400);
      expect(Object.keys(retyped.body)).toEqual(['pathway_type']);
    });

    it('deletes a kind with its base row, and a base row with its kind', async () => {
      const doomed = await root.created(`${P}/direct-buried/`, { label: 'doomed', path: line([5, 50], [5.01, 50]) });
      expect((await root.delete(`${P}/pathways/${doomed.id}/`)).status).toBe(204);
      expect((await root.get(`${P}/direct-buried/${doomed.id}/`)).status).toBe(404);
      const other = await root.created(`${P}/direct-buried/`, { label: 'other', armor_type: 'SWA', path: line([5, 50], [5.01, 50]) });
      expect((await root.delete(`${P}/direct-buried/${other.id}/`)).status).toBe(204);
      expect((await root.get(`${P}/pathways/${other.id}/`)).status).toBe(404);
    });

    it('answers pathway and pathway_list in GraphQL as REST does', async () => {
      const response = await root.post('/graphql/', {
        query: `{ one: pathway(id: ${fx.tray.id}) { id label pathway_type } all: pathway_list(filters: {pathway_type: "aerial"}) { id label } }`,
      });
      expect(response.body.errors).toBeUndefined();
      const { one, all } = response.body.data;
      expect({ ...one, id: Number(one.id) }).toEqual({ id: fx.tray.id, label: 'tray', pathway_type: 'tray' });
      expect(all.map((row: any) => [Number(row.id), row.label])).toEqual([[fx.span.id, 'span BC']]);
    });
  });

  describe('cables through pathways', () => {
    beforeAll(async () => {
      fx.cable = await terminatedCable(root, 'OSP-7');
      fx.other = await terminatedCable(root, 'OSP-8');
      fx.inBank = await root.created(`${P}/conduits/`, { label: 'bank duct 1', conduit_bank: fx.bank.id, bank_position: 'A1' });
      fx.innerduct = await root.created(`${P}/innerducts/`, { label: 'ID-1', parent_conduit: fx.inBank.id, size: '32mm', position: 'A' });
      fx.segment = await root.created(`${P}/cable-segments/`, { cable: fx.cable.id, pathway: fx.innerduct.id });
      fx.spanSegment = await root.created(`${P}/cable-segments/`, { cable: fx.cable.id, pathway: fx.span.id });
      fx.lashed = await root.created(`${P}/cable-segments/`, { cable: fx.other.id, pathway: fx.span.id, lashed_with: [fx.spanSegment.id] });
    });

    it("gives a conduit in a bank and an innerduct their container's ends where they name none", async () => {
      expect(fx.inBank).toMatchObject({ start_structure: { id: fx.a.id }, end_structure: { id: fx.b.id } });
      expect(fx.innerduct).toMatchObject({ start_structure: { id: fx.a.id }, end_structure: { id: fx.b.id } });
      expect((await root.get(`${P}/pathways/${fx.innerduct.id}/`)).body.start_structure).toMatchObject({ id: fx.a.id });
      const own = await root.created(`${P}/conduits/`, {
        label: 'own end',
        conduit_bank: fx.bank.id,
        bank_position: 'A9',
        end_structure: fx.c.id,
      });
      expect(own).toMatchObject({ start_structure: { id: fx.a.id }, end_structure: { id: fx.c.id } });
      expect((await root.delete(`${P}/conduits/${own.id}/`)).status).toBe(204);
    });

    it('counts the cables routed through each pathway', async () => {
      expect((await root.get(`${P}/aerial-spans/${fx.span.id}/`)).body.cables_routed).toBe(2);
      expect((await root.get(`${P}/pathways/${fx.innerduct.id}/`)).body.cables_routed).toBe(1);
      expect((await root.get(`${P}/conduit-banks/${fx.bank.id}/`)).body.cables_routed).toBe(0);
    });

    it("filters occupied pathways: a cable in an innerduct occupies its conduit and the conduit's bank", async () => {
      expect(await root.listed(`${P}/conduit-banks/?occupied=true`, 'id')).toEqual([fx.bank.id]);
      expect(await root.listed(`${P}/conduits/?occupied=true`, 'id')).toEqual([fx.inBank.id]);
      expect(await root.listed(`${P}/conduits/?occupied=false`, 'id')).toEqual([fx.conduit.id]);
      expect((await root.listed(`${P}/pathways/?occupied=true`, 'id')).sort()).toEqual(
        [fx.bank.id, fx.span.id, fx.inBank.id, fx.innerduct.id].sort(),
      );
      expect((await root.listed(`${P}/structures/?occupied=true`, 'name')).sort()).toEqual(['A', 'B', 'C']);
      // The layers take the filter as the lists do.
      const layer = (await root.get(`${P}/geo/pathways/?occupied=true`)).body;
      expect(layer.features.map((feature: any) => feature.id).sort()).toEqual([fx.bank.id, fx.span.id].sort());
      expect((await root.get(`${P}/geo/info/?occupied=true`)).body.counts).toMatchObject({
        conduit_banks: 1,
        aerial_spans: 1,
        conduits: 0,
      });
      const bad = await root.get(`${P}/conduits/?occupied=maybe`);
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body)).toEqual(['occupied']);
    });

    it('keeps lashed_with symmetrical, and filters by lashed_with_id', async () => {
      expect((await root.get(`${P}/cable-segments/${fx.spanSegment.id}/`)).body.lashed_with.map((peer: any) => peer.id)).toEqual([
        fx.lashed.id,
      ]);
      expect(await root.listed(`${P}/cable-segments/?lashed_with_id=${fx.lashed.id}`, 'id')).toEqual([fx.spanSegment.id]);
      await root.patch(`${P}/cable-segments/${fx.lashed.id}/`, { lashed_with: [] });
      expect((await root.get(`${P}/cable-segments/${fx.spanSegment.id}/`)).body.lashed_with).toEqual([]);
    });
  });

  describe("filters as NetBox's plugin has them", () => {
    it('connected_to=<kind>:<id>, structure_id, has_pathways and no_pathways', async () => {
      expect((await root.listed(`${P}/pathways/?connected_to=structure:${fx.c.id}`, 'label')).sort()).toEqual(['span BC', 'tray']);
      // The bank, its conduit (inheriting the bank's ends) and that conduit's innerduct, the conduit outside the bank, the span and the tray.
      const touching = await root.listed(`${P}/pathways/?connected_to=structure:${fx.c.id}&connected_to=structure:${fx.a.id}`, 'id');
      expect(touching).toHaveLength(6);
      const bad = await root.get(`${P}/pathways/?connected_to=site:1`);
      expect(bad.status).toBe(400);
      expect(bad.body.connected_to[0]).toMatch(/'<kind>:<pk>'/);
      // The map's pathways at A: the bank (drawn for its conduits), the conduit outside it, the tray.
      expect((await root.listed(`${P}/pathways/?structure_id=${fx.a.id}`, 'label')).sort()).toEqual(['bank AB', 'conduit AB', 'tray']);
      expect(await root.listed(`${P}/structures/?has_pathways=false`, 'name')).toEqual(['lonely']);
      expect((await root.get(`${P}/structures/${fx.lonely.id}/`)).body).toMatchObject({
        no_pathways: true,
        description: 'No connected pathways',
      });
      expect((await root.get(`${P}/structures/${fx.a.id}/`)).body).toMatchObject({ no_pathways: false, description: null });
    });

    it('tenant_group and tenant_group_id, the groups below included', async () => {
      const parent = await root.created('/api/tenancy/tenant-groups/', { name: 'Utilities', slug: 'utilities' });
      const child = await root.created('/api/tenancy/tenant-groups/', { name: 'Water', slug: 'water', parent: parent.id });
      const tenant = await root.created('/api/tenancy/tenants/', { name: 'City water', slug: 'city-water', group: child.id });
      await root.patch(`${P}/conduit-banks/${fx.bank.id}/`, { tenant: tenant.id });
      await root.patch(`${P}/structures/${fx.b.id}/`, { tenant: tenant.id });
      expect(await root.listed(`${P}/conduit-banks/?tenant_group=utilities`, 'id')).toEqual([fx.bank.id]);
      expect(await root.listed(`${P}/pathways/?tenant_group_id=${parent.id}`, 'id')).toEqual([fx.bank.id]);
      expect(await root.listed(`${P}/structures/?tenant_group_id=${child.id}`, 'name')).toEqual(['B']);
      expect((await root.get(`${P}/structures/?tenant_group_id=water`)).status).toBe(400);
    });
  });

  describe('geometry: WKT and footprints', () => {
    it('reads WKT and EWKT (SRID 4326) into GeoJSON', async () => {
      const structure = await root.created(`${P}/structures/`, { name: 'wkt', geometry: 'POINT(-73.5 45.5)' });
      expect(structure.geometry).toEqual(point(-73.5, 45.5));
      const pathway = await root.created(`${P}/pathways/`, {
        label: 'ewkt',
        pathway_type: 'microduct',
        path: 'SRID=4326;LINESTRING(-73.5 45.5, -73.4 45.6)',
      });
      expect(pathway.path).toEqual(line([-73.5, 45.5], [-73.4, 45.6]));
      const refused = await root.post(`${P}/conduits/`, { label: 'mercator', path: 'SRID=3857;LINESTRING(0 0, 1 1)' });
      expect(refused.status).toBe(400);
      expect(refused.body.path[0]).toMatch(/only SRID 4326/);
    });

    it('takes a Polygon footprint for a structure, and snaps a path end onto its outline', async () => {
      const vault = await root.created(`${P}/structures/`, { name: 'vault', structure_type: 'vault', geometry: square(6, 50, 0.0001) });
      expect(vault.geometry).toEqual(square(6, 50, 0.0001));
      // The end lies inside the footprint: it moves onto the nearest point of the outline (the west edge).
      const inside = await root.created(`${P}/direct-buried/`, {
        label: 'into vault',
        end_structure: vault.id,
        path: line([5.99, 50.00005], [6.00001, 50.00005]),
      });
      expect(inside.path.coordinates[1][0]).toBeCloseTo(6, 9);
      expect(inside.path.coordinates[1][1]).toBeCloseTo(50.00005, 9);
      const far = await root.post(`${P}/direct-buried/`, {
        label: 'short',
        end_structure: vault.id,
        path: line([5.99, 50.00005], [5.999, 50.00005]),
      });
      expect(far.status).toBe(400);
      expect(far.body.path[0]).toMatch(/from end structure vault/);
      const open = await root.post(`${P}/structures/`, {
        name: 'open ring',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 1],
            ],
          ],
        },
      });
      expect(open.status).toBe(400);
      expect(open.body.geometry[0]).toMatch(/closed ring/);
      fx.vault = vault;
    });
  });

  describe('single-feature geo routes', () => {
    it('answers one feature of a layer by id, and 404 for one the layer does not draw', async () => {
      const feature = await root.get(`${P}/geo/pathways/${fx.tray.id}/`);
      expect(feature.status).toBe(200);
      expect(feature.headers.get('content-type')).toMatch(/^application\/geo\+json/);
      expect(feature.body).toMatchObject({
        type: 'Feature',
        id: fx.tray.id,
        geometry: line([4, 50], [4.02, 50]),
        properties: { pathway_type: 'tray', label: 'tray' },
      });
      expect((await root.get(`${P}/geo/pathways/${fx.innerduct.id}/`)).status).toBe(404);
      expect((await root.get(`${P}/geo/aerial-spans/${fx.span.id}/`)).body).toMatchObject({
        id: fx.span.id,
        properties: { pathway_type: 'aerial' },
      });
      expect((await root.get(`${P}/geo/aerial-spans/${fx.tray.id}/`)).status).toBe(404);
      expect((await root.get(`${P}/geo/structures/${fx.vault.id}/`)).body).toMatchObject({
        type: 'Feature',
        geometry: square(6, 50, 0.0001),
      });
      expect((await root.as(undefined).get(`${P}/geo/structures/${fx.vault.id}/`)).status).toBe(403);
    });
  });

  describe('route planner', () => {
    it('finds the shortest route, honours constraints, and a found route saves as a planned route', async () => {
      const found = await root.post(`${P}/planned-routes/find/`, { start_structure: fx.a.id, end_structure: fx.c.id });
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ found: true });
      expect(found.body.hops[0]).toMatchObject({ kind: 'structure', id: fx.a.id, name: 'A', role: 'start' });
      expect(found.body.hops.at(-1)).toMatchObject({ kind: 'structure', id: fx.c.id, role: 'end' });
      const viaB = await root.post(`${P}/planned-routes/find/`, {
        start_structure: fx.a.id,
        end_structure: fx.c.id,
        must_pass_through: [fx.b.id],
      });
      expect(viaB.body.pathway_ids).toHaveLength(2);
      expect(viaB.body.pathway_ids[1]).toBe(fx.span.id);
      expect(viaB.body.hops.map((hop: any) => hop.kind)).toEqual(['structure', 'pathway', 'structure', 'pathway', 'structure']);
      const noTray = await root.post(`${P}/planned-routes/find/`, {
        start_structure: fx.a.id,
        end_structure: fx.c.id,
        avoid_pathway_types: ['tray'],
      });
      expect(noTray.body.pathway_ids).toEqual([viaB.body.pathway_ids[0], fx.span.id]);
      const noB = await root.post(`${P}/planned-routes/find/`, {
        start_structure: fx.a.id,
        end_structure: fx.c.id,
        avoid_structures: [fx.b.id],
        avoid_pathway_types: ['tray'],
      });
      expect(noB.body).toEqual({ found: false, cost: null, hop_count: 0, pathway_ids: [], hops: [] });
      const avoidingCable = await root.post(`${P}/planned-routes/find/`, {
        start_structure: fx.a.id,
        end_structure: fx.c.id,
        avoid_cables: [fx.cable.id],
        avoid_pathway_types: ['tray'],
      });
      expect(avoidingCable.body.found).toBe(false);
      const bad = await root.post(`${P}/planned-routes/find/`, { start_structure: fx.a.id, avoid_pathway_types: ['canal'] });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body).sort()).toEqual(['avoid_pathway_types', 'end_structure']);
      const saved = await root.created(`${P}/planned-routes/`, {
        name: 'A to C via B',
        start_structure: fx.a.id,
        end_structure: fx.c.id,
        pathway_ids: viaB.body.pathway_ids,
        constraints: { must_pass_through: [fx.b.id] },
      });
      expect(saved).toMatchObject({ status: { value: 'draft' }, pathway_ids: viaB.body.pathway_ids });
    });
  });
});
