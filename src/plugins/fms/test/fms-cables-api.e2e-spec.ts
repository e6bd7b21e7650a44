import type { Created } from '../../../../test/support/factories';
import { describeResourceApi, usePlatformApp } from '../../../../test/support/resource-api-kit';
import { fmsFactories } from './fms-factories';

const F = '/api/plugins/fms';

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of fiber cables, their
 * components (tubes, ribbons, strands, elements), ribbon templates and slack loops; component
 * generation and the marks' rules are in fms.e2e-spec.ts.
 */
describe('platform fms plugin: the REST and GraphQL contract of fiber cables and their components', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${F}/ribbon-templates/`,
    objectType: 'fms.ribbontemplate',
    graphqlName: 'ribbon_template',
    fixtures: async ({ api }) => {
      const { fms } = fmsFactories(api);
      const type = await fms.cableType({ construction: 'ribbon', strand_count: 48 });
      const other = await fms.cableType();
      const tube = await api.created(`${F}/buffer-tube-templates/`, { fiber_cable_type: type.id, name: 'RT', position: 1 });
      const foreignTube = await api.created(`${F}/buffer-tube-templates/`, { fiber_cable_type: other.id, name: 'RT', position: 1 });
      return { type, tube, foreignTube };
    },
    create: (fx) => [
      { fiber_cable_type: fx.type.id, name: 'R1', position: 1, fiber_count: 12 },
      { fiber_cable_type: fx.type.id, buffer_tube_template: fx.tube.id, name: 'R2', position: 2, fiber_count: 12, color: '0000ff' },
      { fiber_cable_type: fx.type.id, name: 'R3', position: 3, fiber_count: 24, marker_count: 1, marker_type: 'stripe' },
    ],
    update: { description: 'ribbon stack', fiber_count: 6 },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'position', 'fiber_count'],
    filters: (fx) => ({ 'fiber_count=24': [2], [`buffer_tube_template_id=${fx.tube.id}`]: [1], 'name=R1': [0] }),
    invalid: [
      {
        body: (fx) => ({ fiber_cable_type: fx.type.id, buffer_tube_template: fx.foreignTube.id, name: 'R9', position: 9, fiber_count: 12 }),
        field: 'buffer_tube_template',
      },
      { body: (fx) => ({ fiber_cable_type: fx.type.id, name: 'R9', position: 0, fiber_count: 12 }), field: 'position' },
    ],
  });

  describeResourceApi({
    app,
    path: `${F}/fiber-cables/`,
    objectType: 'fms.fibercable',
    graphqlName: 'fiber_cable',
    fixtures: async ({ api }) => {
      const f = fmsFactories(api);
      const closure = await f.device();
      const types = [await f.fms.cableType({ mark_unit: 'm' }), await f.fms.cableType()];
      const cables = [await f.fms.platformCable({}, { a: closure.id }), await f.fms.platformCable(), await f.fms.platformCable()];
      const copper = await f.fms.platformCable({ type: 'cat6' });
      return { closure, types, cables, copper, tenant: await f.tenant() };
    },
    create: (fx) => [
      { cable: fx.cables[0].id, fiber_cable_type: fx.types[0].id, start_mark: 100, end_mark: 350 },
      { cable: fx.cables[1].id, fiber_cable_type: fx.types[0].id, serial_number: 'SN-2', install_date: '2026-01-02' },
      { cable: fx.cables[2].id, fiber_cable_type: fx.types[1].id, installed_by: fx.tenant.id, notes: 'pulled by contractor' },
    ],
    update: { serial_number: 'SN-1', install_date: '2026-03-04' },
    bulkUpdate: { notes: 'surveyed' },
    brief: ['id', 'url', 'display', 'cable', 'fiber_cable_type'],
    filters: (fx) => ({
      'serial_number=SN-2': [1],
      [`fiber_cable_type_id=${fx.types[1].id}`]: [2],
      [`installed_by_id=${fx.tenant.id}`]: [2],
      [`terminated_device_id=${fx.closure.id}`]: [0],
    }),
    invalid: [
      { body: (fx) => ({ cable: fx.copper.id, fiber_cable_type: fx.types[0].id }), field: 'cable' },
      { body: (fx) => ({ cable: fx.cables[0].id, fiber_cable_type: fx.types[1].id, start_mark: 10 }), field: 'start_mark' },
    ],
  });

  /** Fiber cables of a type without templates: loose strands are all they get. */
  const components = async ({ api }: { api: Parameters<typeof fmsFactories>[0] }) => {
    const { fms } = fmsFactories(api);
    const cables = [await fms.fiberCable(), await fms.fiberCable()];
    return { cables, fms };
  };

  describeResourceApi({
    app,
    path: `${F}/buffer-tubes/`,
    objectType: 'fms.buffertube',
    graphqlName: 'buffer_tube',
    fixtures: async (tools) => {
      const { cables, fms } = await components(tools);
      const closure = await tools.factories.device();
      await fms.closureCableEntry(closure.id, cables[1].id);
      return { cables, closure };
    },
    create: (fx) => [
      { fiber_cable: fx.cables[0].id, name: 'T1', position: 1, color: '0000ff' },
      { fiber_cable: fx.cables[0].id, name: 'T2', position: 2, color: 'ff8000', marker_count: 2, marker_type: 'ring' },
      { fiber_cable: fx.cables[1].id, name: 'T1', position: 1, color: '0000ff' },
    ],
    update: { name: 'T1a', color: '00ff00' },
    bulkUpdate: { color: 'ffffff' },
    brief: ['id', 'url', 'display', 'name', 'position', 'color'],
    filters: (fx) => ({
      [`fiber_cable_id=${fx.cables[0].id}`]: [0, 1],
      'color=0000ff': [0, 2],
      [`closure_id=${fx.closure.id}`]: [2],
      'name=T2': [1],
    }),
    invalid: [
      { body: (fx) => ({ fiber_cable: fx.cables[0].id, name: 'T9', position: 9, color: 'blue' }), field: 'color' },
      { body: { name: 'T9', position: 9 }, field: 'fiber_cable' },
    ],
  });

  describeResourceApi({
    app,
    path: `${F}/ribbons/`,
    objectType: 'fms.ribbon',
    graphqlName: 'ribbon',
    fixtures: async (tools) => {
      const { cables, fms } = await components(tools);
      return { cables, tube: await fms.bufferTube({ fiber_cable: cables[0].id }) };
    },
    create: (fx) => [
      { fiber_cable: fx.cables[0].id, buffer_tube: fx.tube.id, name: 'R1', position: 1, color: '0000ff' },
      { fiber_cable: fx.cables[0].id, buffer_tube: fx.tube.id, name: 'R2', position: 2, color: 'ff8000' },
      { fiber_cable: fx.cables[1].id, name: 'R1', position: 1 },
    ],
    update: { position: 5, color: '00ff00' },
    bulkUpdate: { marker_count: 1, marker_type: 'stripe' },
    brief: ['id', 'url', 'display', 'name', 'position', 'color'],
    filters: (fx) => ({ [`buffer_tube_id=${fx.tube.id}`]: [0, 1], [`fiber_cable_id=${fx.cables[1].id}`]: [2], 'position=2': [1] }),
    invalid: [{ body: (fx) => ({ fiber_cable: fx.cables[0].id, name: 'R9', position: 0 }), field: 'position' }],
  });

  describeResourceApi({
    app,
    path: `${F}/fiber-strands/`,
    objectType: 'fms.fiberstrand',
    graphqlName: 'fiber_strand',
    fixtures: async (tools) => {
      const { cables, fms } = await components(tools);
      // The strands their type generated go: every strand a case makes is its own.
      const generated = await tools.api.get(
        `${F}/fiber-strands/?limit=1000&${cables.map((cable) => `fiber_cable_id=${cable.id}`).join('&')}`,
      );
      const removed = await tools.api.delete(
        `${F}/fiber-strands/`,
        generated.body.results.map((strand: Created) => ({ id: strand.id })),
      );
      if (removed.status !== 204) throw new Error(`removing the generated strands: ${removed.status}`);
      const device = await tools.factories.device();
      const ports: Created[] = [];
      for (let n = 0; n < 3; n++) ports.push(await tools.factories.frontPort({ device: device.id, type: 'splice' }));
      return { cables, ports, tube: await fms.bufferTube({ fiber_cable: cables[0].id }) };
    },
    create: (fx) => [
      { fiber_cable: fx.cables[0].id, buffer_tube: fx.tube.id, name: 'F1', position: 1, color: '0000ff', front_port_a: fx.ports[0].id },
      { fiber_cable: fx.cables[0].id, buffer_tube: fx.tube.id, name: 'F2', position: 2, color: 'ff8000', front_port_b: fx.ports[1].id },
      { fiber_cable: fx.cables[1].id, name: 'F1', position: 1, color: '00ff00' },
    ],
    update: (fx) => ({ color: 'a52a2a', front_port_b: fx.ports[2].id }),
    bulkUpdate: { marker_count: 1, marker_type: 'ring' },
    brief: ['id', 'url', 'display', 'name', 'position', 'color'],
    filters: (fx) => ({
      'has_front_port_a=true': [0],
      'has_front_port_b=true': [1],
      'has_front_port_a=false': [1, 2],
      [`buffer_tube_id=${fx.tube.id}`]: [0, 1],
      'color=00ff00': [2],
    }),
    invalid: [
      { body: (fx) => ({ fiber_cable: fx.cables[0].id, name: 'F9', position: 9 }), field: 'color' },
      {
        body: (fx) => ({ fiber_cable: fx.cables[0].id, name: 'F9', position: 9, color: '0000ff', front_port_a: 2147483000 }),
        field: 'front_port_a',
      },
    ],
  });

  describeResourceApi({
    app,
    path: `${F}/cable-elements/`,
    objectType: 'fms.cableelement',
    graphqlName: 'cable_element',
    fixtures: components,
    create: (fx) => [
      { fiber_cable: fx.cables[0].id, name: 'CSM', element_type: 'central_member' },
      { fiber_cable: fx.cables[0].id, name: 'Ripcord', element_type: 'ripcord' },
      { fiber_cable: fx.cables[1].id, name: 'CSM', element_type: 'central_member' },
    ],
    update: { name: 'Tracer', element_type: 'tracer_wire' },
    brief: ['id', 'url', 'display', 'name', 'element_type'],
    filters: (fx) => ({ 'element_type=central_member': [0, 2], [`fiber_cable_id=${fx.cables[0].id}`]: [0, 1] }),
    invalid: [{ body: (fx) => ({ fiber_cable: fx.cables[0].id, name: 'X', element_type: 'string' }), field: 'element_type' }],
  });

  describeResourceApi({
    app,
    path: `${F}/slack-loops/`,
    objectType: 'fms.slackloop',
    graphqlName: 'slack_loop',
    fixtures: async ({ api }) => {
      const f = fmsFactories(api);
      const metred = await f.fms.cableType({ mark_unit: 'm' });
      const cables = [await f.fms.fiberCable({ fiber_cable_type: metred.id }), await f.fms.fiberCable({ fiber_cable_type: metred.id })];
      const site = await f.site();
      const location = await f.location({ site: site.id });
      return { cables, site, location, unmarked: await f.fms.fiberCable(), otherSite: await f.site() };
    },
    create: (fx) => [
      { fiber_cable: fx.cables[0].id, site: fx.site.id, start_mark: 100, end_mark: 120 },
      { fiber_cable: fx.cables[0].id, site: fx.site.id, location: fx.location.id, start_mark: 200, end_mark: 230, storage_method: 'coil' },
      { fiber_cable: fx.cables[1].id, site: fx.otherSite.id, start_mark: 50.5, end_mark: 60, storage_method: 'on_pole' },
    ],
    update: { end_mark: 125, notes: 'in the handhole' },
    bulkUpdate: { storage_method: 'figure_8' },
    brief: ['id', 'url', 'display', 'fiber_cable', 'site', 'start_mark', 'end_mark'],
    filters: (fx) => ({
      [`site_id=${fx.otherSite.id}`]: [2],
      [`location_id=${fx.location.id}`]: [1],
      'storage_method=coil': [1],
      [`fiber_cable_id=${fx.cables[0].id}`]: [0, 1],
      'start_mark__gte=100': [0, 1],
    }),
    invalid: [
      { body: (fx) => ({ fiber_cable: fx.unmarked.id, site: fx.site.id, start_mark: 1, end_mark: 2 }), field: 'start_mark' },
      { body: (fx) => ({ fiber_cable: fx.cables[0].id, site: fx.site.id, start_mark: 1 }), field: 'end_mark' },
    ],
  });
});
