import type { PlatformClient } from '../../../../test/support/platform-client';
import { describeResourceApi, unique, usePlatformApp } from '../../../../test/support/resource-api-kit';

const P = '/api/plugins/peering';
const R = '/api/plugins/routing';

interface PeeringWorld {
  site: any;
  tenants: [any, any];
  tenantGroup: any;
  devices: [any, any];
  interfaces: [any, any, any];
  asns: [any, any, any, any];
  prefixes: [any, any];
  vlan: any;
  peers: [any, any, any, any];
  prefixLists: [any, any, any, any];
  fabricTypes: [any, any];
  fabrics: [any, any];
  networks: [any, any];
  relationships: [any, any];
  irrSources: [any, any];
  template: any;
}

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of every peering plugin
 * model, with every filter of the spec's table; the models' own rules (one session per BGP peer,
 * `api_endpoint`, `peerdb`, render-config, the synchronisations) are in peering.e2e-spec.ts.
 */
describe('platform peering plugin: the REST and GraphQL contract of each model', () => {
  // The Lab source's generator is on loopback, which the egress policy refuses unless it is listed.
  const app = usePlatformApp({ EGRESS_ALLOW: '127.0.0.1' });

  let worldMade: Promise<PeeringWorld> | undefined;
  const world = (api: PlatformClient): Promise<PeeringWorld> => (worldMade ??= makeWorld(api));

  async function makeWorld(api: PlatformClient): Promise<PeeringWorld> {
    const site = await api.created('/api/dcim/sites/', { name: 'Peering DC', slug: 'peering-dc' });
    const parentGroup = await api.created('/api/tenancy/tenant-groups/', { name: 'Carriers', slug: 'carriers' });
    const tenantGroup = await api.created('/api/tenancy/tenant-groups/', {
      name: 'IX Operators',
      slug: 'ix-operators',
      parent: parentGroup.id,
    });
    const tenants: PeeringWorld['tenants'] = [
      await api.created('/api/tenancy/tenants/', { name: 'AMS-IX BV', slug: 'ams-ix-bv', group: tenantGroup.id }),
      await api.created('/api/tenancy/tenants/', { name: 'Local Co', slug: 'local-co' }),
    ];
    const manufacturer = await api.created('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
    const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'MX204', slug: 'mx204' });
    const role = await api.created('/api/dcim/device-roles/', { name: 'Peering router', slug: 'peering-router' });
    const device = (name: string) => api.created('/api/dcim/devices/', { name, device_type: deviceType.id, role: role.id, site: site.id });
    const devices: PeeringWorld['devices'] = [await device('pr1'), await device('pr2')];
    const iface = (deviceId: number, name: string) =>
      api.created('/api/dcim/interfaces/', { device: deviceId, name, type: '10gbase-x-sfpp' });
    const interfaces: PeeringWorld['interfaces'] = [
      await iface(devices[0].id, 'xe-0/0/0'),
      await iface(devices[0].id, 'xe-0/0/1'),
      await iface(devices[1].id, 'xe-0/0/0'),
    ];
    const rir = await api.created('/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' });
    const asn = (n: number, description = '') => api.created('/api/ipam/asns/', { asn: n, rir: rir.id, description });
    const asns: PeeringWorld['asns'] = [
      await asn(64500, 'Example Transit'),
      await asn(64501, 'Cloudy CDN'),
      await asn(64502),
      await asn(64503),
    ];
    const prefixes: PeeringWorld['prefixes'] = [
      await api.created('/api/ipam/prefixes/', { prefix: '192.0.2.0/24' }),
      await api.created('/api/ipam/prefixes/', { prefix: '2001:db8:ffff::/64' }),
    ];
    const vlan = await api.created('/api/ipam/vlans/', { vid: 100, name: 'IX-LAN' });
    const ip = (address: string) => api.created('/api/ipam/ip-addresses/', { address });
    const router = await api.created(`${R}/bgp-routers/`, { device: devices[0].id, asn: asns[3].id });
    const scope = await api.created(`${R}/bgp-scopes/`, { router: router.id });
    const peer = async (address: string, name: string) =>
      api.created(`${R}/bgp-peers/`, { scope: scope.id, peer: (await ip(address)).id, name, remote_as: asns[0].id });
    const peers: PeeringWorld['peers'] = [
      await peer('192.0.2.10/24', 'transit-a'),
      await peer('192.0.2.11/24', 'cdn-b'),
      await peer('192.0.2.12/24', 'peer-c'),
      await peer('192.0.2.13/24', 'peer-d'),
    ];
    const prefixList = (name: string) => api.created(`${R}/prefix-lists/`, { name, family: 'ipv4' });
    const prefixLists: PeeringWorld['prefixLists'] = [
      await prefixList('PL-AS-EXAMPLE'),
      await prefixList('PL-AS-CLOUDY'),
      await prefixList('PL-AS-OTHER'),
      await prefixList('PL-SPARE'),
    ];
    const fabricTypes: PeeringWorld['fabricTypes'] = [
      await api.created(`${P}/peering-fabric-type/`, { name: unique('IXP'), slug: unique('ixp') }),
      await api.created(`${P}/peering-fabric-type/`, { name: unique('PNI'), slug: unique('pni') }),
    ];
    const fabrics: PeeringWorld['fabrics'] = [
      await api.created(`${P}/peering-fabric/`, { name: unique('World-IX'), slug: unique('world-ix') }),
      await api.created(`${P}/peering-fabric/`, { name: unique('Metro-IX'), slug: unique('metro-ix') }),
    ];
    const networks: PeeringWorld['networks'] = [
      await api.created(`${P}/peering-network/`, { fabric: fabrics[0].id, name: 'LAN-A', prefix: prefixes[0].id }),
      await api.created(`${P}/peering-network/`, { fabric: fabrics[1].id, name: 'LAN-B', prefix: prefixes[1].id }),
    ];
    const relationships: PeeringWorld['relationships'] = [
      await api.created(`${P}/relationship/`, { name: unique('Transit'), slug: unique('transit') }),
      await api.created(`${P}/relationship/`, { name: unique('Customer'), slug: unique('customer') }),
    ];
    const irrSources: PeeringWorld['irrSources'] = [
      await api.created(`${P}/irr-source/`, { name: unique('RADB'), slug: unique('radb'), api_endpoint: 'http://bgpq.example.net/' }),
      await api.created(`${P}/irr-source/`, { name: unique('RIPE'), slug: unique('ripe'), api_endpoint: 'http://bgpq2.example.net/' }),
    ];
    const template = await api.created(`${R}/bgp-peer-templates/`, { name: unique('IX-PEERS') });
    return {
      site,
      tenants,
      tenantGroup,
      devices,
      interfaces,
      asns,
      prefixes,
      vlan,
      peers,
      prefixLists,
      fabricTypes,
      fabrics,
      networks,
      relationships,
      irrSources,
      template,
    };
  }

  describeResourceApi({
    app,
    path: `${P}/relationship/`,
    objectType: 'peering.relationship',
    graphqlName: 'platform_peering_relationship',
    create: [
      { name: 'Transit provider', slug: 'transit-provider', description: 'upstream', color: 'ff0000' },
      { name: 'Private peering', slug: 'private-peering' },
      { name: 'Customer cone', slug: 'customer-cone', description: 'downstream', comments: 'paying' },
    ],
    update: { name: 'Transit', slug: 'transit-renamed', color: '00ff00' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: {
      'name=Private peering': [1],
      'slug=customer-cone': [2],
      'description=upstream': [0],
      'q=stream': [0, 2],
      'q=private-peer': [1],
    },
    invalid: [
      { body: { slug: 'no-name' }, field: 'name' },
      { body: { name: 'Bad colour', slug: 'bad-colour', color: '#fff' }, field: 'color' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/peer-asn/`,
    objectType: 'peering.peerasn',
    graphqlName: 'platform_peering_peer_asn',
    fixtures: ({ api }) => world(api),
    create: ({ asns: [a1, a2, a3] }) => [
      { asn: a1.id, irr_as_set: 'AS-EXAMPLE', ipv4_max_prefixes: 100, peeringdb_id: 901 },
      { asn: a2.id, affiliated: true, ipv6_max_prefixes: 50 },
      { asn: a3.id, irr_as_set: 'AS-OTHER', peeringdb_id: 903 },
    ],
    update: { irr_as_set: 'AS-EXAMPLE-V2', ipv4_max_prefixes: 200, affiliated: true },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'asn', 'affiliated'],
    filters: ({ asns: [a1] }) => ({
      [`asn_id=${a1.id}`]: [0],
      'affiliated=true': [1],
      'irr_as_set=AS-OTHER': [2],
      'peerdb_id=901&peerdb_id=903': [0, 2],
      'q=Cloudy': [1],
      'q=64502': [2],
      'q=as-exam': [0],
    }),
    invalid: [
      { body: { affiliated: true }, field: 'asn' },
      { body: ({ asns }) => ({ asn: asns[3].id, ipv4_max_prefixes: -1 }), field: 'ipv4_max_prefixes' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/peering-session/`,
    objectType: 'peering.peeringsession',
    graphqlName: 'platform_peering_peering_session',
    fixtures: ({ api }) => world(api),
    create: ({ peers: [p1, p2, p3], relationships: [r1, r2], networks: [n1] }) => [
      { bgp_peer: p1.id, relationship: r1.id, service_reference: 'SR-1001' },
      { bgp_peer: p2.id, relationship: r2.id, peering_network: n1.id },
      { bgp_peer: p3.id, peering_network: n1.id, service_reference: 'SR-1003' },
    ],
    update: ({ relationships, networks }) => ({
      relationship: relationships[1].id,
      peering_network: networks[1].id,
      service_reference: 'SR-2000',
    }),
    bulkUpdate: { service_reference: 'SR-BULK' },
    brief: ['id', 'url', 'display', 'bgp_peer', 'relationship', 'service_reference'],
    filters: ({ peers: [p1], relationships: [r1, r2], networks: [n1] }) => ({
      [`bgp_peer_id=${p1.id}`]: [0],
      [`relationship_id=${r2.id}`]: [1],
      [`relationship_id=${r1.id}&relationship_id=${r2.id}`]: [0, 1],
      [`peering_network_id=${n1.id}`]: [1, 2],
      'service_reference=SR-1003': [2],
      'q=cdn-b': [1],
      [`q=${r1.name}`]: [0],
      'q=LAN-A': [1, 2],
      'q=SR-100': [0, 2],
    }),
    invalid: [
      { body: { service_reference: 'no peer' }, field: 'bgp_peer' },
      { body: ({ peers }) => ({ bgp_peer: peers[3].id, relationship: 999999 }), field: 'relationship' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/peering-fabric-type/`,
    objectType: 'peering.peeringfabrictype',
    graphqlName: 'platform_peering_peering_fabric_type',
    create: [
      { name: 'Public IXP', slug: 'public-ixp', description: 'shared LAN' },
      { name: 'Private interconnect', slug: 'private-interconnect', color: '00aa00' },
      { name: 'Route server', slug: 'route-server', description: 'multilateral' },
    ],
    update: { name: 'IXP', slug: 'ixp-renamed', description: 'renamed' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: { 'name=Route server': [2], 'slug=public-ixp': [0], 'description=multilateral': [2], 'q=interconnect': [1] },
    invalid: [{ body: { name: 'No slug' }, field: 'slug' }],
  });

  describeResourceApi({
    app,
    path: `${P}/peering-fabric/`,
    objectType: 'peering.peeringfabric',
    graphqlName: 'platform_peering_peering_fabric',
    fixtures: ({ api }) => world(api),
    create: ({ fabricTypes: [t1, t2], site, tenants: [grouped, local], template }) => [
      { name: 'AMS-IX', slug: 'ams-ix', type: t1.id, site: site.id, tenant: grouped.id, description: 'Amsterdam', peer_group: template.id },
      { name: 'DE-CIX', slug: 'de-cix', type: t1.id, status: 'planned', tenant: local.id },
      { name: 'PNI-Cloudy', slug: 'pni-cloudy', type: t2.id, status: 'decommissioned', comments: 'cross-connect' },
    ],
    update: ({ fabricTypes }) => ({ name: 'AMS-IX 2', status: 'planned', type: fabricTypes[1].id, site: null }),
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'status', 'description'],
    filters: ({ fabricTypes: [t1], site, tenants: [grouped, local], tenantGroup }) => ({
      'name=DE-CIX': [1],
      'slug=pni-cloudy': [2],
      'status=planned': [1],
      'status=planned&status=decommissioned': [1, 2],
      [`type_id=${t1.id}`]: [0, 1],
      [`site_id=${site.id}`]: [0],
      [`tenant_id=${local.id}`]: [1],
      [`tenant=${grouped.slug}`]: [0],
      [`tenant_group_id=${tenantGroup.id}`]: [0],
      'tenant_group=carriers': [0],
      'q=amsterdam': [0],
      'q=pni': [2],
    }),
    invalid: [
      { body: { name: 'No slug' }, field: 'slug' },
      { body: { name: 'Bad status', slug: 'bad-status', status: 'active-ish' }, field: 'status' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/peering-network/`,
    objectType: 'peering.peeringnetwork',
    graphqlName: 'platform_peering_peering_network',
    fixtures: ({ api }) => world(api),
    create: ({ fabrics: [f1, f2], prefixes: [v4, v6], vlan }) => [
      { fabric: f1.id, name: 'Peering LAN v4', prefix: v4.id, vlan: vlan.id, description: 'main' },
      { fabric: f1.id, name: 'Peering LAN v6', prefix: v6.id, status: 'planned' },
      { fabric: f2.id, name: 'Metro LAN', prefix: v4.id, status: 'decommissioned' },
    ],
    update: ({ prefixes }) => ({ name: 'Peering LAN', prefix: prefixes[1].id, vlan: null, status: 'planned' }),
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'fabric', 'name', 'status'],
    filters: ({ fabrics: [f1, f2] }) => ({
      'name=Metro LAN': [2],
      [`fabric_id=${f1.id}`]: [0, 1],
      'status=planned&status=decommissioned': [1, 2],
      'status=active': [0],
      [`q=${f2.name}`]: [2],
      'q=main': [0],
    }),
    invalid: [
      { body: ({ fabrics }) => ({ fabric: fabrics[0].id, name: 'No prefix' }), field: 'prefix' },
      { body: ({ prefixes }) => ({ name: 'No fabric', prefix: prefixes[0].id }), field: 'fabric' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/peering-connection/`,
    objectType: 'peering.peeringconnection',
    graphqlName: 'platform_peering_peering_connection',
    fixtures: ({ api }) => world(api),
    create: ({ networks: [n1, n2], interfaces: [i1, i2, i3] }) => [
      { peering_network: n1.id, interface: i1.id, description: 'primary port' },
      { peering_network: n1.id, interface: i3.id, status: 'planned' },
      { peering_network: n2.id, interface: i2.id, status: 'decommissioned' },
    ],
    update: { status: 'planned', description: 'moved' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'peering_network', 'interface', 'status'],
    filters: ({ networks: [n1], devices: [d1, d2], interfaces: [, i2] }) => ({
      [`peering_network_id=${n1.id}`]: [0, 1],
      [`device_id=${d1.id}`]: [0, 2],
      [`device_id=${d2.id}`]: [1],
      [`interface=${i2.id}`]: [2],
      'interface__name=xe-0/0/1': [2],
      'status=planned&status=decommissioned': [1, 2],
      'q=LAN-B': [2],
      'q=primary': [0],
    }),
    invalid: [
      { body: ({ networks }) => ({ peering_network: networks[0].id }), field: 'interface' },
      { body: ({ interfaces }) => ({ interface: interfaces[0].id }), field: 'peering_network' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/irr-source/`,
    objectType: 'peering.irrsource',
    graphqlName: 'platform_peering_irr_source',
    create: [
      { name: 'RADB mirror', slug: 'radb-mirror', api_endpoint: 'https://fastbgpq4.example.com/', sources: 'RADB', description: 'primary' },
      { name: 'RIPE only', slug: 'ripe-only', api_endpoint: 'https://ripe.example.com/api', sources: 'RIPE', enabled: false },
      { name: 'Lab', slug: 'lab', api_endpoint: 'http://127.0.0.1:9/', cache_ttl: 60, sync_interval: 60 },
    ],
    update: { api_endpoint: 'https://fastbgpq4.example.com/v2/', sync_interval: 720, enabled: false },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: {
      'name=Lab': [2],
      'slug=ripe-only': [1],
      'url=https://ripe.example.com/api': [1],
      'enabled=false': [1],
      'q=fastbgpq4': [0],
      'q=primary': [0],
    },
    invalid: [
      { body: { name: 'No endpoint', slug: 'no-endpoint' }, field: 'api_endpoint' },
      { body: { name: 'Bad endpoint', slug: 'bad-endpoint', api_endpoint: 'ftp://x' }, field: 'api_endpoint' },
      { body: { name: 'Zero interval', slug: 'zero', api_endpoint: 'http://x.example/', sync_interval: 0 }, field: 'sync_interval' },
      // Refused by the egress policy (EGRESS_ALLOW lists 127.0.0.1 only): the cloud metadata address, other loopback and private addresses.
      { body: { name: 'Metadata', slug: 'metadata', api_endpoint: 'http://169.254.169.254/latest/' }, field: 'api_endpoint' },
      { body: { name: 'Loopback v6', slug: 'loopback-v6', api_endpoint: 'http://[::1]:8080/' }, field: 'api_endpoint' },
      { body: { name: 'Mapped', slug: 'mapped', api_endpoint: 'http://[::ffff:10.0.0.1]/' }, field: 'api_endpoint' },
      { body: { name: 'Other loopback', slug: 'other-loopback', api_endpoint: 'http://127.0.0.2/' }, field: 'api_endpoint' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/irr-prefix-list-config/`,
    objectType: 'peering.irrprefixlistconfig',
    graphqlName: 'platform_peering_irr_prefix_list_config',
    fixtures: ({ api }) => world(api),
    create: ({ prefixLists: [l1, l2, l3], irrSources: [s1, s2] }) => [
      { prefix_list: l1.id, irr_source: s1.id, source_as_set: 'AS-EXAMPLE', sync_interval: 60 },
      { prefix_list: l2.id, irr_source: s2.id, source_as_set: 'AS-CLOUDY:AS-ALL' },
      { prefix_list: l3.id },
    ],
    update: ({ irrSources }) => ({ irr_source: irrSources[1].id, source_as_set: 'AS-EXAMPLE-V6', sync_interval: 30 }),
    bulkUpdate: { sync_interval: 120 },
    brief: ['id', 'url', 'display', 'prefix_list', 'irr_source', 'source_as_set'],
    filters: ({ prefixLists: [l1], irrSources: [s1, s2] }) => ({
      [`prefix_list_id=${l1.id}`]: [0],
      [`irr_source_id=${s2.id}`]: [1],
      'source_as_set=cloudy': [1],
      'source_as_set=AS-': [0, 1],
      'sync_interval=60': [0],
      'q=PL-AS-OTHER': [2],
      [`q=${s1.name}`]: [0],
      'q=as-cloudy': [1],
    }),
    invalid: [
      { body: ({ irrSources }) => ({ irr_source: irrSources[0].id }), field: 'prefix_list' },
      { body: ({ prefixLists, irrSources }) => ({ prefix_list: prefixLists[3].id, irr_source: irrSources[0].id }), field: 'source_as_set' },
      { body: ({ prefixLists }) => ({ prefix_list: prefixLists[3].id, source_as_set: 'AS-LONELY' }), field: 'irr_source' },
    ],
  });
});
