import { describeResourceApi, unique, usePlatformApp } from './support/resource-api-kit';

const I = '/api/ipam';

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of RIRs, ASNs, VRFs,
 * VLANs, prefixes and IP addresses; their own rules are in platform-ipam.e2e-spec.ts.
 */
describe('platform IPAM: the REST and GraphQL contract of RIRs, ASNs, VRFs, VLANs, prefixes and IP addresses', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${I}/rirs/`,
    objectType: 'ipam.rir',
    graphqlName: 'rir',
    create: [
      { name: 'ARIN', slug: 'arin', description: 'north america' },
      { name: 'RIPE', slug: 'ripe' },
      { name: 'RFC 1918', slug: 'rfc-1918', is_private: true },
    ],
    update: { name: 'ARIN.net', slug: 'arin-net', is_private: true },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: { 'slug=ripe': [1], 'is_private=true': [2], 'q=north': [0] },
    invalid: [{ body: { name: 'No slug' }, field: 'slug' }],
  });

  describeResourceApi({
    app,
    path: `${I}/asns/`,
    objectType: 'ipam.asn',
    graphqlName: 'asn',
    fixtures: async ({ api }) => ({
      rir: await api.created(`${I}/rirs/`, { name: unique('RIR'), slug: unique('rir') }),
      tenant: await api.created('/api/tenancy/tenants/', { name: unique('tenant'), slug: unique('tenant') }),
    }),
    create: ({ rir, tenant }) => [
      { asn: 64512, rir: rir.id, description: 'private' },
      { asn: 4_200_000_000, rir: rir.id, tenant: tenant.id },
      { asn: 65000, rir: rir.id },
    ],
    update: { asn: 64513, description: 'moved' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'asn', 'description'],
    filters: ({ tenant }) => ({ 'asn=65000': [2], 'asn__gte=65000': [1, 2], [`tenant_id=${tenant.id}`]: [1] }),
    invalid: [
      { body: ({ rir }) => ({ asn: 0, rir: rir.id }), field: 'asn' },
      { body: ({ rir }) => ({ asn: 4_294_967_296, rir: rir.id }), field: 'asn' },
      { body: { asn: 64600 }, field: 'rir' },
    ],
  });

  describeResourceApi({
    app,
    path: `${I}/vrfs/`,
    objectType: 'ipam.vrf',
    graphqlName: 'vrf',
    fixtures: async ({ api }) => ({
      tenant: await api.created('/api/tenancy/tenants/', { name: unique('tenant'), slug: unique('tenant') }),
    }),
    create: ({ tenant }) => [
      { name: 'red', rd: '65000:1', description: 'customers' },
      { name: 'blue', rd: '65000:2', tenant: tenant.id, enforce_unique: false },
      { name: 'mgmt' },
    ],
    update: { name: 'crimson', rd: '65000:10', enforce_unique: false },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'rd', 'description'],
    filters: ({ tenant }) => ({ 'name=blue': [1], 'rd=65000:1': [0], [`tenant_id=${tenant.id}`]: [1], 'q=customers': [0] }),
    invalid: [
      { body: { rd: '65000:99' }, field: 'name' },
      { body: { name: 'long rd', rd: '6'.repeat(22) }, field: 'rd' },
    ],
  });

  describeResourceApi({
    app,
    path: `${I}/vlans/`,
    objectType: 'ipam.vlan',
    graphqlName: 'vlan',
    fixtures: async ({ factories }) => ({ svlan: await factories.vlan({ vid: 3001, qinq_role: 'svlan' }) }),
    create: ({ svlan }) => [
      { vid: 10, name: 'users', description: 'office', qinq_role: 'svlan' },
      { vid: 20, name: 'voice', status: 'reserved', qinq_role: 'cvlan', qinq_svlan: svlan.id },
      { vid: 4094, name: 'transit' },
    ],
    update: { vid: 11, name: 'staff', status: 'deprecated' },
    bulkUpdate: { status: 'active' },
    brief: ['id', 'url', 'display', 'vid', 'name', 'description'],
    filters: ({ svlan }) => ({
      'vid=20': [1],
      'vid__gte=20': [1, 2],
      'status=reserved': [1],
      'name=transit': [2],
      'qinq_role=svlan': [0],
      [`qinq_svlan_id=${svlan.id}`]: [1],
      'qinq_svlan_vid=3001': [1],
    }),
    invalid: [
      { body: { vid: 4095, name: 'too high' }, field: 'vid' },
      { body: { vid: 30 }, field: 'name' },
      { body: { vid: 31, name: 'bad status', status: 'lost' }, field: 'status' },
      { body: { vid: 32, name: 'lone cvlan', qinq_role: 'cvlan' }, field: 'qinq_role' },
      { body: ({ svlan }) => ({ vid: 33, name: 'not a cvlan', qinq_svlan: svlan.id }), field: 'qinq_svlan' },
    ],
  });

  describeResourceApi({
    app,
    path: `${I}/prefixes/`,
    objectType: 'ipam.prefix',
    graphqlName: 'prefix',
    fixtures: async ({ api }) => ({ vrf: await api.created(`${I}/vrfs/`, { name: unique('vrf') }) }),
    create: ({ vrf }) => [
      { prefix: '10.0.0.0/8', status: 'container', description: 'private' },
      { prefix: '10.1.0.0/16', vrf: vrf.id, is_pool: true },
      { prefix: '2001:db8::/32', mark_utilized: true },
    ],
    update: { prefix: '10.0.0.0/9', status: 'reserved' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'prefix', 'description'],
    filters: ({ vrf }) => ({ 'family=6': [2], 'within=10.0.0.0/8': [1], [`vrf_id=${vrf.id}`]: [1], 'is_pool=true': [1], 'q=private': [0] }),
    invalid: [
      { body: { prefix: '10.0.0.1/8' }, field: 'prefix' },
      { body: { prefix: 'not a prefix' }, field: 'prefix' },
    ],
  });

  describeResourceApi({
    app,
    path: `${I}/ip-addresses/`,
    objectType: 'ipam.ipaddress',
    graphqlName: 'ip_address',
    fixtures: async ({ api, factories }) => ({
      vrf: await api.created(`${I}/vrfs/`, { name: unique('vrf') }),
      interface: await factories.interface(),
    }),
    create: ({ vrf, interface: port }) => [
      { address: '192.0.2.1/24', dns_name: 'gw.example.net', role: 'anycast' },
      { address: '192.0.2.2/24', vrf: vrf.id, status: 'reserved' },
      { address: '2001:db8::1/64', assigned_object_type: 'dcim.interface', assigned_object_id: port.id },
    ],
    update: { address: '192.0.2.10/24', status: 'deprecated', dns_name: 'old.example.net' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'address', 'description'],
    filters: ({ vrf, interface: port }) => ({
      'address=192.0.2.2/24': [1],
      'parent=192.0.2.0/24': [0, 1],
      'family=6': [2],
      [`vrf_id=${vrf.id}`]: [1],
      [`interface_id=${port.id}`]: [2],
      'dns_name=gw.example.net': [0],
    }),
    invalid: [
      { body: { address: '192.0.2.0/0' }, field: 'address' },
      { body: { address: '192.0.2.5/24', dns_name: 'bad name!' }, field: 'dns_name' },
      { body: { address: '192.0.2.6/24', status: 'lost' }, field: 'status' },
    ],
  });
});
