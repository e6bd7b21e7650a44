import type { Factories } from './support/factories';
import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';

const D = '/api/dcim';

interface DcimWorld {
  site: any;
  otherSite: any;
  manufacturer: any;
  deviceType: any;
  moduleType: any;
  devices: [any, any];
  rack: any;
  tenant: any;
  panel: any;
  rackRole: any;
  inventoryRole: any;
}

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of the DCIM models
 * beyond sites and devices: racks and their reservations, console and power components with
 * their templates, inventory, power panels and feeds, virtual chassis, VDCs and MAC addresses.
 * Their own rules (elevation, cable paths, validation) are in platform-dcim-racks-power.e2e-spec.ts.
 */
describe('platform DCIM: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  let worldMade: Promise<DcimWorld> | undefined;
  const world = (factories: Factories): Promise<DcimWorld> => (worldMade ??= makeWorld(factories));

  async function makeWorld(f: Factories): Promise<DcimWorld> {
    const site = await f.site();
    const manufacturer = await f.manufacturer();
    const deviceType = await f.deviceType({ manufacturer: manufacturer.id });
    return {
      site,
      otherSite: await f.site(),
      manufacturer,
      deviceType,
      moduleType: await f.moduleType({ manufacturer: manufacturer.id }),
      devices: [
        await f.device({ site: site.id, device_type: deviceType.id }),
        await f.device({ site: site.id, device_type: deviceType.id }),
      ],
      rack: await f.rack({ site: site.id, u_height: 10 }),
      tenant: await app().api.created('/api/tenancy/tenants/', { name: 'DCIM kit tenant', slug: 'dcim-kit-tenant' }),
      panel: await f.powerPanel({ site: site.id }),
      rackRole: await f.rackRole(),
      inventoryRole: await f.inventoryItemRole(),
    };
  }

  const organizational = (path: string, objectType: string, graphqlName: string, countKey: string, extra: Record<string, unknown> = {}) =>
    describeResourceApi({
      app,
      path: `${D}/${path}/`,
      objectType,
      graphqlName,
      create: [
        { name: 'Alpha', slug: 'alpha', ...extra },
        { name: 'Beta', slug: 'beta', description: 'second' },
        { name: 'Gamma', slug: 'gamma' },
      ],
      update: { description: 'changed', color: 'ff0000' },
      bulkUpdate: { description: 'bulk' },
      brief: ['id', 'url', 'display', 'name', 'slug', 'description', countKey],
      filters: { 'name=Beta': [1], 'slug__ic=amm': [2], 'description=second': [1] },
      invalid: [{ body: { name: 'Bad', slug: 'not a slug' }, field: 'slug' }],
    });

  organizational('rack-roles', 'dcim.rackrole', 'rack_role', 'rack_count', { color: '00ff00' });
  organizational('inventory-item-roles', 'dcim.inventoryitemrole', 'inventory_item_role', 'inventoryitem_count');

  describeResourceApi<DcimWorld>({
    app,
    path: `${D}/rack-types/`,
    objectType: 'dcim.racktype',
    graphqlName: 'rack_type',
    fixtures: ({ factories }) => world(factories),
    create: (w) => [
      { manufacturer: w.manufacturer.id, model: 'R-42', slug: 'r-42', form_factor: '4-post-cabinet', width: 19, u_height: 42 },
      { manufacturer: w.manufacturer.id, model: 'R-24', slug: 'r-24', form_factor: '2-post-frame', width: 23, u_height: 24 },
      { manufacturer: w.manufacturer.id, model: 'W-12', slug: 'w-12', form_factor: 'wall-cabinet', outer_width: 600, outer_unit: 'mm' },
    ],
    update: { u_height: 47, description: 'taller' },
    brief: ['id', 'url', 'display', 'manufacturer', 'model', 'slug', 'description', 'rack_count'],
    filters: { 'form_factor=2-post-frame': [1], 'u_height__gte=42': [0, 2], 'width=23': [1] },
    invalid: [
      { body: (w) => ({ manufacturer: w.manufacturer.id, model: 'X', slug: 'x', form_factor: 'wall-frame', width: 20 }), field: 'width' },
      {
        body: (w) => ({ manufacturer: w.manufacturer.id, model: 'Y', slug: 'y', form_factor: 'wall-frame', outer_depth: 5 }),
        field: 'outer_unit',
      },
    ],
  });

  describeResourceApi<DcimWorld>({
    app,
    path: `${D}/racks/`,
    objectType: 'dcim.rack',
    graphqlName: 'rack',
    fixtures: ({ factories }) => world(factories),
    create: (w) => [
      { name: 'R1', site: w.site.id, status: 'active', u_height: 42, role: w.rackRole.id },
      { name: 'R2', site: w.site.id, status: 'planned', facility_id: 'F-2', tenant: w.tenant.id },
      { name: 'R3', site: w.otherSite.id, width: 23, starting_unit: 10, desc_units: true },
    ],
    update: { u_height: 45, comments: 'Test Value', serial: 'SN-1' },
    bulkUpdate: { status: 'reserved' },
    brief: ['id', 'url', 'display', 'name', 'description', 'device_count'],
    filters: (w) => ({ 'status=planned': [1], [`site_id=${w.otherSite.id}`]: [2], 'name=R1': [0], [`role_id=${w.rackRole.id}`]: [0] }),
    invalid: [{ body: (w) => ({ name: 'Bad', site: w.site.id, u_height: 0 }), field: 'u_height' }],
    actions: [
      {
        name: 'elevation',
        check: (body, rack) => {
          expect(body.count).toBe(rack.u_height * 2);
          expect(body.results[0]).toEqual({
            id: 42.5,
            name: 'U42.5',
            display: 'U42.5',
            face: { value: 'front', label: 'Front' },
            device: null,
            occupied: false,
          });
        },
      },
    ],
  });

  describeResourceApi<DcimWorld>({
    app,
    path: `${D}/rack-reservations/`,
    objectType: 'dcim.rackreservation',
    graphqlName: 'rack_reservation',
    fixtures: ({ factories }) => world(factories),
    create: (w) => [
      { rack: w.rack.id, units: [1, 2], user: app().seeded.w.root.id, description: 'first' },
      { rack: w.rack.id, units: [3], user: app().seeded.w.root.id, description: 'second', tenant: w.tenant.id },
      { rack: w.rack.id, units: [9, 10], user: app().seeded.w.root.id, description: 'third', status: 'pending' },
    ],
    update: { units: [4, 5], description: 'moved' },
    bulkUpdate: { status: 'stale' },
    brief: ['id', 'url', 'display', 'status', 'user', 'description', 'units'],
    filters: { 'status=pending': [2], 'description=second': [1] },
    invalid: [{ body: (w) => ({ rack: w.rack.id, units: [11], user: app().seeded.w.root.id, description: 'x' }), field: 'units' }],
  });

  const template = (path: string, objectType: string, graphqlName: string, extra: [Record<string, unknown>, Record<string, unknown>]) =>
    describeResourceApi<DcimWorld>({
      app,
      path: `${D}/${path}/`,
      objectType,
      graphqlName,
      fixtures: ({ factories }) => world(factories),
      create: (w) => [
        { device_type: w.deviceType.id, name: 'T1', ...extra[0] },
        { device_type: w.deviceType.id, name: 'T2', label: 'two', ...extra[1] },
        { module_type: w.moduleType.id, name: 'T1', ...extra[0] },
      ],
      update: { label: 'changed', description: 'Test Value' },
      bulkUpdate: { description: 'bulk' },
      brief: ['id', 'url', 'display', 'name', 'description'],
      filters: (w) => ({ [`device_type_id=${w.deviceType.id}`]: [0, 1], 'label=two': [1] }),
      invalid: [
        {
          body: (w) => ({ device_type: w.deviceType.id, module_type: w.moduleType.id, name: 'Both', ...extra[0] }),
          field: 'non_field_errors',
        },
      ],
    });

  template('console-port-templates', 'dcim.consoleporttemplate', 'console_port_template', [{ type: 'rj-45' }, { type: 'de-9' }]);
  template('console-server-port-templates', 'dcim.consoleserverporttemplate', 'console_server_port_template', [{ type: 'rj-45' }, {}]);
  template('power-port-templates', 'dcim.powerporttemplate', 'power_port_template', [
    { type: 'iec-60320-c14', maximum_draw: 500 },
    { allocated_draw: 200 },
  ]);
  template('power-outlet-templates', 'dcim.poweroutlettemplate', 'power_outlet_template', [{ type: 'iec-60320-c13', feed_leg: 'A' }, {}]);
  template('interface-templates', 'dcim.interfacetemplate', 'interface_template', [
    { type: '1000base-t', mgmt_only: true },
    { type: '10gbase-x-sfpp', enabled: false },
  ]);

  const component = (path: string, objectType: string, graphqlName: string, extra: [Record<string, unknown>, Record<string, unknown>]) =>
    describeResourceApi<DcimWorld>({
      app,
      path: `${D}/${path}/`,
      objectType,
      graphqlName,
      fixtures: ({ factories }) => world(factories),
      create: (w) => [
        { device: w.devices[0].id, name: 'P1', ...extra[0] },
        { device: w.devices[0].id, name: 'P2', label: 'two', ...extra[1] },
        { device: w.devices[1].id, name: 'P1', mark_connected: true },
      ],
      update: { label: 'changed', description: 'Test Value' },
      bulkUpdate: { description: 'bulk' },
      brief: ['id', 'url', 'display', 'device', 'name', 'description', 'cable'],
      filters: (w) => ({ [`device_id=${w.devices[0].id}`]: [0, 1], 'label=two': [1], 'name=P1': [0, 2], 'cabled=false': [0, 1, 2] }),
      invalid: [{ body: (w) => ({ device: w.devices[0].id, name: '' }), field: 'name' }],
      // Not on a cable: the trace is the origin alone, no segment.
      actions: [{ name: 'trace', check: (body) => expect(body).toEqual([]) }],
    });

  component('console-ports', 'dcim.consoleport', 'console_port', [{ type: 'rj-45', speed: 9600 }, { speed: 115200 }]);
  component('console-server-ports', 'dcim.consoleserverport', 'console_server_port', [{ type: 'rj-45' }, { speed: 9600 }]);
  component('power-ports', 'dcim.powerport', 'power_port', [{ type: 'iec-60320-c14', maximum_draw: 750 }, { allocated_draw: 300 }]);
  component('power-outlets', 'dcim.poweroutlet', 'power_outlet', [{ type: 'iec-60320-c13', feed_leg: 'B' }, { status: 'disabled' }]);

  describeResourceApi<DcimWorld>({
    app,
    path: `${D}/inventory-items/`,
    objectType: 'dcim.inventoryitem',
    graphqlName: 'inventory_item',
    fixtures: ({ factories }) => world(factories),
    create: (w) => [
      { device: w.devices[0].id, name: 'SFP 1', role: w.inventoryRole.id, manufacturer: w.manufacturer.id, part_id: 'SFP-10G-LR' },
      { device: w.devices[0].id, name: 'SFP 2', serial: 'ABC123', discovered: true },
      { device: w.devices[1].id, name: 'PSU', status: 'planned', asset_tag: 'INV-1' },
    ],
    update: { serial: 'XYZ', description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'device', 'name', 'description'],
    filters: (w) => ({ [`device_id=${w.devices[0].id}`]: [0, 1], 'discovered=true': [1], 'status=planned': [2] }),
    invalid: [{ body: (w) => ({ device: w.devices[0].id, name: 'X', status: 'lost' }), field: 'status' }],
  });

  describeResourceApi<DcimWorld>({
    app,
    path: `${D}/inventory-item-templates/`,
    objectType: 'dcim.inventoryitemtemplate',
    graphqlName: 'inventory_item_template',
    fixtures: ({ factories }) => world(factories),
    create: (w) => [
      { device_type: w.deviceType.id, name: 'Fan 1', role: w.inventoryRole.id },
      { device_type: w.deviceType.id, name: 'Fan 2', part_id: 'FAN-X' },
      { device_type: w.deviceType.id, name: 'PSU', manufacturer: w.manufacturer.id },
    ],
    update: { label: 'changed', description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'part_id=FAN-X': [1], 'name__isw=fan': [0, 1] },
    invalid: [{ body: { name: 'No type' }, field: 'device_type' }],
  });

  describeResourceApi<DcimWorld>({
    app,
    path: `${D}/power-panels/`,
    objectType: 'dcim.powerpanel',
    graphqlName: 'power_panel',
    fixtures: ({ factories }) => world(factories),
    create: (w) => [
      { site: w.site.id, name: 'PP-1' },
      { site: w.site.id, name: 'PP-2', description: 'second' },
      { site: w.otherSite.id, name: 'PP-1' },
    ],
    update: { description: 'Test Value', comments: 'c' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description', 'powerfeed_count'],
    filters: (w) => ({ [`site_id=${w.site.id}`]: [0, 1], 'name=PP-1': [0, 2] }),
    invalid: [{ body: { name: 'No site' }, field: 'site' }],
  });

  describeResourceApi<DcimWorld>({
    app,
    path: `${D}/power-feeds/`,
    objectType: 'dcim.powerfeed',
    graphqlName: 'power_feed',
    fixtures: ({ factories }) => world(factories),
    create: (w) => [
      { power_panel: w.panel.id, name: 'Feed A', voltage: 230, amperage: 16, phase: 'three-phase' },
      { power_panel: w.panel.id, name: 'Feed B', type: 'redundant', rack: w.rack.id },
      { power_panel: w.panel.id, name: 'DC', supply: 'dc', voltage: -48, status: 'planned' },
    ],
    update: { max_utilization: 60, description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description', 'cable'],
    filters: (w) => ({ 'type=redundant': [1], 'supply=dc': [2], [`rack_id=${w.rack.id}`]: [1], 'voltage__lt=0': [2] }),
    invalid: [{ body: (w) => ({ power_panel: w.panel.id, name: 'Neg AC', supply: 'ac', voltage: -48 }), field: 'voltage' }],
    actions: [{ name: 'trace', check: (body) => expect(body).toEqual([]) }],
  });

  describeResourceApi<DcimWorld>({
    app,
    path: `${D}/virtual-chassis/`,
    objectType: 'dcim.virtualchassis',
    graphqlName: 'virtual_chassis',
    fixtures: ({ factories }) => world(factories),
    create: [{ name: 'VC-1', domain: 'core' }, { name: 'VC-2' }, { name: 'VC-3', description: 'third' }],
    update: { domain: 'edge', description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'master', 'description', 'member_count'],
    filters: { 'domain=core': [0], 'name__ie=vc-3': [2] },
    invalid: [{ body: { domain: 'no name' }, field: 'name' }],
  });

  describeResourceApi<DcimWorld>({
    app,
    path: `${D}/virtual-device-contexts/`,
    objectType: 'dcim.virtualdevicecontext',
    graphqlName: 'virtual_device_context',
    fixtures: ({ factories }) => world(factories),
    create: (w) => [
      { name: 'admin', device: w.devices[0].id, identifier: 1, status: 'active' },
      { name: 'tenant-a', device: w.devices[0].id, identifier: 2, status: 'planned', tenant: w.tenant.id },
      { name: 'admin', device: w.devices[1].id, status: 'offline' },
    ],
    update: { status: 'offline', description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'identifier', 'device', 'description'],
    filters: (w) => ({ [`device_id=${w.devices[0].id}`]: [0, 1], 'status=offline': [2], 'identifier=2': [1] }),
    invalid: [{ body: (w) => ({ name: 'x', device: w.devices[0].id, status: 'broken' }), field: 'status' }],
  });

  describeResourceApi<DcimWorld>({
    app,
    path: `${D}/mac-addresses/`,
    objectType: 'dcim.macaddress',
    graphqlName: 'mac_address',
    fixtures: ({ factories }) => world(factories),
    create: [
      { mac_address: '00:1A:2B:3C:4D:5E' },
      { mac_address: '00:1A:2B:3C:4D:5F', description: 'second' },
      { mac_address: 'AA:BB:CC:DD:EE:FF' },
    ],
    update: { description: 'Test Value' },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'mac_address', 'description'],
    filters: { 'mac_address__isw=00:1a': [0, 1], 'description=second': [1] },
    invalid: [{ body: { mac_address: 'not-a-mac' }, field: 'mac_address' }],
  });
});
