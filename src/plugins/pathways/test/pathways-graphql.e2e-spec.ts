import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { PlatformClient, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';
import { terminatedCable } from './pathways-fixtures';

const P = '/api/plugins/pathways';
const point = (longitude: number, latitude: number) => ({ type: 'Point', coordinates: [longitude, latitude] });
const line = (...coordinates: number[][]) => ({ type: 'LineString', coordinates });

/**
 * What a client written against NetBox's pathways plugin sends: the bare GraphQL query names of every
 * model, the reverse lists its GraphQL types declare (one statement per level for a page, compared
 * with REST), and the filters named after a foreign key taking the id.
 */
describe('platform pathways plugin: GraphQL and foreign-key filters as upstream', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  const fx: Record<string, any> = {};

  const graphql = async (query: string, variables?: Record<string, unknown>) => {
    const response = await root.post('/graphql/', { query, variables });
    expect({ query, status: response.status }).toEqual({ query, status: 200 });
    return response.body as { data?: Record<string, any>; errors?: Array<{ message: string }> };
  };
  const restIds = async (path: string) => {
    const response = await root.get(path);
    expect({ path, status: response.status, problems: response.status === 200 ? undefined : response.body }).toEqual({ path, status: 200 });
    return (response.body.results as Array<{ id: number }>).map((row) => row.id);
  };
  const idObjects = (ids: number[]) => ids.map((id) => ({ id: String(id) }));

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    const site = await root.created('/api/dcim/sites/', { name: 'Ducts', slug: 'ducts' });
    fx.a = await root.created(`${P}/structures/`, { name: 'A', site: site.id, geometry: point(4, 50) });
    fx.b = await root.created(`${P}/structures/`, { name: 'B', geometry: point(4.01, 50) });
    fx.c = await root.created(`${P}/structures/`, { name: 'C', geometry: point(4.02, 50) });
    const ab = { start_structure: fx.a.id, end_structure: fx.b.id, path: line([4, 50], [4.01, 50]) };
    fx.bank = await root.created(`${P}/conduit-banks/`, { label: 'bank AB', ...ab });
    fx.inBank = [];
    for (const position of ['1', '2']) {
      fx.inBank.push(
        await root.created(`${P}/conduits/`, { label: `bank AB/${position}`, conduit_bank: fx.bank.id, bank_position: position }),
      );
    }
    fx.trunk = await root.created(`${P}/conduits/`, { label: 'trunk AB', ...ab });
    fx.branch = await root.created(`${P}/conduits/`, {
      label: 'branch A',
      start_structure: fx.a.id,
      path: line([4, 50], [4, 50.01]),
    });
    fx.span = await root.created(`${P}/aerial-spans/`, {
      label: 'span BC',
      start_structure: fx.b.id,
      end_structure: fx.c.id,
      path: line([4.01, 50], [4.02, 50]),
    });
    fx.tray = await root.created(`${P}/pathways/`, {
      label: 'tray CA',
      pathway_type: 'tray',
      start_structure: fx.c.id,
      end_structure: fx.a.id,
      path: line([4.02, 50], [4, 50]),
    });
    fx.innerducts = [];
    for (const [conduit, position] of [
      [fx.trunk, '1'],
      [fx.trunk, '2'],
      [fx.inBank[0], '1'],
    ] as const) {
      fx.innerducts.push(
        await root.created(`${P}/innerducts/`, {
          label: `${conduit.label} ID${position}`,
          parent_conduit: conduit.id,
          size: '32 mm',
          position,
        }),
      );
    }
    fx.junction = await root.created(`${P}/junctions/`, {
      trunk_conduit: fx.trunk.id,
      branch_conduit: fx.branch.id,
      towards_structure: fx.b.id,
      position_on_trunk: 0.5,
    });
    fx.waypoint = await root.created(`${P}/pathway-locations/`, { pathway: fx.span.id, site: site.id, sequence: 1 });
    fx.cable = await terminatedCable(root, 'gql-feeder');
    fx.segments = [
      await root.created(`${P}/cable-segments/`, { cable: fx.cable.id, pathway: fx.innerducts[0].id }),
      await root.created(`${P}/cable-segments/`, { cable: fx.cable.id, pathway: fx.span.id }),
    ];
    fx.siteGeometry = await root.created(`${P}/site-geometries/`, { site: site.id, structure: fx.a.id });
    fx.route = await root.created(`${P}/planned-routes/`, {
      name: 'A to C',
      start_structure: fx.a.id,
      end_structure: fx.c.id,
      cable: fx.cable.id,
      pathway_ids: [fx.trunk.id, fx.span.id],
    });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('query names', () => {
    it('serves every model under the bare upstream names, with id: ID!, as REST lists them', async () => {
      const cases: Array<[string, string, string]> = [
        ['pathway', `${P}/pathways/`, 'pathway_type'],
        ['conduit_junction', `${P}/junctions/`, 'position_on_trunk'],
        ['pathway_location', `${P}/pathway-locations/`, 'sequence'],
        ['site_geometry', `${P}/site-geometries/`, 'display'],
        ['planned_route', `${P}/planned-routes/`, 'name'],
      ];
      for (const [name, path, field] of cases) {
        const rest = await restIds(path);
        const result = await graphql(`query($id: ID!) { one: ${name}(id: $id) { id ${field} } all: ${name}_list { id } }`, {
          id: String(rest[0]),
        });
        expect({ name, errors: result.errors }).toEqual({ name, errors: undefined });
        expect(result.data!.all).toEqual(idObjects(rest));
        expect(result.data!.one.id).toBe(String(rest[0]));
      }
      // Names that were never released prefixed are not served prefixed.
      const prefixed = await root.post('/graphql/', { query: '{ pathways_pathway_list { id } }' });
      expect(prefixed.body.errors?.[0]?.message).toMatch(/pathways_pathway_list/);
    });
  });

  describe('reverse nested lists', () => {
    it('lists what REST lists for each of them', async () => {
      const result = await graphql(`
        {
          structure_list { id pathways_out { id } pathways_in { id } }
          conduit_bank(id: ${fx.bank.id}) { conduits { id } }
          conduit(id: ${fx.trunk.id}) { innerducts { id } junctions_on_trunk { id } junction_as_branch { id } }
          branch: conduit(id: ${fx.branch.id}) { junctions_on_trunk { id } junction_as_branch { id } }
          pathway(id: ${fx.span.id}) { waypoints { id sequence } cable_segments { id } }
        }
      `);
      expect(result.errors).toBeUndefined();
      const expected = [];
      for (const structure of [fx.a, fx.b, fx.c]) {
        expected.push({
          id: String(structure.id),
          pathways_out: idObjects(await restIds(`${P}/pathways/?start_structure=${structure.id}`)),
          pathways_in: idObjects(await restIds(`${P}/pathways/?end_structure=${structure.id}`)),
        });
      }
      expect(result.data!.structure_list).toEqual(expected);
      // The bank, its two conduits, the trunk, the branch and the three innerducts (which take their container's ends).
      expect(result.data!.structure_list[0].pathways_out).toHaveLength(8);
      expect(result.data!.conduit_bank.conduits).toEqual(idObjects(await restIds(`${P}/conduits/?conduit_bank=${fx.bank.id}`)));
      expect(result.data!.conduit_bank.conduits).toEqual(idObjects(fx.inBank.map((row: any) => row.id)));
      expect(result.data!.conduit).toEqual({
        innerducts: idObjects(await restIds(`${P}/innerducts/?parent_conduit=${fx.trunk.id}`)),
        junctions_on_trunk: idObjects([fx.junction.id]),
        junction_as_branch: [],
      });
      expect(result.data!.conduit.innerducts).toHaveLength(2);
      expect(result.data!.branch).toEqual({ junctions_on_trunk: [], junction_as_branch: idObjects([fx.junction.id]) });
      expect(result.data!.pathway).toEqual({
        waypoints: [{ id: String(fx.waypoint.id), sequence: 1 }],
        cable_segments: idObjects(await restIds(`${P}/cable-segments/?pathway=${fx.span.id}`)),
      });
      expect(result.data!.pathway.cable_segments).toEqual(idObjects([fx.segments[1].id]));
    });

    it('resolves each level of a whole page in one statement (no query per row)', async () => {
      // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, applied to each runner by the spy below
      const query = PostgresQueryRunner.prototype.query;
      const statements: string[] = [];
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (this: PostgresQueryRunner, ...args) {
        statements.push(String(args[0]));
        return query.apply(this, args);
      });
      let result: Awaited<ReturnType<typeof graphql>>;
      try {
        result = await graphql(`
          {
            conduit_bank_list {
              id
              conduits {
                id
                innerducts {
                  id
                }
                junctions_on_trunk {
                  id
                }
              }
            }
            conduit_list {
              id
              innerducts {
                id
              }
              junction_as_branch {
                id
              }
            }
          }
        `);
      } finally {
        spy.mockRestore();
      }
      expect(result.errors).toBeUndefined();
      expect(result.data!.conduit_list).toHaveLength(4);
      expect(result.data!.conduit_bank_list[0].conduits[0].innerducts).toHaveLength(1);
      const touching = (table: string) => statements.filter((sql) => new RegExp(`\\b${table}\\b`).test(sql)).length;
      // The bank list's conduits once, and the conduit list itself once.
      expect(touching('pathways_conduit')).toBe(2);
      // Innerducts at most once for the bank's conduits and once for the conduit list (both at one depth, they may share one).
      expect(touching('pathways_innerduct')).toBeGreaterThanOrEqual(1);
      expect(touching('pathways_innerduct')).toBeLessThanOrEqual(2);
      // Junctions on trunk once (bank level), junctions as branch once (list level).
      expect(touching('pathways_conduitjunction')).toBe(2);
      expect(touching('pathways_conduitbank')).toBe(1);
    });

    it('resolves the pathways of a page of structures in one statement per list', async () => {
      // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, applied to each runner by the spy below
      const query = PostgresQueryRunner.prototype.query;
      const statements: string[] = [];
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (this: PostgresQueryRunner, ...args) {
        statements.push(String(args[0]));
        return query.apply(this, args);
      });
      let result: Awaited<ReturnType<typeof graphql>>;
      try {
        result = await graphql('{ structure_list { id pathways_out { id waypoints { id } cable_segments { id } } pathways_in { id } } }');
      } finally {
        spy.mockRestore();
      }
      expect(result.errors).toBeUndefined();
      expect(result.data!.structure_list).toHaveLength(3);
      const touching = (table: string) => statements.filter((sql) => new RegExp(`\\b${table}\\b`).test(sql)).length;
      expect(touching('pathways_pathway')).toBe(2);
      expect(touching('pathways_pathwaylocation')).toBe(1);
      expect(touching('pathways_cablesegment')).toBe(1);
    });
  });

  describe('filters named after a foreign key', () => {
    it('take the id, as the upstream filtersets do', async () => {
      const same: Array<[string, string]> = [
        [`${P}/pathways/?start_structure=${fx.b.id}`, `${P}/pathways/?start_structure_id=${fx.b.id}`],
        [`${P}/pathways/?end_structure=${fx.b.id}`, `${P}/pathways/?end_structure_id=${fx.b.id}`],
        [`${P}/conduits/?start_structure=${fx.a.id}`, `${P}/conduits/?start_structure_id=${fx.a.id}`],
        [`${P}/conduit-banks/?end_structure=${fx.b.id}`, `${P}/conduit-banks/?end_structure_id=${fx.b.id}`],
        [`${P}/aerial-spans/?end_structure=${fx.c.id}`, `${P}/aerial-spans/?end_structure_id=${fx.c.id}`],
        [`${P}/conduits/?conduit_bank=${fx.bank.id}`, `${P}/conduits/?conduit_bank_id=${fx.bank.id}`],
        [`${P}/innerducts/?parent_conduit=${fx.trunk.id}`, `${P}/innerducts/?parent_conduit_id=${fx.trunk.id}`],
        [`${P}/junctions/?trunk_conduit=${fx.trunk.id}`, `${P}/junctions/?trunk_conduit_id=${fx.trunk.id}`],
        [`${P}/junctions/?branch_conduit=${fx.branch.id}`, `${P}/junctions/?branch_conduit_id=${fx.branch.id}`],
        [`${P}/junctions/?towards_structure=${fx.b.id}`, `${P}/junctions/?towards_structure_id=${fx.b.id}`],
        [`${P}/cable-segments/?cable=${fx.cable.id}`, `${P}/cable-segments/?cable_id=${fx.cable.id}`],
        [`${P}/cable-segments/?pathway=${fx.span.id}`, `${P}/cable-segments/?pathway_id=${fx.span.id}`],
        [`${P}/pathway-locations/?pathway=${fx.span.id}`, `${P}/pathway-locations/?pathway_id=${fx.span.id}`],
        [`${P}/site-geometries/?structure=${fx.a.id}`, `${P}/site-geometries/?structure_id=${fx.a.id}`],
        [`${P}/planned-routes/?start_structure=${fx.a.id}`, `${P}/planned-routes/?start_structure_id=${fx.a.id}`],
        [`${P}/planned-routes/?cable=${fx.cable.id}`, `${P}/planned-routes/?cable_id=${fx.cable.id}`],
      ];
      for (const [byName, byId] of same) {
        const found = await restIds(byName);
        expect({ byName, found: found.length > 0 }).toEqual({ byName, found: true });
        expect({ byName, found }).toEqual({ byName, found: await restIds(byId) });
      }
      expect(await restIds(`${P}/conduits/?conduit_bank=${fx.bank.id}`)).toEqual(fx.inBank.map((row: any) => row.id));
      expect(await restIds(`${P}/cable-segments/?pathway=${fx.span.id}`)).toEqual([fx.segments[1].id]);
      // The natural key stays reachable under its own name.
      expect(await restIds(`${P}/conduit-banks/?start_structure__name=A`)).toEqual([fx.bank.id]);
    });

    it('refuse a value of the wrong kind, or an id that names nothing, with 400 naming the parameter', async () => {
      for (const path of [
        `${P}/pathways/?start_structure=A`,
        `${P}/conduits/?end_structure=B`,
        `${P}/conduits/?conduit_bank=bank`,
        `${P}/innerducts/?parent_conduit=trunk`,
        `${P}/junctions/?trunk_conduit=x`,
        `${P}/cable-segments/?cable=gql-feeder`,
        `${P}/cable-segments/?pathway=span`,
        `${P}/pathway-locations/?pathway=1.5`,
        `${P}/site-geometries/?structure=A`,
        `${P}/planned-routes/?end_structure=C`,
      ]) {
        const response = await root.get(path);
        const parameter = new URL(path, 'http://x').searchParams.keys().next().value as string;
        expect({ path, status: response.status, body: response.body }).toEqual({
          path,
          status: 400,
          body: { [parameter]: [expect.stringContaining('is not a valid value')] },
        });
      }
      const unknown = await root.get(`${P}/conduits/?conduit_bank=2147483647`);
      expect({ status: unknown.status, body: unknown.body }).toEqual({
        status: 400,
        body: { conduit_bank: ['Select a valid choice. 2147483647 is not one of the available choices.'] },
      });
    });
  });
});
