import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { PASSWORD } from './support/api-client';
import { PlatformClient, provisionToken, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const F = '/api/plugins/fms';
const N = '/api/plugins/notices';

/**
 * What a client written against the upstream NetBox plugins sends, answered as those plugins and
 * NetBox 4 answer it: GraphQL's bare query names, `id: ID!`, strawberry lookup filters, reverse
 * nested lists and computed fields (compared with REST); foreign-key filters by id; object-type
 * references under the upstream app labels; the computed fields in the OpenAPI components.
 */
describe('upstream plugin API shapes', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  const fx: Record<string, any> = {};

  const graphql = async (query: string, variables?: Record<string, unknown>, status = 200) => {
    const response = await root.post('/graphql/', { query, variables });
    expect({ query, status: response.status }).toEqual({ query, status });
    return response.body as { data?: Record<string, any>; errors?: Array<{ message: string }> };
  };
  const restList = async (path: string) => {
    const response = await root.get(path);
    expect({ path, status: response.status, problems: response.status === 200 ? undefined : response.body }).toEqual({ path, status: 200 });
    return response.body.results as Array<Record<string, any>>;
  };
  const ids = (objects: ReadonlyArray<Record<string, any>>) => objects.map((object) => Number(object.id));

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    const site = await root.created('/api/dcim/sites/', { name: 'POP1', slug: 'pop1' });
    const maker = await root.created('/api/dcim/manufacturers/', { name: 'Corning', slug: 'corning' });
    const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: maker.id, model: 'FOSC 450', slug: 'fosc-450' });
    const role = await root.created('/api/dcim/device-roles/', { name: 'Closure', slug: 'closure' });
    fx.closure = await root.created('/api/dcim/devices/', { name: 'closure-1', device_type: deviceType.id, role: role.id, site: site.id });
    const odf = await root.created('/api/dcim/devices/', { name: 'odf-1', device_type: deviceType.id, role: role.id, site: site.id });
    fx.type = await root.created(`${F}/cable-types/`, {
      manufacturer: maker.id,
      model: 'ALTOS 8',
      construction: 'loose_tube',
      strand_count: 8,
    });
    fx.twisted = await root.created(`${F}/cable-types/`, {
      manufacturer: maker.id,
      model: 'ALTOS 8 twisted',
      construction: 'loose_tube',
      strand_count: 8,
      twist_factor_ratio: 0.5,
    });
    for (const type of [fx.type, fx.twisted]) {
      for (const position of [1, 2]) {
        await root.created(`${F}/buffer-tube-templates/`, { fiber_cable_type: type.id, name: `T${position}`, position, fiber_count: 4 });
      }
    }
    fx.cables = [];
    for (let index = 1; index <= 5; index++) {
      const near = await root.created('/api/dcim/rear-ports/', { device: odf.id, name: `R${index}`, type: 'splice' });
      const far = await root.created('/api/dcim/rear-ports/', { device: fx.closure.id, name: `R${index}`, type: 'splice' });
      const cable = await root.created('/api/dcim/cables/', {
        type: 'smf-os2',
        label: `feeder-${index}`,
        length: 100 * index,
        length_unit: 'm',
        a_terminations: [{ object_type: 'dcim.rearport', object_id: near.id }],
        b_terminations: [{ object_type: 'dcim.rearport', object_id: far.id }],
      });
      fx.cables.push(
        await root.created(`${F}/fiber-cables/`, { fiber_cable_type: (index === 1 ? fx.twisted : fx.type).id, cable: cable.id }),
      );
    }
    const trayType = await root.created('/api/dcim/module-types/', { manufacturer: maker.id, model: 'Splice tray 12' });
    const bay = await root.created('/api/dcim/module-bays/', { device: fx.closure.id, name: 'Tray slot 1' });
    fx.tray = await root.created('/api/dcim/modules/', { device: fx.closure.id, module_bay: bay.id, module_type: trayType.id });
    fx.ports = [];
    for (let index = 1; index <= 4; index++) {
      fx.ports.push(
        await root.created('/api/dcim/front-ports/', { device: fx.closure.id, module: fx.tray.id, name: `P${index}`, type: 'splice' }),
      );
    }
    fx.northPlan = await root.created(`${F}/splice-plans/`, { closure: fx.closure.id, name: 'North ring' });
    fx.southPlan = await root.created(`${F}/splice-plans/`, { closure: fx.closure.id, name: 'South ring' });
    fx.entry = await root.created(`${F}/splice-plan-entries/`, {
      plan: fx.northPlan.id,
      tray: fx.tray.id,
      fiber_a: fx.ports[0].id,
      fiber_b: fx.ports[1].id,
    });
    const provider = await root.created('/api/circuits/providers/', { name: 'Zayo', slug: 'zayo' });
    for (const [name, status] of [
      ['MAINT-1', 'CONFIRMED'],
      ['MAINT-2', 'TENTATIVE'],
      ['MAINT-3', 'CONFIRMED'],
    ]) {
      await root.created(`${N}/maintenance/`, {
        name,
        summary: 'fibre work',
        provider: provider.id,
        status,
        start: '2030-01-01T00:00:00Z',
        end: '2030-01-01T02:00:00Z',
      });
    }
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('GraphQL', () => {
    it('serves the bare upstream query names with `id: ID!`, nested lists and computed fields equal to REST', async () => {
      const cable = fx.cables[0];
      const result = await graphql(
        `
          query ($id: ID!) {
            fiber_cable(id: $id) {
              __typename
              id
              glass_length
              fiber_cable_type {
                id
                model
              }
              buffer_tubes {
                id
                name
                fiber_strands {
                  id
                  name
                }
              }
              fiber_strands {
                id
                name
                position
              }
            }
          }
        `,
        { id: String(cable.id) },
      );
      expect(result.errors).toBeUndefined();
      const rest = (await root.get(`${F}/fiber-cables/${cable.id}/`)).body;
      const strands = await restList(`${F}/fiber-strands/?fiber_cable_id=${cable.id}&limit=100`);
      const tubes = await restList(`${F}/buffer-tubes/?fiber_cable_id=${cable.id}`);
      expect(rest.glass_length).toBe(150);
      expect(result.data!.fiber_cable).toEqual({
        __typename: 'FiberCableInstanceType',
        id: String(cable.id),
        glass_length: rest.glass_length,
        fiber_cable_type: { id: String(fx.twisted.id), model: 'ALTOS 8 twisted' },
        buffer_tubes: await Promise.all(
          tubes.map(async (tube) => ({
            id: String(tube.id),
            name: tube.name,
            fiber_strands: (await restList(`${F}/fiber-strands/?buffer_tube_id=${tube.id}`)).map((strand) => ({
              id: String(strand.id),
              name: strand.name,
            })),
          })),
        ),
        fiber_strands: strands.map((strand) => ({ id: String(strand.id), name: strand.name, position: strand.position })),
      });
      expect(result.data!.fiber_cable.fiber_strands).toHaveLength(8);

      const type = await graphql(
        `{ fiber_cable_type(id: ${fx.type.id}) { instance_count buffer_tube_template_count instances { id } buffer_tube_templates { name } } }`,
      );
      expect(type.data!.fiber_cable_type).toEqual({
        instance_count: 4,
        buffer_tube_template_count: 2,
        instances: ids(await restList(`${F}/fiber-cables/?fiber_cable_type_id=${fx.type.id}`)).map((id) => ({ id: String(id) })),
        buffer_tube_templates: [{ name: 'T1' }, { name: 'T2' }],
      });
    });

    it('resolves each nested level of a whole page in one statement (no query per row)', async () => {
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
            fiber_cable_list {
              id
              glass_length
              buffer_tubes {
                id
                fiber_strands {
                  id
                }
              }
              fiber_strands {
                id
              }
              cable_elements {
                id
              }
            }
          }
        `);
      } finally {
        spy.mockRestore();
      }
      expect(result.errors).toBeUndefined();
      expect(result.data!.fiber_cable_list).toHaveLength(5);
      expect(result.data!.fiber_cable_list.every((cable: any) => cable.fiber_strands.length === 8 && cable.buffer_tubes.length === 2)).toBe(
        true,
      );
      const touching = (table: string) => statements.filter((sql) => sql.includes(table)).length;
      // Tubes once for the page; strands once for the cables and once for all their tubes; elements once; glass_length once.
      expect(touching('fms_buffertube')).toBe(1);
      expect(touching('fms_fiberstrand')).toBe(2);
      expect(touching('fms_cableelement')).toBe(1);
      expect(touching('fms_fibercabletype')).toBe(1);
      expect(statements.length).toBeLessThanOrEqual(9);
    });

    it('takes typed scalars and NetBox 4 lookup objects in filters, selecting what the REST parameters select', async () => {
      const cable = fx.cables[1];
      const cases: Array<[string, string]> = [
        [`splice_plan_list(filters: { name: { i_contains: "NORTH" } })`, `${F}/splice-plans/?name__ic=NORTH`],
        [`splice_plan_list(filters: { name: { i_starts_with: "south" } })`, `${F}/splice-plans/?name__isw=south`],
        [`splice_plan_list(filters: { id: ${fx.southPlan.id} })`, `${F}/splice-plans/?id=${fx.southPlan.id}`],
        [
          `splice_plan_list(filters: { id: { in_list: [${fx.northPlan.id}, ${fx.southPlan.id}] } })`,
          `${F}/splice-plans/?id=${fx.northPlan.id}&id=${fx.southPlan.id}`,
        ],
        [
          `fiber_strand_list(filters: { fiber_cable_id: { exact: ${cable.id} }, position: { range: { start: 3, end: 5 } } })`,
          `${F}/fiber-strands/?fiber_cable_id=${cable.id}&position__gte=3&position__lte=5`,
        ],
        [
          `fiber_strand_list(filters: { fiber_cable_id: ${cable.id}, position: { gt: 6 } })`,
          `${F}/fiber-strands/?fiber_cable_id=${cable.id}&position__gt=6`,
        ],
        [
          `fiber_strand_list(filters: { fiber_cable_id: ["${cable.id}"], ribbon_id: { is_null: true }, position: 2 })`,
          `${F}/fiber-strands/?fiber_cable_id=${cable.id}&ribbon_id__isnull=true&position=2`,
        ],
        [`maintenance_list(filters: { status: { exact: "CONFIRMED" } })`, `${N}/maintenance/?status=CONFIRMED`],
        [`maintenance_list(filters: { name: { i_exact: "maint-2" } })`, `${N}/maintenance/?name__ie=maint-2`],
      ];
      for (const [selection, rest] of cases) {
        const expected = ids(await restList(rest));
        const result = await graphql(`{ list: ${selection} { id } }`);
        expect({ selection, errors: result.errors, ids: result.data && ids(result.data.list) }).toEqual({
          selection,
          errors: undefined,
          ids: expected,
        });
        expect(expected.length).toBeGreaterThan(0);
      }
      const variables = await graphql(
        `
          query ($cable: FilterValue, $position: Int) {
            fiber_strand_list(filters: { fiber_cable_id: $cable, position: { exact: $position } }) {
              position
            }
          }
        `,
        { cable: cable.id, position: 4 },
      );
      expect(variables).toEqual({ data: { fiber_strand_list: [{ position: 4 }] } });
      expect(
        (
          await graphql(`
            {
              wdm_node_list(filters: { id: 5 }) {
                id
              }
            }
          `)
        ).data,
      ).toEqual({ wdm_node_list: [] });
    });

    it('refuses a lookup it cannot honour, a value of the wrong type and an id no object can have, by name', async () => {
      // A literal the filter input cannot read fails validation (400); a value the REST parameter refuses fails the field (200, null).
      const refused = async (query: string, status: number, message: RegExp) => {
        const result = await graphql(query, undefined, status);
        expect({ query, data: result.data?.list ?? null, message: result.errors?.[0]?.message }).toEqual({
          query,
          data: null,
          message: expect.stringMatching(message),
        });
      };
      await refused(`{ list: splice_plan_list(filters: { name: { contains: "North" } }) { id } }`, 400, /lookup contains is not supported/);
      await refused(`{ list: splice_plan_list(filters: { name: { like: "North" } }) { id } }`, 400, /unknown lookup like/);
      await refused(`{ list: splice_plan_list(filters: { name: { exact: ["a", "b"] } }) { id } }`, 400, /in_list takes a list/);
      await refused(`{ list: fiber_strand_list(filters: { position: "third" }) { id } }`, 200, /whole number/);
      await refused(
        `{ list: fiber_strand_list(filters: { position__gte: { exact: 3 } }) { id } }`,
        200,
        /lookup object applies to a bare field name \(position\)/,
      );
      await refused(`{ list: fiber_cable(id: "abc") { id } }`, 200, /"abc" is not a valid object id/);
      expect(
        (
          await graphql(`
            {
              list: fiber_cable(id: 2147483000) {
                id
              }
            }
          `)
        ).data,
      ).toEqual({ list: null });
    });

    it('keeps the prefixed names as deprecated aliases of the same queries', async () => {
      const result = await graphql(
        `{ old: fms_splice_plan(id: ${fx.northPlan.id}) { name entries { id } entry_count } new: splice_plan(id: ${fx.northPlan.id}) { name entries { id } entry_count }
           structures: pathways_structure_list { id } bare: structure_list { id } }`,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.old).toEqual({ name: 'North ring', entries: [{ id: String(fx.entry.id) }], entry_count: 1 });
      expect(result.data!.new).toEqual(result.data!.old);
      expect(result.data!.structures).toEqual(result.data!.bare);
      const schema = await graphql(`
        {
          __type(name: "Query") {
            fields(includeDeprecated: true) {
              name
              isDeprecated
              deprecationReason
            }
          }
        }
      `);
      const fields = new Map<string, any>(schema.data!.__type.fields.map((field: any) => [field.name, field]));
      expect(fields.get('fms_splice_plan_list')).toEqual({
        name: 'fms_splice_plan_list',
        isDeprecated: true,
        deprecationReason: 'Use splice_plan_list.',
      });
      expect(fields.get('splice_plan_list')).toMatchObject({ isDeprecated: false });
      expect(fields.get('conduit_bank')).toMatchObject({ isDeprecated: false });
      expect(fields.get('pathways_conduit_bank')).toMatchObject({ isDeprecated: true });
      expect(fields.get('fiber_circuit_path_list')).toMatchObject({ isDeprecated: false });
    });
  });

  describe('filters named after a foreign key', () => {
    it('take the id, as the upstream filtersets do, and refuse any other value with 400', async () => {
      const entries = await restList(`${F}/splice-plan-entries/?fiber_a=${fx.ports[0].id}`);
      expect(ids(entries)).toEqual([fx.entry.id]);
      expect(await restList(`${F}/splice-plan-entries/?fiber_b=${fx.ports[0].id}`)).toEqual([]);
      expect(ids(await restList(`${F}/splice-plan-entries/?fiber_a__name=P1`))).toEqual([fx.entry.id]);
      for (const path of [
        `${F}/splice-plan-entries/?fiber_a=P1`,
        `${F}/tube-assignments/?closure=closure-1`,
        `${F}/tube-assignments/?tray=first`,
        `${F}/tube-assignments/?buffer_tube=T1`,
        `${F}/closure-cable-entries/?fiber_cable=feeder-1`,
        `${F}/tray-profiles/?module_type=tray`,
        `${F}/fiber-circuits/?tenant=acme`,
        `${F}/fiber-circuit-paths/?circuit=DF-1`,
        '/api/plugins/wdm/wdm-channel-plans/?profile=x',
        '/api/plugins/wdm/wdm-line-port-plans/?profile=x',
        '/api/plugins/wdm/wdm-line-ports/?wdm_node=node-1',
        '/api/plugins/wdm/wdm-channels/?wdm_node=node-1',
        '/api/plugins/peering/peering-network/?fabric=ams-ix',
        '/api/plugins/peering/peering-connection/?peering_network=LAN',
        '/api/plugins/peering/peering-connection/?interface=xe-0/0/1',
      ]) {
        const response = await root.get(path);
        const parameter = new URL(path, 'http://x').searchParams.keys().next().value as string;
        expect({ path, status: response.status, body: response.body }).toEqual({
          path,
          status: 400,
          body: { [parameter]: [expect.stringContaining('is not a valid value')] },
        });
      }
      expect(ids(await restList(`${F}/tube-assignments/?closure=${fx.closure.id}&tray=${fx.tray.id}`))).toEqual([]);
      // An id that names nothing is refused as Django's model-choice filter refuses it.
      const unknown = await root.get('/api/plugins/wdm/wdm-channels/?wdm_node=2147483647');
      expect({ status: unknown.status, body: unknown.body }).toEqual({
        status: 400,
        body: { wdm_node: ['Select a valid choice. 2147483647 is not one of the available choices.'] },
      });
    });
  });

  describe('object types under the upstream app labels', () => {
    it('accepts netbox_fms.* in custom fields, permissions, event rules and change-log filters, and reads them back as ours', async () => {
      const field = await root.created('/api/extras/custom-fields/', {
        name: 'route_km',
        type: 'integer',
        object_types: ['netbox_fms.fibercable'],
      });
      expect(field.object_types).toEqual(['fms.fibercable']);
      const written = await root.patch(`${F}/fiber-cables/${fx.cables[2].id}/`, { custom_fields: { route_km: 12 } });
      expect(written.status).toBe(200);
      expect(written.body.custom_fields).toEqual({ route_km: 12 });

      const reader = root.as(await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
      expect((await reader.get(`${F}/splice-plans/`)).body.count).toBe(0);
      const permission = await root.created('/api/users/permissions/', {
        name: 'upstream plan readers',
        object_types: ['netbox_fms.spliceplan'],
        actions: ['view'],
        users: [seeded.w.user1.id],
      });
      expect(permission.object_types).toEqual(['fms.spliceplan']);
      expect(ids((await reader.get(`${F}/splice-plans/`)).body.results).sort()).toEqual([fx.northPlan.id, fx.southPlan.id].sort());
      // Nested lists are restricted as everywhere: the plans are visible, their entries are not.
      const nested = await reader.post('/graphql/', { query: '{ splice_plan_list { name entries { id } } }' });
      expect(nested.body).toEqual({
        data: {
          splice_plan_list: [
            { name: 'North ring', entries: [] },
            { name: 'South ring', entries: [] },
          ],
        },
      });

      const webhook = await root.created('/api/extras/webhooks/', { name: 'plans', payload_url: 'https://hooks.example.net/plans' });
      const rule = await root.created('/api/extras/event-rules/', {
        name: 'plan changes',
        object_types: ['netbox_fms.spliceplan', 'netbox_pathways.structure', 'netbox_wdm.wdmnode', 'netbox_peering_manager.peeringfabric'],
        event_types: ['object_updated'],
        action_type: 'webhook',
        action_object_type: 'extras.webhook',
        action_object_id: webhook.id,
      });
      expect([...rule.object_types].sort()).toEqual(['fms.spliceplan', 'pathways.structure', 'peering.peeringfabric', 'wdm.wdmnode']);

      const upstream = await restList(`/api/core/object-changes/?changed_object_type=netbox_fms.spliceplan&limit=1000`);
      const ours = await restList(`/api/core/object-changes/?changed_object_type=fms.spliceplan&limit=1000`);
      expect(upstream.length).toBeGreaterThanOrEqual(2);
      expect(ids(upstream)).toEqual(ids(ours));
      expect(upstream.every((change) => change.changed_object_type === 'fms.spliceplan')).toBe(true);
      expect(
        (await root.post('/api/extras/custom-fields/', { name: 'x', type: 'text', object_types: ['netbox_other.thing'] })).status,
      ).toBe(400);
    });
  });

  describe('OpenAPI', () => {
    it('documents the computed read-only fields and the sent-notification filters', async () => {
      const schema = (await root.get('/api/schema/')).body;
      const components = schema.components.schemas;
      const property = (component: string, name: string) => components[component]?.properties?.[name];
      const computed: Array<[string, string]> = [
        ['FmsFibercabletype', 'instance_count'],
        ['FmsFibercable', 'glass_length'],
        ['FmsSpliceplan', 'plan_version'],
        ['FmsSpliceplan', 'entry_count'],
        ['FmsSlackloop', 'loop_length'],
        ['FmsFibercircuitpath', 'calculated_loss_db'],
        ['NoticesOutage', 'status_color'],
        ['NoticesMaintenance', 'impact_count'],
        ['PeeringPeeringfabric', 'peerdb'],
        ['PeeringIrrsource', 'prefix_list_count'],
        ['PathwaysConduit', 'pathway_type'],
      ];
      for (const [component, name] of computed) {
        expect({ component, name, property: property(component, name) }).toEqual({
          component,
          name,
          property: expect.objectContaining({ readOnly: true, type: expect.any(String) }),
        });
      }
      const parameters = (schema.paths[`${N}/sent-notifications/`].get.parameters as Array<{ name: string }>).map(
        (parameter) => parameter.name,
      );
      expect(parameters).toEqual(expect.arrayContaining(['limit', 'offset', 'q', 'status', 'template_id', 'created__gte']));
    });
  });
});
