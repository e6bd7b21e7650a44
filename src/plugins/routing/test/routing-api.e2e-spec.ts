import type { PlatformClient } from '../../../../test/support/platform-client';
import { describeResourceApi, unique, usePlatformApp } from '../../../../test/support/resource-api-kit';

const R = '/api/plugins/routing';

interface RoutingWorld {
  devices: [any, any, any];
  asns: [any, any];
  vrf: any;
  tenant: any;
  /** Addresses free for the peers' own bodies. */
  ips: [any, any, any];
  router: any;
  globalScope: any;
  vrfScope: any;
  template: any;
  bfd: any;
  /** Two peers (in the VRF scope) for the address families. */
  peers: [any, any];
  prefixList: any;
  routeMap: any;
}

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of every routing plugin
 * model; the models' own rules (validation, uniqueness, what deleting does) are in
 * routing.e2e-spec.ts.
 */
describe('platform routing plugin: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  let worldMade: Promise<RoutingWorld> | undefined;
  /** The related objects the routing models need, made once for every declaration that asks. */
  const world = (api: PlatformClient): Promise<RoutingWorld> => (worldMade ??= makeWorld(api));

  async function makeWorld(api: PlatformClient): Promise<RoutingWorld> {
    const site = await api.created('/api/dcim/sites/', { name: 'Routing DC', slug: 'routing-dc' });
    const manufacturer = await api.created('/api/dcim/manufacturers/', { name: 'Arista', slug: 'arista' });
    const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: '7280R', slug: '7280r' });
    const role = await api.created('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge' });
    const device = (name: string) => api.created('/api/dcim/devices/', { name, device_type: deviceType.id, role: role.id, site: site.id });
    const rir = await api.created('/api/ipam/rirs/', { name: 'RFC 6996', slug: 'rfc-6996', is_private: true });
    const ip = (address: string) => api.created('/api/ipam/ip-addresses/', { address });
    const devices: RoutingWorld['devices'] = [await device('edge1'), await device('edge2'), await device('edge3')];
    const asns: RoutingWorld['asns'] = [
      await api.created('/api/ipam/asns/', { asn: 65010, rir: rir.id }),
      await api.created('/api/ipam/asns/', { asn: 65020, rir: rir.id }),
    ];
    const vrf = await api.created('/api/ipam/vrfs/', { name: 'red', rd: '65010:1' });
    const router = await api.created(`${R}/bgp-routers/`, { device: devices[2].id, asn: asns[0].id });
    const globalScope = await api.created(`${R}/bgp-scopes/`, { router: router.id });
    const vrfScope = await api.created(`${R}/bgp-scopes/`, { router: router.id, vrf: vrf.id });
    const afPeer = async (address: string) =>
      api.created(`${R}/bgp-peers/`, { scope: vrfScope.id, peer: (await ip(address)).id, name: unique('af-peer') });
    return {
      devices,
      asns,
      vrf,
      tenant: await api.created('/api/tenancy/tenants/', { name: 'Routing Tenant', slug: 'routing-tenant' }),
      ips: [await ip('198.51.100.1/31'), await ip('198.51.100.3/31'), await ip('198.51.100.0/31')],
      router,
      globalScope,
      vrfScope,
      template: await api.created(`${R}/bgp-peer-templates/`, { name: unique('TEMPLATE') }),
      bfd: await api.created(`${R}/bfd-profiles/`, { name: unique('bfd') }),
      peers: [await afPeer('203.0.113.1/31'), await afPeer('203.0.113.3/31')],
      prefixList: await api.created(`${R}/prefix-lists/`, { name: unique('PL'), family: 'ipv4' }),
      routeMap: await api.created(`${R}/route-maps/`, { name: unique('RM') }),
    };
  }

  describeResourceApi({
    app,
    path: `${R}/bgp-routers/`,
    objectType: 'routing.bgprouter',
    graphqlName: 'routing_bgp_router',
    fixtures: ({ api }) => world(api),
    create: ({ devices: [d1, d2], asns: [a1, a2] }) => [
      { device: d1.id, asn: a1.id, description: 'edge' },
      { device: d1.id, asn: a2.id },
      { device: d2.id, asn: a1.id },
    ],
    update: ({ devices, asns }) => ({ device: devices[1].id, asn: asns[1].id, description: 'moved' }),
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'device', 'asn', 'description'],
    filters: ({ devices: [d1, d2], asns: [a1] }) => ({
      [`device_id=${d1.id}`]: [0, 1],
      [`device=${d2.name}`]: [2],
      [`asn_id=${a1.id}`]: [0, 2],
    }),
    invalid: [
      { body: { description: 'neither device nor ASN' }, field: 'device' },
      { body: ({ devices }) => ({ device: devices[1].id, asn: 999999 }), field: 'asn' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/bgp-scopes/`,
    objectType: 'routing.bgpscope',
    graphqlName: 'routing_bgp_scope',
    fixtures: async ({ api }) => {
      const { devices, asns, vrf } = await world(api);
      return {
        vrf,
        routers: [
          await api.created(`${R}/bgp-routers/`, { device: devices[0].id, asn: asns[0].id }),
          await api.created(`${R}/bgp-routers/`, { device: devices[1].id, asn: asns[1].id }),
        ],
      };
    },
    create: ({ routers: [r1, r2], vrf }) => [
      { router: r1.id },
      { router: r1.id, vrf: vrf.id, description: 'red' },
      { router: r2.id, vrf: vrf.id },
    ],
    update: { description: 'renamed' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'router', 'vrf'],
    filters: ({ routers: [r1], vrf }) => ({ [`router_id=${r1.id}`]: [0, 1], [`vrf_id=${vrf.id}`]: [1, 2], 'vrf_id=null': [0] }),
    invalid: [{ body: ({ vrf }) => ({ vrf: vrf.id }), field: 'router' }],
  });

  describeResourceApi({
    app,
    path: `${R}/bgp-peer-templates/`,
    objectType: 'routing.bgppeertemplate',
    graphqlName: 'routing_bgp_peer_template',
    fixtures: ({ api }) => world(api),
    create: ({ asns: [a1, a2] }) => [
      { name: 'T-TRANSIT', remote_as: a1.id, description: 'transit' },
      { name: 'T-IX', enabled: false },
      { name: 'T-CUSTOMER', remote_as: a2.id },
    ],
    update: ({ asns }) => ({ name: 'T-TRANSIT-2', remote_as: asns[1].id, enabled: false }),
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ asns: [a1] }) => ({ 'name=T-IX': [1], [`remote_as_id=${a1.id}`]: [0], 'enabled=false': [1], 'q=transit': [0] }),
    invalid: [
      { body: { description: 'no name' }, field: 'name' },
      { body: { name: 'x'.repeat(101) }, field: 'name' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/bfd-profiles/`,
    objectType: 'routing.bfdprofile',
    graphqlName: 'routing_bfd_profile',
    create: [
      { name: 'fast', min_tx_int: 50, min_rx_int: 50, multiplier: 3 },
      { name: 'slow', min_tx_int: 1000, min_rx_int: 1000, multiplier: 5, hold: 100 },
      { name: 'standard', description: 'defaults' },
    ],
    update: { min_tx_int: 100, hold: 10, description: 'tuned' },
    bulkUpdate: { multiplier: 4 },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=slow': [1], 'multiplier=3': [0, 2], 'min_tx_int__lt=300': [0], 'q=defaults': [2] },
    invalid: [
      { body: { name: 'too-many', multiplier: 256 }, field: 'multiplier' },
      { body: { name: 'too-fast', min_tx_int: 0 }, field: 'min_tx_int' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/bgp-peers/`,
    objectType: 'routing.bgppeer',
    graphqlName: 'routing_bgp_peer',
    fixtures: ({ api }) => world(api),
    create: ({ globalScope, vrfScope, ips: [ip1, ip2, ip3], asns: [a1, a2], bfd, tenant, template }) => [
      { scope: globalScope.id, peer: ip1.id, name: 'peer-a', status: 'planned', remote_as: a1.id, ttl: 2, password: 's3cret' },
      { scope: globalScope.id, peer: ip2.id, name: 'peer-b', bfd_profile: bfd.id, tenant: tenant.id, description: 'customer' },
      { scope: vrfScope.id, peer: ip1.id, enabled: false, peer_group: template.id, source: ip3.id, local_as: a2.id },
    ],
    update: ({ bfd }) => ({ status: 'offline', ttl: 5, bfd_profile: bfd.id, source: null }),
    bulkUpdate: { status: 'decommissioned' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ globalScope, ips: [ip1], tenant }) => ({
      [`scope_id=${globalScope.id}`]: [0, 1],
      [`peer_id=${ip1.id}`]: [0, 2],
      'status=planned': [0],
      'enabled=false': [2],
      [`tenant=${tenant.slug}`]: [1],
      'q=peer-b': [1],
    }),
    invalid: [
      { body: ({ globalScope, ips }) => ({ scope: globalScope.id, peer: ips[2].id, ttl: 0 }), field: 'ttl' },
      { body: { name: 'nowhere' }, field: 'scope' },
      { body: ({ globalScope, ips }) => ({ scope: globalScope.id, peer: ips[2].id, status: 'established' }), field: 'status' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/prefix-lists/`,
    objectType: 'routing.prefixlist',
    graphqlName: 'routing_prefix_list',
    create: [
      { name: 'PL-CUSTOMERS', family: 'ipv4', description: 'customers' },
      { name: 'PL-V6', family: 'ipv6' },
      { name: 'PL-BOGONS', family: 'ipv4' },
    ],
    update: { name: 'PL-CUSTOMERS-V6', family: 'ipv6' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'family=ipv4': [0, 2], 'name=PL-V6': [1], 'q=customers': [0] },
    invalid: [
      { body: { name: 'PL-NOFAMILY' }, field: 'family' },
      { body: { name: 'PL-IPX', family: 'ipx' }, field: 'family' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/prefix-list-entries/`,
    objectType: 'routing.prefixlistentry',
    graphqlName: 'routing_prefix_list_entry',
    fixtures: async ({ api }) => ({ list: await api.created(`${R}/prefix-lists/`, { name: unique('PL-ENTRIES'), family: 'ipv4' }) }),
    create: ({ list }) => [
      { prefix_list: list.id, sequence: 10, action: 'permit', prefix: '10.0.0.0/8' },
      { prefix_list: list.id, sequence: 20, action: 'deny', prefix: '192.168.0.0/16', le: 24 },
      { prefix_list: list.id, sequence: 4294967294, action: 'permit', prefix: '0.0.0.0/0' },
    ],
    update: { action: 'deny', ge: 12, le: 32 },
    bulkUpdate: { action: 'permit' },
    brief: ['id', 'url', 'display', 'sequence', 'action', 'prefix'],
    filters: ({ list }) => ({ 'action=deny': [1], 'sequence__gte=20': [1, 2], [`prefix_list_id=${list.id}`]: [0, 1, 2] }),
    invalid: [
      { body: ({ list }) => ({ prefix_list: list.id, sequence: 30, action: 'permit', prefix: '10.0.0.1/8' }), field: 'prefix' },
      { body: ({ list }) => ({ prefix_list: list.id, sequence: 30, action: 'permit', prefix: '10.0.0.0/8', ge: 4 }), field: 'ge' },
      { body: ({ list }) => ({ prefix_list: list.id, sequence: 0, action: 'permit', prefix: '10.0.0.0/8' }), field: 'sequence' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/route-maps/`,
    objectType: 'routing.routemap',
    graphqlName: 'routing_route_map',
    create: [{ name: 'RM-IMPORT', description: 'inbound policy' }, { name: 'RM-EXPORT' }, { name: 'RM-TAG' }],
    update: { name: 'RM-IMPORT-V2', description: 'outbound policy' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=RM-EXPORT': [1], 'q=inbound': [0], 'name__isw=RM-': [0, 1, 2] },
    invalid: [
      { body: { description: 'no name' }, field: 'name' },
      { body: { name: '' }, field: 'name' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/bgp-peer-address-families/`,
    objectType: 'routing.bgppeeraddressfamily',
    graphqlName: 'routing_bgp_peer_address_family',
    fixtures: ({ api }) => world(api),
    create: ({ peers: [p1, p2], prefixList, routeMap }) => [
      { assigned_peer: p1.id, afi: 'ipv4-unicast', prefixlist_in: prefixList.id, routemap_out: routeMap.id },
      { assigned_peer: p1.id, afi: 'ipv6-unicast', enabled: false },
      { assigned_peer: p2.id, afi: 'l2vpn-evpn' },
    ],
    update: ({ prefixList }) => ({ enabled: false, prefixlist_in: null, prefixlist_out: prefixList.id }),
    bulkUpdate: ({ routeMap }) => ({ routemap_in: routeMap.id }),
    brief: ['id', 'url', 'display', 'assigned_peer', 'afi'],
    filters: ({ peers: [p1] }) => ({ [`assigned_peer_id=${p1.id}`]: [0, 1], 'afi=l2vpn-evpn': [2], 'enabled=false': [1] }),
    invalid: [
      { body: ({ peers }) => ({ assigned_peer: peers[0].id, afi: 'ipv4-flowspec' }), field: 'afi' },
      { body: { afi: 'ipv4-unicast' }, field: 'assigned_peer' },
    ],
  });
});
