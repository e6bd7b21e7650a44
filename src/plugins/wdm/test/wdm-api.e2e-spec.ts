import { describeResourceApi, usePlatformApp } from '../../../../test/support/resource-api-kit';

const W = '/api/plugins/wdm';

/** The generic REST and GraphQL contract of each writable wdm model (its rules are in wdm.e2e-spec.ts). */
describe('wdm plugin: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  /** A device type without a WDM profile, so nodes on its devices start empty. */
  const deviceFixtures = async ({ api, unique }: { api: any; unique: (prefix: string) => string }, devices: number) => {
    const maker = await api.created('/api/dcim/manufacturers/', { name: unique('wdm-maker'), slug: unique('wdm-maker') });
    const type = await api.created('/api/dcim/device-types/', {
      manufacturer: maker.id,
      model: unique('wdm-type'),
      slug: unique('wdm-type'),
    });
    const site = await api.created('/api/dcim/sites/', { name: unique('wdm-site'), slug: unique('wdm-site') });
    const role = await api.created('/api/dcim/device-roles/', { name: unique('wdm-role'), slug: unique('wdm-role') });
    const list = [];
    for (let index = 0; index < devices; index++) {
      list.push(
        await api.created('/api/dcim/devices/', { name: unique('wdm-device'), device_type: type.id, role: role.id, site: site.id }),
      );
    }
    return { maker, type, devices: list };
  };

  describeResourceApi({
    app,
    path: `${W}/wdm-profiles/`,
    objectType: 'wdm.wdmprofile',
    graphqlName: 'wdm_profile',
    fixtures: async (tools) => {
      const { maker } = await deviceFixtures(tools, 0);
      const types = [];
      for (let index = 0; index < 3; index++) {
        types.push(
          await tools.api.created('/api/dcim/device-types/', {
            manufacturer: maker.id,
            model: tools.unique('p-type'),
            slug: tools.unique('p-type'),
          }),
        );
      }
      return { types };
    },
    create: (fx) => [
      { device_type: fx.types[0].id, node_type: 'roadm', grid: 'dwdm_c_100ghz' },
      { device_type: fx.types[1].id, node_type: 'terminal_mux', grid: 'cwdm', fiber_type: 'single_fiber' },
      { device_type: fx.types[2].id, node_type: 'amplifier', grid: 'cwdm', description: 'booster' },
    ],
    update: { node_type: 'oadm', description: 'add/drop' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'node_type', 'grid', 'description'],
    filters: { 'grid=cwdm': [1, 2], 'node_type=roadm': [0] },
    invalid: [
      { body: { node_type: 'roadm', grid: 'cwdm' }, field: 'non_field_errors' },
      { body: (fx) => ({ device_type: fx.types[0].id, node_type: 'roadm', grid: 'dwdm_x' }), field: 'grid' },
    ],
  });

  describeResourceApi({
    app,
    path: `${W}/wdm-channel-plans/`,
    objectType: 'wdm.wdmchannelplan',
    graphqlName: 'wdm_channel_plan',
    graphqlListFilters: false,
    fixtures: async (tools) => {
      const { type } = await deviceFixtures(tools, 0);
      return {
        profile: await tools.api.created(`${W}/wdm-profiles/`, { device_type: type.id, node_type: 'roadm', grid: 'dwdm_c_100ghz' }),
      };
    },
    create: (fx) => [
      { profile: fx.profile.id, grid_position: 1 },
      { profile: fx.profile.id, grid_position: 2 },
      { profile: fx.profile.id, grid_position: 3 },
    ],
    update: { grid_position: 10 },
    brief: ['id', 'url', 'display', 'grid_position', 'label', 'wavelength_nm'],
    filters: { 'grid_position=2': [1] },
    invalid: [{ body: (fx) => ({ profile: fx.profile.id, grid_position: 45 }), field: 'grid_position' }],
  });

  describeResourceApi({
    app,
    path: `${W}/wdm-line-port-plans/`,
    objectType: 'wdm.wdmlineportplan',
    graphqlName: null,
    fixtures: async (tools) => {
      const { type } = await deviceFixtures(tools, 0);
      const templates = [];
      for (const name of ['L1', 'L2', 'L3']) {
        templates.push(
          await tools.api.created('/api/dcim/rear-port-templates/', { device_type: type.id, name, type: 'lc', positions: 44 }),
        );
      }
      return {
        templates,
        profile: await tools.api.created(`${W}/wdm-profiles/`, { device_type: type.id, node_type: 'roadm', grid: 'cwdm' }),
      };
    },
    create: (fx) => [
      { profile: fx.profile.id, rear_port_template: fx.templates[0].id, direction: 'east', role: 'tx' },
      { profile: fx.profile.id, rear_port_template: fx.templates[1].id, direction: 'east', role: 'rx' },
      { profile: fx.profile.id, rear_port_template: fx.templates[2].id },
    ],
    update: { direction: 'west' },
    bulkUpdate: { role: 'bidi' },
    brief: ['id', 'url', 'display', 'direction', 'role'],
    filters: { 'role=rx': [1], 'direction=common': [2] },
    invalid: [{ body: (fx) => ({ profile: fx.profile.id, rear_port_template: fx.templates[0].id, role: 'sideways' }), field: 'role' }],
  });

  describeResourceApi({
    app,
    path: `${W}/wdm-nodes/`,
    objectType: 'wdm.wdmnode',
    graphqlName: 'wdm_node',
    fixtures: (tools) => deviceFixtures(tools, 3),
    create: (fx) => [
      { device: fx.devices[0].id, node_type: 'roadm', grid: 'dwdm_c_100ghz' },
      { device: fx.devices[1].id, node_type: 'terminal_mux', grid: 'cwdm' },
      { device: fx.devices[2].id, node_type: 'oadm', grid: 'cwdm', description: 'branch' },
    ],
    update: { node_type: 'oadm', description: 'converted' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'device', 'node_type', 'grid'],
    filters: (fx) => ({ 'grid=cwdm': [1, 2], 'node_type=roadm': [0], [`device_id=${fx.devices[1].id}`]: [1] }),
    invalid: [{ body: (fx) => ({ device: fx.devices[0].id, node_type: 'roadm', grid: 'c-band' }), field: 'grid' }],
  });

  describeResourceApi({
    app,
    path: `${W}/wdm-line-ports/`,
    objectType: 'wdm.wdmlineport',
    graphqlName: 'wdm_line_port',
    graphqlListFilters: false,
    fixtures: async (tools) => {
      const { devices } = await deviceFixtures(tools, 2);
      const ports = [];
      for (const name of ['R1', 'R2', 'R3']) {
        ports.push(await tools.api.created('/api/dcim/rear-ports/', { device: devices[0].id, name, type: 'lc', positions: 44 }));
      }
      const foreign = await tools.api.created('/api/dcim/rear-ports/', { device: devices[1].id, name: 'R9', type: 'lc' });
      const node = await tools.api.created(`${W}/wdm-nodes/`, { device: devices[0].id, node_type: 'roadm', grid: 'dwdm_c_100ghz' });
      return { ports, foreign, node };
    },
    create: (fx) => [
      { wdm_node: fx.node.id, rear_port: fx.ports[0].id, direction: 'east', role: 'tx' },
      { wdm_node: fx.node.id, rear_port: fx.ports[1].id, direction: 'east', role: 'rx' },
      { wdm_node: fx.node.id, rear_port: fx.ports[2].id, direction: 'west', role: 'bidi' },
    ],
    update: { direction: 'west', role: 'tx' },
    brief: ['id', 'url', 'display', 'direction', 'role'],
    filters: { 'role=rx': [1], 'direction=west': [2] },
    invalid: [{ body: (fx) => ({ wdm_node: fx.node.id, rear_port: fx.foreign.id }), field: 'rear_port' }],
  });

  describeResourceApi({
    app,
    path: `${W}/wdm-channels/`,
    objectType: 'wdm.wdmchannel',
    graphqlName: 'wdm_channel',
    fixtures: async (tools) => {
      const { devices } = await deviceFixtures(tools, 1);
      return { node: await tools.api.created(`${W}/wdm-nodes/`, { device: devices[0].id, node_type: 'roadm', grid: 'dwdm_c_100ghz' }) };
    },
    create: (fx) => [
      { wdm_node: fx.node.id, grid_position: 10 },
      { wdm_node: fx.node.id, grid_position: 11, status: 'reserved' },
      { wdm_node: fx.node.id, grid_position: 12, status: 'active' },
    ],
    update: { status: 'active' },
    bulkUpdate: { status: 'reserved' },
    brief: ['id', 'url', 'display', 'grid_position', 'label', 'wavelength_nm', 'status'],
    filters: { 'status=reserved': [1], 'grid_position=12': [2] },
    invalid: [{ body: (fx) => ({ wdm_node: fx.node.id, grid_position: 45 }), field: 'grid_position' }],
  });

  describeResourceApi({
    app,
    path: `${W}/wdm-circuits/`,
    objectType: 'wdm.wdmcircuit',
    graphqlName: 'wdm_circuit',
    create: [{ name: 'LAMBDA-A' }, { name: 'LAMBDA-B', status: 'staged' }, { name: 'LAMBDA-C', status: 'active', description: 'metro' }],
    update: { status: 'active', comments: 'lit' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'status', 'description'],
    filters: { 'status=active': [2], 'name=LAMBDA-B': [1] },
    invalid: [{ body: { name: 'LAMBDA-D', status: 'lit' }, field: 'status' }],
  });
});
