import type { Created } from './support/factories';
import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';

const D = '/api/dcim';

/** A cable end on one object, as a cable's `a_terminations`/`b_terminations` take it. */
const end = (objectType: string, object: Created) => [{ object_type: objectType, object_id: object.id }];

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of the DCIM models a
 * device is made of: device and module types with their port and bay templates, devices, module
 * bays and modules, rear and front ports with their mappings, interfaces and cables. Their own
 * rules (uniqueness per parent, instantiation, PROTECT, cabling and traces) are in
 * platform-dcim.e2e-spec.ts and platform-dcim-cabling.e2e-spec.ts.
 */
describe('platform DCIM: the REST and GraphQL contract of types, devices, ports and cables', () => {
  const app = usePlatformApp();

  describe('device and module types, and their templates', () => {
    describeResourceApi<{ maker: Created; other: Created }>({
      app,
      path: `${D}/device-types/`,
      objectType: 'dcim.devicetype',
      graphqlName: 'device_type',
      fixtures: async ({ factories }) => ({ maker: await factories.manufacturer(), other: await factories.manufacturer() }),
      create: ({ maker, other }) => [
        { manufacturer: maker.id, model: 'DT-A', slug: 'dt-a', u_height: 2, part_number: 'PN-1' },
        { manufacturer: maker.id, model: 'DT-B', slug: 'dt-b', is_full_depth: false },
        { manufacturer: other.id, model: 'DT-A', slug: 'dt-a', u_height: 0 },
      ],
      update: { part_number: 'PN-2', u_height: 4, comments: 'Test Value' },
      bulkUpdate: { description: 'bulk' },
      brief: ['id', 'url', 'display', 'manufacturer', 'model', 'slug', 'description', 'device_count'],
      filters: ({ maker, other }) => ({
        [`manufacturer_id=${maker.id}`]: [0, 1],
        [`manufacturer=${other.slug}`]: [2],
        'model=DT-A': [0, 2],
        'part_number=PN-1': [0],
        'is_full_depth=false': [1],
      }),
      invalid: [
        { body: ({ maker }) => ({ manufacturer: maker.id, model: 'Tall', slug: 'tall', u_height: 101 }), field: 'u_height' },
        { body: { model: 'No maker', slug: 'no-maker' }, field: 'manufacturer' },
      ],
    });

    describeResourceApi<{ maker: Created; other: Created }>({
      app,
      path: `${D}/module-types/`,
      objectType: 'dcim.moduletype',
      graphqlName: 'module_type',
      fixtures: async ({ factories }) => ({ maker: await factories.manufacturer(), other: await factories.manufacturer() }),
      create: ({ maker, other }) => [
        { manufacturer: maker.id, model: 'MT-A', part_number: 'X1' },
        { manufacturer: maker.id, model: 'MT-B', description: 'second' },
        { manufacturer: other.id, model: 'MT-A' },
      ],
      update: { part_number: 'X2', comments: 'Test Value' },
      bulkUpdate: { description: 'bulk' },
      brief: ['id', 'url', 'display', 'manufacturer', 'model', 'description', 'module_count'],
      filters: ({ maker }) => ({ [`manufacturer_id=${maker.id}`]: [0, 1], 'model=MT-A': [0, 2], 'part_number=X1': [0] }),
      invalid: [{ body: { model: 'No maker' }, field: 'manufacturer' }],
    });

    /** Rear- and front-port templates: two on a device type, one on a module type. */
    const portTemplate = (path: string, objectType: string, graphqlName: string) =>
      describeResourceApi<{ deviceType: Created; moduleType: Created }>({
        app,
        path: `${D}/${path}/`,
        objectType,
        graphqlName,
        fixtures: async ({ factories }) => ({ deviceType: await factories.deviceType(), moduleType: await factories.moduleType() }),
        create: ({ deviceType, moduleType }) => [
          { device_type: deviceType.id, name: 'P1', type: 'mpo', positions: 4 },
          { device_type: deviceType.id, name: 'P2', type: 'lc', label: 'two', color: 'ff0000' },
          { module_type: moduleType.id, name: 'P1', type: 'sc' },
        ],
        update: { label: 'changed', positions: 8, description: 'Test Value' },
        bulkUpdate: { description: 'bulk' },
        brief: ['id', 'url', 'display', 'name', 'description'],
        filters: ({ deviceType, moduleType }) => ({
          [`device_type_id=${deviceType.id}`]: [0, 1],
          [`module_type_id=${moduleType.id}`]: [2],
          'type=lc': [1],
          'positions=4': [0],
        }),
        invalid: [
          {
            body: ({ deviceType, moduleType }) => ({ device_type: deviceType.id, module_type: moduleType.id, name: 'Both', type: 'lc' }),
            field: 'non_field_errors',
          },
          { body: ({ deviceType }) => ({ device_type: deviceType.id, name: 'None', type: 'lc', positions: 0 }), field: 'positions' },
          { body: ({ deviceType }) => ({ device_type: deviceType.id, name: 'Odd', type: 'no-such-connector' }), field: 'type' },
        ],
      });

    portTemplate('rear-port-templates', 'dcim.rearporttemplate', 'rear_port_template');
    portTemplate('front-port-templates', 'dcim.frontporttemplate', 'front_port_template');

    describeResourceApi<{ deviceType: Created; front: Created; otherFront: Created; rear: Created; foreignRear: Created }>({
      app,
      path: `${D}/port-template-mappings/`,
      objectType: 'dcim.porttemplatemapping',
      graphqlName: 'port_template_mapping',
      fixtures: async ({ factories }) => {
        const deviceType = await factories.deviceType();
        return {
          deviceType,
          front: await factories.frontPortTemplate({ device_type: deviceType.id, positions: 2 }),
          otherFront: await factories.frontPortTemplate({ device_type: deviceType.id }),
          rear: await factories.rearPortTemplate({ device_type: deviceType.id, positions: 4 }),
          foreignRear: await factories.rearPortTemplate({ positions: 4 }),
        };
      },
      create: ({ deviceType, front, otherFront, rear }) => [
        { device_type: deviceType.id, front_port: front.id, front_port_position: 1, rear_port: rear.id, rear_port_position: 1 },
        { device_type: deviceType.id, front_port: front.id, front_port_position: 2, rear_port: rear.id, rear_port_position: 2 },
        { device_type: deviceType.id, front_port: otherFront.id, rear_port: rear.id, rear_port_position: 3 },
      ],
      update: { rear_port_position: 4 },
      brief: ['id', 'url', 'display', 'front_port_position', 'rear_port_position'],
      filters: ({ front, otherFront }) => ({
        [`front_port_id=${front.id}`]: [0, 1],
        [`front_port_id=${otherFront.id}`]: [2],
        'rear_port_position__gte=2': [1, 2],
      }),
      invalid: [
        {
          body: ({ deviceType, front, rear }) => ({
            device_type: deviceType.id,
            front_port: front.id,
            front_port_position: 3,
            rear_port: rear.id,
          }),
          field: 'front_port_position',
        },
        {
          body: ({ deviceType, front, foreignRear }) => ({ device_type: deviceType.id, front_port: front.id, rear_port: foreignRear.id }),
          field: 'rear_port',
        },
      ],
    });

    /** Module bay templates: two on a device type, one on a module type (a bay in the module). */
    describeResourceApi<{ deviceType: Created; moduleType: Created }>({
      app,
      path: `${D}/module-bay-templates/`,
      objectType: 'dcim.modulebaytemplate',
      graphqlName: 'module_bay_template',
      fixtures: async ({ factories }) => ({ deviceType: await factories.deviceType(), moduleType: await factories.moduleType() }),
      create: ({ deviceType, moduleType }) => [
        { device_type: deviceType.id, name: 'bay-1', position: '1' },
        { device_type: deviceType.id, name: 'bay-2', label: 'two', position: '2' },
        { module_type: moduleType.id, name: 'bay-1', position: '{module}/1' },
      ],
      update: { label: 'changed', position: 'left', description: 'Test Value' },
      bulkUpdate: { description: 'bulk' },
      brief: ['id', 'url', 'display', 'name', 'description'],
      filters: ({ deviceType, moduleType }) => ({
        [`device_type_id=${deviceType.id}`]: [0, 1],
        [`module_type_id=${moduleType.id}`]: [2],
        'label=two': [1],
        'name=bay-1': [0, 2],
      }),
      invalid: [
        { body: { name: 'No type' }, field: 'non_field_errors' },
        {
          body: ({ deviceType, moduleType }) => ({ device_type: deviceType.id, module_type: moduleType.id, name: 'Both' }),
          field: 'non_field_errors',
        },
      ],
    });
  });

  describe('devices, module bays and modules', () => {
    interface DeviceFixtures {
      site: Created;
      otherSite: Created;
      deviceType: Created;
      role: Created;
      tenant: Created;
    }

    describeResourceApi<DeviceFixtures>({
      app,
      path: `${D}/devices/`,
      objectType: 'dcim.device',
      graphqlName: 'device',
      fixtures: async ({ factories }) => ({
        site: await factories.site(),
        otherSite: await factories.site(),
        deviceType: await factories.deviceType(),
        role: await factories.deviceRole(),
        tenant: await factories.tenant(),
      }),
      create: ({ site, otherSite, deviceType, role, tenant }) => [
        { name: 'dev-a', device_type: deviceType.id, role: role.id, site: site.id, serial: 'S1' },
        { name: 'dev-b', device_type: deviceType.id, role: role.id, site: site.id, status: 'planned', asset_tag: 'kit-asset-1' },
        { name: 'dev-a', device_type: deviceType.id, role: role.id, site: otherSite.id, tenant: tenant.id, airflow: 'front-to-rear' },
      ],
      update: { serial: 'S2', status: 'offline', comments: 'Test Value' },
      bulkUpdate: { status: 'staged' },
      brief: ['id', 'url', 'display', 'name', 'description'],
      filters: ({ site, otherSite, tenant }) => ({
        [`site_id=${site.id}`]: [0, 1],
        [`site=${otherSite.slug}`]: [2],
        'status=planned': [1],
        'name=dev-a': [0, 2],
        'serial=S1': [0],
        [`tenant_id=${tenant.id}`]: [2],
        'asset_tag=kit-asset-1': [1],
      }),
      invalid: [
        {
          body: ({ site, deviceType, role }) => ({
            name: 'dev-x',
            device_type: deviceType.id,
            role: role.id,
            site: site.id,
            status: 'broken',
          }),
          field: 'status',
        },
        { body: ({ site, role }) => ({ name: 'dev-y', role: role.id, site: site.id }), field: 'device_type' },
        { body: ({ deviceType, role }) => ({ name: 'dev-z', device_type: deviceType.id, role: role.id }), field: 'site' },
      ],
    });

    describeResourceApi<{ device: Created; other: Created }>({
      app,
      path: `${D}/module-bays/`,
      objectType: 'dcim.modulebay',
      graphqlName: 'module_bay',
      fixtures: async ({ factories }) => ({ device: await factories.device(), other: await factories.device() }),
      create: ({ device, other }) => [
        { device: device.id, name: 'bay-1', position: '1' },
        { device: device.id, name: 'bay-2', label: 'two' },
        { device: other.id, name: 'bay-1' },
      ],
      update: { label: 'changed', description: 'Test Value' },
      bulkUpdate: { description: 'bulk' },
      brief: ['id', 'url', 'display', 'installed_module', 'name', 'description'],
      filters: ({ device }) => ({ [`device_id=${device.id}`]: [0, 1], 'label=two': [1], 'name=bay-1': [0, 2] }),
      invalid: [{ body: ({ device }) => ({ device: device.id, name: '' }), field: 'name' }],
    });

    interface ModuleFixtures {
      device: Created;
      other: Created;
      bays: [Created, Created, Created];
      moduleType: Created;
      otherType: Created;
    }

    describeResourceApi<ModuleFixtures>({
      app,
      path: `${D}/modules/`,
      objectType: 'dcim.module',
      graphqlName: 'module',
      fixtures: async ({ factories }) => {
        const device = await factories.device();
        return {
          device,
          other: await factories.device(),
          bays: [
            await factories.moduleBay({ device: device.id }),
            await factories.moduleBay({ device: device.id }),
            await factories.moduleBay({ device: device.id }),
          ],
          moduleType: await factories.moduleType(),
          otherType: await factories.moduleType(),
        };
      },
      create: ({ device, bays, moduleType, otherType }) => [
        { device: device.id, module_bay: bays[0].id, module_type: moduleType.id, serial: 'M1' },
        { device: device.id, module_bay: bays[1].id, module_type: moduleType.id, status: 'planned' },
        { device: device.id, module_bay: bays[2].id, module_type: otherType.id, asset_tag: 'kit-module-1' },
      ],
      update: { serial: 'M2', description: 'Test Value' },
      bulkUpdate: { status: 'offline' },
      brief: ['id', 'url', 'display', 'device', 'module_bay', 'module_type', 'description'],
      filters: ({ moduleType, bays }) => ({
        [`module_type_id=${moduleType.id}`]: [0, 1],
        [`module_bay_id=${bays[2].id}`]: [2],
        'status=planned': [1],
        'serial=M1': [0],
      }),
      invalid: [
        {
          body: ({ other, bays, moduleType }) => ({ device: other.id, module_bay: bays[0].id, module_type: moduleType.id }),
          field: 'module_bay',
        },
        { body: ({ device, bays }) => ({ device: device.id, module_bay: bays[0].id }), field: 'module_type' },
      ],
    });
  });

  describe('ports, interfaces and cables', () => {
    /** Rear and front ports: two on one device, one on another; neither is on a cable, so each trace and path list is empty. */
    const port = (path: string, objectType: string, graphqlName: string) =>
      describeResourceApi<{ device: Created; other: Created }>({
        app,
        path: `${D}/${path}/`,
        objectType,
        graphqlName,
        fixtures: async ({ factories }) => {
          const device = await factories.device();
          return { device, other: await factories.device({ site: device.site.id }) };
        },
        create: ({ device, other }) => [
          { device: device.id, name: 'P1', type: 'mpo', positions: 12 },
          { device: device.id, name: 'P2', type: 'lc', label: 'two', color: '00ff00' },
          { device: other.id, name: 'P1', type: 'sc', mark_connected: true },
        ],
        update: { label: 'changed', description: 'Test Value' },
        bulkUpdate: { description: 'bulk' },
        brief: ['id', 'url', 'display', 'device', 'name', 'cable', 'description'],
        filters: ({ device }) => ({
          [`device_id=${device.id}`]: [0, 1],
          'type=lc': [1],
          'mark_connected=true': [2],
          'cabled=false': [0, 1, 2],
          'name=P1': [0, 2],
        }),
        invalid: [
          { body: ({ device }) => ({ device: device.id, name: 'X', type: 'no-such-connector' }), field: 'type' },
          { body: ({ device }) => ({ device: device.id, name: 'Y', type: 'lc', positions: 1025 }), field: 'positions' },
        ],
        actions: [
          { name: 'trace', check: (body) => expect(body).toEqual([]) },
          { name: 'paths', check: (body) => expect(body).toEqual([]) },
        ],
      });

    port('rear-ports', 'dcim.rearport', 'rear_port');
    port('front-ports', 'dcim.frontport', 'front_port');

    interface MappingFixtures {
      device: Created;
      front: Created;
      otherFront: Created;
      rear: Created;
      foreignRear: Created;
    }

    describeResourceApi<MappingFixtures>({
      app,
      path: `${D}/port-mappings/`,
      objectType: 'dcim.portmapping',
      graphqlName: 'port_mapping',
      fixtures: async ({ factories }) => {
        const device = await factories.device();
        return {
          device,
          front: await factories.frontPort({ device: device.id, positions: 2 }),
          otherFront: await factories.frontPort({ device: device.id }),
          rear: await factories.rearPort({ device: device.id, positions: 4 }),
          foreignRear: await factories.rearPort({ positions: 4 }),
        };
      },
      create: ({ device, front, otherFront, rear }) => [
        { device: device.id, front_port: front.id, front_port_position: 1, rear_port: rear.id, rear_port_position: 1 },
        { device: device.id, front_port: front.id, front_port_position: 2, rear_port: rear.id, rear_port_position: 2 },
        { device: device.id, front_port: otherFront.id, rear_port: rear.id, rear_port_position: 3 },
      ],
      update: { rear_port_position: 4 },
      brief: ['id', 'url', 'display', 'front_port_position', 'rear_port_position'],
      filters: ({ front, otherFront, rear }) => ({
        [`front_port_id=${front.id}`]: [0, 1],
        [`front_port_id=${otherFront.id}`]: [2],
        [`rear_port_id=${rear.id}`]: [0, 1, 2],
        'rear_port_position__gte=2': [1, 2],
      }),
      invalid: [
        {
          body: ({ device, front, rear }) => ({ device: device.id, front_port: front.id, front_port_position: 3, rear_port: rear.id }),
          field: 'front_port_position',
        },
        {
          body: ({ device, front, foreignRear }) => ({ device: device.id, front_port: front.id, rear_port: foreignRear.id }),
          field: 'rear_port',
        },
      ],
    });

    describeResourceApi<{ device: Created; other: Created }>({
      app,
      path: `${D}/interfaces/`,
      objectType: 'dcim.interface',
      graphqlName: 'interface',
      fixtures: async ({ factories }) => {
        const device = await factories.device();
        return { device, other: await factories.device({ site: device.site.id }) };
      },
      create: ({ device, other }) => [
        { device: device.id, name: 'eth0', type: '1000base-t', mtu: 1500 },
        { device: device.id, name: 'eth1', type: '10gbase-x-sfpp', enabled: false, label: 'two' },
        { device: other.id, name: 'eth0', type: 'virtual', mgmt_only: true },
      ],
      update: { mtu: 9000, description: 'Test Value' },
      bulkUpdate: { enabled: false },
      brief: ['id', 'url', 'display', 'device', 'name', 'cable', 'description'],
      filters: ({ device, other }) => ({
        [`device_id=${device.id}`]: [0, 1],
        [`device=${other.name}`]: [2],
        'type=virtual': [2],
        'mgmt_only=true': [2],
        'enabled=false': [1],
        'mtu__gte=1000': [0],
        'cabled=false': [0, 1, 2],
      }),
      invalid: [
        { body: ({ device }) => ({ device: device.id, name: 'big', type: '1000base-t', mtu: 65537 }), field: 'mtu' },
        { body: ({ device }) => ({ device: device.id, name: 'odd', type: 'no-such-type' }), field: 'type' },
      ],
      actions: [{ name: 'trace', check: (body) => expect(body).toEqual([]) }],
    });

    interface CableFixtures {
      near: Created;
      far: Created;
      a: [Created, Created, Created];
      b: [Created, Created, Created];
      tenant: Created;
    }

    describeResourceApi<CableFixtures>({
      app,
      path: `${D}/cables/`,
      objectType: 'dcim.cable',
      graphqlName: 'cable',
      // NetBox's CableType lists each end's objects as a union of the termination types; this
      // schema has no union of them yet, so the ends are compared over REST only.
      graphqlOmits: ['a_terminations', 'b_terminations'],
      fixtures: async ({ factories }) => {
        const near = await factories.device();
        const far = await factories.device({ site: near.site.id });
        const three = async (device: Created) =>
          [
            await factories.interface({ device: device.id }),
            await factories.interface({ device: device.id }),
            await factories.interface({ device: device.id }),
          ] as [Created, Created, Created];
        return { near, far, a: await three(near), b: await three(far), tenant: await factories.tenant() };
      },
      create: ({ a, b, tenant }) => [
        { a_terminations: end('dcim.interface', a[0]), b_terminations: end('dcim.interface', b[0]), type: 'cat6', label: 'C1' },
        {
          a_terminations: end('dcim.interface', a[1]),
          b_terminations: end('dcim.interface', b[1]),
          status: 'planned',
          color: 'ff0000',
          length: 5,
          length_unit: 'm',
        },
        { a_terminations: end('dcim.interface', a[2]), b_terminations: end('dcim.interface', b[2]), type: 'mmf', tenant: tenant.id },
      ],
      update: { label: 'C1-renamed', description: 'Test Value' },
      bulkUpdate: { status: 'decommissioning' },
      brief: ['id', 'url', 'display', 'label', 'description'],
      filters: ({ near, tenant }) => ({
        'status=planned': [1],
        'type=mmf': [2],
        'label=C1': [0],
        'length_unit=m': [1],
        [`tenant_id=${tenant.id}`]: [2],
        [`device_id=${near.id}`]: [0, 1, 2],
      }),
      invalid: [
        {
          body: ({ a, b }) => ({ a_terminations: end('dcim.interface', a[0]), b_terminations: end('dcim.interface', b[0]), length: 5 }),
          field: 'length_unit',
        },
        { body: ({ a }) => ({ a_terminations: end('dcim.interface', a[0]), b_terminations: [] }), field: 'b_terminations' },
        {
          body: ({ a, b }) => ({
            a_terminations: end('dcim.interface', a[0]),
            b_terminations: end('dcim.interface', b[0]),
            type: 'string',
          }),
          field: 'type',
        },
      ],
    });
  });
});
