import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';

const I = '/api/ipam';

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of the IPAM models
 * beyond RIRs, ASNs, VRFs, VLANs, prefixes and IP addresses.
 */
describe('platform IPAM: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${I}/roles/`,
    objectType: 'ipam.role',
    graphqlName: 'role',
    create: [
      { name: 'Production', slug: 'production', weight: 100 },
      { name: 'Lab', slug: 'lab' },
      { name: 'Management', slug: 'management', weight: 100, description: 'oob' },
    ],
    update: { description: 'Test Value', weight: 10 },
    bulkUpdate: { weight: 500 },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: { 'weight=100': [0, 2], 'name=Lab': [1], 'q=manage': [2] },
    invalid: [{ body: { name: 'Heavy', slug: 'heavy', weight: -1 }, field: 'weight' }],
  });

  describeResourceApi({
    app,
    path: `${I}/aggregates/`,
    objectType: 'ipam.aggregate',
    graphqlName: 'aggregate',
    fixtures: async ({ factories }) => ({ rirs: [await factories.rir(), await factories.rir()], tenant: await factories.tenant() }),
    create: ({ rirs: [r1, r2], tenant }) => [
      { prefix: '198.18.0.0/15', rir: r1.id, date_added: '2024-01-02' },
      { prefix: '2001:db8::/32', rir: r2.id, tenant: tenant.id },
      { prefix: '100.64.0.0/10', rir: r1.id, description: 'CGNAT' },
    ],
    update: { description: 'Test Value', date_added: '2025-05-05' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'prefix', 'description'],
    filters: ({ rirs: [r1] }) => ({
      'prefix=198.18.0.0/15': [0],
      [`rir_id=${r1.id}`]: [0, 2],
      'family=6': [1],
      'contains=100.64.1.1': [2],
      'within=0.0.0.0/1': [2],
      'q=CGNAT': [2],
    }),
    invalid: [
      { body: ({ rirs: [r1] }) => ({ prefix: '10.0.0.1/8', rir: r1.id }), field: 'prefix' },
      { body: ({ rirs: [r1] }) => ({ prefix: '0.0.0.0/0', rir: r1.id }), field: 'prefix' },
      { body: { prefix: '10.0.0.0/8' }, field: 'rir' },
    ],
  });

  describeResourceApi({
    app,
    path: `${I}/vlan-groups/`,
    objectType: 'ipam.vlangroup',
    graphqlName: 'vlan_group',
    fixtures: async ({ factories }) => ({ site: await factories.site(), tenant: await factories.tenant() }),
    create: ({ site, tenant }) => [
      { name: 'Campus', slug: 'campus', scope_type: 'dcim.site', scope_id: site.id, vid_ranges: [[100, 199]] },
      { name: 'Campus', slug: 'campus' },
      {
        name: 'Core',
        slug: 'core',
        tenant: tenant.id,
        vid_ranges: [
          [1, 10],
          [20, 30],
        ],
      },
    ],
    update: { description: 'Test Value', vid_ranges: [[100, 299]] },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: ({ site, tenant }) => ({
      [`scope_id=${site.id}`]: [0],
      'scope_type=dcim.site': [0],
      [`tenant_id=${tenant.id}`]: [2],
      'name=Campus': [0, 1],
    }),
    invalid: [
      { body: { name: 'Bad', slug: 'bad', vid_ranges: [[0, 10]] }, field: 'vid_ranges' },
      {
        body: {
          name: 'Bad',
          slug: 'bad',
          vid_ranges: [
            [1, 10],
            [5, 20],
          ],
        },
        field: 'vid_ranges',
      },
      { body: { name: 'Bad', slug: 'bad', vid_ranges: [[10, 5]] }, field: 'vid_ranges' },
      { body: { name: 'Bad', slug: 'bad', scope_type: 'dcim.device', scope_id: 1 }, field: 'scope_type' },
    ],
  });

  describeResourceApi({
    app,
    path: `${I}/ip-ranges/`,
    objectType: 'ipam.iprange',
    graphqlName: 'ip_range',
    fixtures: async ({ factories }) => ({ vrf: await factories.vrf(), role: await factories.ipamRole() }),
    create: ({ vrf, role }) => [
      { start_address: '192.0.2.10/24', end_address: '192.0.2.20/24', role: role.id },
      { start_address: '192.0.2.10/24', end_address: '192.0.2.20/24', vrf: vrf.id, status: 'reserved' },
      { start_address: '2001:db8::1/64', end_address: '2001:db8::ff/64', mark_utilized: true },
    ],
    update: { description: 'Test Value', status: 'deprecated', mark_populated: true },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'start_address', 'end_address', 'description'],
    filters: ({ vrf }) => ({ [`vrf_id=${vrf.id}`]: [1], 'family=6': [2], 'contains=192.0.2.15': [0, 1], 'status=reserved': [1] }),
    invalid: [
      { body: { start_address: '192.0.2.30/24', end_address: '192.0.2.25/24' }, field: 'end_address' },
      { body: { start_address: '192.0.2.30/24', end_address: '192.0.2.40/25' }, field: 'end_address' },
      { body: { start_address: '192.0.2.30/24', end_address: '2001:db8::1/24' }, field: 'end_address' },
      { body: { start_address: 'nope', end_address: '192.0.2.40/24' }, field: 'start_address' },
    ],
  });

  describeResourceApi({
    app,
    path: `${I}/route-targets/`,
    objectType: 'ipam.routetarget',
    graphqlName: 'route_target',
    fixtures: async ({ factories }) => ({ tenant: await factories.tenant() }),
    create: ({ tenant }) => [
      { name: '65000:100', tenant: tenant.id },
      { name: '65000:200' },
      { name: '192.0.2.1:300', description: 'IPv4 administrator' },
    ],
    update: { description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ tenant }) => ({ [`tenant_id=${tenant.id}`]: [0], 'name__isw=65000': [0, 1] }),
    invalid: [{ body: { name: '65000:1000000000000000' }, field: 'name' }],
  });

  describeResourceApi({
    app,
    path: `${I}/service-templates/`,
    objectType: 'ipam.servicetemplate',
    graphqlName: 'service_template',
    create: [
      { name: 'HTTPS', protocol: 'tcp', ports: [443] },
      { name: 'DNS', protocol: 'udp', ports: [53] },
      { name: 'Web', protocol: 'tcp', ports: [80, 443, 8080], description: 'web' },
    ],
    update: { ports: [443, 8443], description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'protocol', 'ports', 'description'],
    filters: { 'protocol=tcp': [0, 2], 'port=443': [0, 2], 'port=53': [1] },
    invalid: [
      { body: { name: 'Bad', protocol: 'tcp', ports: [70000] }, field: 'ports' },
      { body: { name: 'Bad', protocol: 'tcp' }, field: 'ports' },
      { body: { name: 'Bad', protocol: 'icmp', ports: [1] }, field: 'protocol' },
    ],
  });

  describeResourceApi({
    app,
    path: `${I}/services/`,
    objectType: 'ipam.service',
    graphqlName: 'service',
    fixtures: async ({ factories }) => {
      const device = await factories.device();
      return { device, vm: await factories.virtualMachine(), ip: await factories.ipAddress({ address: '198.51.100.7/24' }) };
    },
    create: ({ device, vm, ip }) => [
      { parent_object_type: 'dcim.device', parent_object_id: device.id, name: 'ssh', protocol: 'tcp', ports: [22], ipaddresses: [ip.id] },
      { parent_object_type: 'dcim.device', parent_object_id: device.id, name: 'snmp', protocol: 'udp', ports: [161, 162] },
      { parent_object_type: 'virtualization.virtualmachine', parent_object_id: vm.id, name: 'https', protocol: 'tcp', ports: [443] },
    ],
    update: { ports: [2222], description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'protocol', 'ports', 'description'],
    filters: ({ device, vm }) => ({
      [`device_id=${device.id}`]: [0, 1],
      [`virtual_machine_id=${vm.id}`]: [2],
      'port=162': [1],
      'protocol=tcp': [0, 2],
    }),
    invalid: [
      {
        body: { parent_object_type: 'dcim.site', parent_object_id: 1, name: 'x', protocol: 'tcp', ports: [1] },
        field: 'parent_object_type',
      },
      {
        body: ({ device }) => ({ parent_object_type: 'dcim.device', parent_object_id: device.id, name: 'x', protocol: 'tcp', ports: [0] }),
        field: 'ports',
      },
    ],
  });

  describeResourceApi({
    app,
    path: `${I}/fhrp-groups/`,
    objectType: 'ipam.fhrpgroup',
    graphqlName: 'fhrp_group',
    create: [
      { protocol: 'vrrp2', group_id: 10, name: 'gw-a' },
      { protocol: 'hsrp', group_id: 10, auth_type: 'md5', auth_key: 'secret' },
      { protocol: 'carp', group_id: 20, description: 'firewalls' },
    ],
    update: { description: 'Test Value', group_id: 11 },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'protocol', 'group_id', 'description'],
    filters: { 'group_id=10': [0, 1], 'protocol=carp': [2], 'auth_type=md5': [1] },
    invalid: [
      { body: { protocol: 'vrrp2', group_id: 40000 }, field: 'group_id' },
      { body: { protocol: 'ospf', group_id: 1 }, field: 'protocol' },
    ],
  });

  describeResourceApi({
    app,
    path: `${I}/fhrp-group-assignments/`,
    objectType: 'ipam.fhrpgroupassignment',
    graphqlName: 'fhrp_group_assignment',
    fixtures: async ({ factories }) => {
      const device = await factories.device();
      return {
        groups: [await factories.fhrpGroup({ group_id: 1 }), await factories.fhrpGroup({ group_id: 2 })],
        interfaces: [await factories.interface({ device: device.id }), await factories.interface({ device: device.id })],
        vmInterface: await factories.vmInterface(),
      };
    },
    create: ({ groups: [g1, g2], interfaces: [i1, i2], vmInterface }) => [
      { group: g1.id, interface_type: 'dcim.interface', interface_id: i1.id, priority: 200 },
      { group: g1.id, interface_type: 'dcim.interface', interface_id: i2.id, priority: 100 },
      { group: g2.id, interface_type: 'virtualization.vminterface', interface_id: vmInterface.id, priority: 100 },
    ],
    update: { priority: 250 },
    bulkUpdate: { priority: 50 },
    brief: ['id', 'url', 'display', 'group', 'interface_type', 'interface_id', 'interface', 'priority'],
    filters: ({ groups: [g1] }) => ({ [`group_id=${g1.id}`]: [0, 1], 'priority=100': [1, 2] }),
    invalid: [
      {
        body: ({ groups: [g1], interfaces: [i1] }) => ({
          group: g1.id,
          interface_type: 'dcim.interface',
          interface_id: i1.id,
          priority: 256,
        }),
        field: 'priority',
      },
      {
        body: ({ groups: [g1] }) => ({ group: g1.id, interface_type: 'dcim.site', interface_id: 1, priority: 1 }),
        field: 'interface_type',
      },
    ],
  });
});
