import type { PlatformClient } from '../../../../test/support/platform-client';
import { describeResourceApi, unique, usePlatformApp } from '../../../../test/support/resource-api-kit';

const R = '/api/plugins/routing';

interface PolicyWorld {
  asns: [any, any];
  tenant: any;
  role: any;
  routers: [any, any];
  scopes: [any, any];
  bfd: any;
  prefixLists: [any, any];
  routeMaps: [any, any];
}

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of the routing models
 * netbox-routing has beside routers, peers and prefix lists: BGP settings and address families,
 * session and policy templates, route-map entries, AS paths, communities, community lists and
 * custom prefixes. Their own rules (template chains, typed settings) are in routing-policy.e2e-spec.ts.
 */
describe('platform routing plugin: the REST and GraphQL contract of the policy models', () => {
  const app = usePlatformApp();

  let worldMade: Promise<PolicyWorld> | undefined;
  const world = (api: PlatformClient): Promise<PolicyWorld> => (worldMade ??= makeWorld(api));

  async function makeWorld(api: PlatformClient): Promise<PolicyWorld> {
    const site = await api.created('/api/dcim/sites/', { name: 'Policy DC', slug: 'policy-dc' });
    const manufacturer = await api.created('/api/dcim/manufacturers/', { name: 'Nokia', slug: 'nokia' });
    const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: '7750', slug: '7750' });
    const deviceRole = await api.created('/api/dcim/device-roles/', { name: 'PE', slug: 'pe' });
    const device = (name: string) =>
      api.created('/api/dcim/devices/', { name, device_type: deviceType.id, role: deviceRole.id, site: site.id });
    const rir = await api.created('/api/ipam/rirs/', { name: 'Private ASNs', slug: 'private-asns', is_private: true });
    const asns: PolicyWorld['asns'] = [
      await api.created('/api/ipam/asns/', { asn: 64601, rir: rir.id }),
      await api.created('/api/ipam/asns/', { asn: 64602, rir: rir.id }),
    ];
    const routers: PolicyWorld['routers'] = [
      await api.created(`${R}/bgp-routers/`, { device: (await device('pe1')).id, asn: asns[0].id }),
      await api.created(`${R}/bgp-routers/`, { device: (await device('pe2')).id, asn: asns[1].id }),
    ];
    const vrf = await api.created('/api/ipam/vrfs/', { name: 'green', rd: '64601:7' });
    const scopes: PolicyWorld['scopes'] = [
      await api.created(`${R}/bgp-scopes/`, { router: routers[0].id }),
      await api.created(`${R}/bgp-scopes/`, { router: routers[0].id, vrf: vrf.id }),
    ];
    return {
      asns,
      tenant: await api.created('/api/tenancy/tenants/', { name: 'Policy Tenant', slug: 'policy-tenant' }),
      role: await api.created('/api/ipam/roles/', { name: 'Blackhole', slug: 'blackhole' }),
      routers,
      scopes,
      bfd: await api.created(`${R}/bfd-profiles/`, { name: unique('policy-bfd') }),
      prefixLists: [
        await api.created(`${R}/prefix-lists/`, { name: unique('PL-IN'), family: 'ipv4' }),
        await api.created(`${R}/prefix-lists/`, { name: unique('PL-OUT'), family: 'ipv4' }),
      ],
      routeMaps: [
        await api.created(`${R}/route-maps/`, { name: unique('RM-IN') }),
        await api.created(`${R}/route-maps/`, { name: unique('RM-OUT') }),
      ],
    };
  }

  describeResourceApi({
    app,
    path: `${R}/bgp-settings/`,
    objectType: 'routing.bgpsetting',
    graphqlName: 'routing_bgp_setting',
    fixtures: ({ api }) => world(api),
    create: ({ routers: [r1], scopes: [s1] }) => [
      {
        assigned_object_type: 'routing.bgprouter',
        assigned_object_id: r1.id,
        key: 'router_id',
        value: '192.0.2.1',
        description: 'loopback',
      },
      { assigned_object_type: 'routing.bgprouter', assigned_object_id: r1.id, key: 'graceful_restart', value: 'true' },
      { assigned_object_type: 'routing.bgpscope', assigned_object_id: s1.id, key: 'paths_maximum', value: '8' },
    ],
    update: { value: '192.0.2.2', description: 'moved loopback' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'assigned_object_type', 'assigned_object_id', 'assigned_object', 'key', 'value'],
    filters: ({ routers: [r1] }) => ({
      'assigned_object_type=routing.bgprouter': [0, 1],
      [`assigned_object_type=routing.bgprouter&assigned_object_id=${r1.id}`]: [0, 1],
      'assigned_object_type=routing.bgpscope': [2],
      'key=paths_maximum': [2],
      'q=loopback': [0],
    }),
    invalid: [
      {
        body: ({ routers }) => ({
          assigned_object_type: 'routing.bgprouter',
          assigned_object_id: routers[1].id,
          key: 'router_id',
          value: 'loopback0',
        }),
        field: 'value',
      },
      {
        body: ({ routers }) => ({
          assigned_object_type: 'routing.bgprouter',
          assigned_object_id: routers[1].id,
          key: 'timers_hold',
          value: 'ninety',
        }),
        field: 'value',
      },
      {
        body: ({ routers }) => ({
          assigned_object_type: 'routing.bgprouter',
          assigned_object_id: routers[1].id,
          key: 'colour',
          value: '1',
        }),
        field: 'key',
      },
      {
        body: ({ asns }) => ({ assigned_object_type: 'ipam.asn', assigned_object_id: asns[0].id, key: 'paths_maximum', value: '2' }),
        field: 'assigned_object_type',
      },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/bgp-address-families/`,
    objectType: 'routing.bgpaddressfamily',
    graphqlName: 'routing_bgp_address_family',
    fixtures: ({ api }) => world(api),
    create: ({ scopes: [s1, s2], tenant }) => [
      { scope: s1.id, address_family: 'ipv4-unicast', description: 'internet' },
      { scope: s1.id, address_family: 'ipv6-unicast', tenant: tenant.id },
      { scope: s2.id, address_family: 'vpnv4-unicast' },
    ],
    update: ({ tenant }) => ({ tenant: tenant.id, description: 'internet v4' }),
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'scope', 'address_family'],
    filters: ({ scopes: [s1], tenant }) => ({
      [`scope_id=${s1.id}`]: [0, 1],
      'address_family=vpnv4-unicast': [2],
      [`tenant_id=${tenant.id}`]: [1],
      'q=internet': [0],
    }),
    invalid: [
      { body: ({ scopes }) => ({ scope: scopes[1].id, address_family: 'ipx' }), field: 'address_family' },
      { body: { address_family: 'ipv4-unicast' }, field: 'scope' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/bgp-session-templates/`,
    objectType: 'routing.bgpsessiontemplate',
    graphqlName: 'routing_bgp_session_template',
    fixtures: async ({ api }) => ({
      ...(await world(api)),
      base: await api.created(`${R}/bgp-session-templates/`, { name: unique('ST-BASE'), ttl: 64 }),
    }),
    create: ({ asns: [a1, a2], bfd, tenant, base }) => [
      { name: 'ST-TRANSIT', parent: base.id, remote_as: a2.id, local_as: a1.id, ttl: 1, password: 'hunter2', description: 'transit' },
      { name: 'ST-IX', parent: base.id, bfd: bfd.id, enabled: false },
      { name: 'ST-CUSTOMER', tenant: tenant.id },
    ],
    update: ({ asns }) => ({ name: 'ST-TRANSIT-2', remote_as: asns[0].id, ttl: 255, parent: null }),
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'parent'],
    filters: ({ base, asns: [, a2], tenant }) => ({
      [`parent_id=${base.id}`]: [0, 1],
      [`remote_as_id=${a2.id}`]: [0],
      'enabled=false': [1],
      [`tenant=${tenant.slug}`]: [2],
      'q=transit': [0],
    }),
    invalid: [
      { body: { name: 'ST-TTL', ttl: 256 }, field: 'ttl' },
      { body: { description: 'no name' }, field: 'name' },
      { body: { name: 'ST-ORPHAN', parent: 2_147_483_000 }, field: 'parent' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/bgp-policy-templates/`,
    objectType: 'routing.bgppolicytemplate',
    graphqlName: 'routing_bgp_policy_template',
    fixtures: async ({ api }) => ({
      ...(await world(api)),
      bases: [
        await api.created(`${R}/bgp-policy-templates/`, { name: unique('PT-BASE') }),
        await api.created(`${R}/bgp-policy-templates/`, { name: unique('PT-BOGONS') }),
      ],
    }),
    create: ({ bases: [b1, b2], prefixLists: [pin, pout], routeMaps: [rin, rout], tenant }) => [
      { name: 'PT-TRANSIT', parents: [b1.id, b2.id], prefixlist_in: pin.id, routemap_out: rout.id, description: 'transit' },
      { name: 'PT-IX', parents: [b1.id], routemap_in: rin.id, enabled: false },
      { name: 'PT-CUSTOMER', prefixlist_out: pout.id, tenant: tenant.id },
    ],
    update: ({ bases: [, b2], prefixLists: [, pout] }) => ({
      name: 'PT-TRANSIT-2',
      parents: [b2.id],
      prefixlist_in: null,
      prefixlist_out: pout.id,
    }),
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ prefixLists: [pin], tenant }) => ({
      [`prefixlist_in_id=${pin.id}`]: [0],
      'enabled=false': [1],
      [`tenant_id=${tenant.id}`]: [2],
      'q=transit': [0],
    }),
    invalid: [
      { body: { description: 'no name' }, field: 'name' },
      { body: { name: 'PT-GHOST', parents: [2_147_483_000] }, field: 'parents' },
      { body: { name: 'PT-BADLIST', prefixlist_in: 2_147_483_000 }, field: 'prefixlist_in' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/as-paths/`,
    objectType: 'routing.aspath',
    graphqlName: 'routing_aspath',
    create: [{ name: 'AP-CUSTOMERS', description: 'customer cone' }, { name: 'AP-PRIVATE' }, { name: 'AP-LONG', comments: 'over 50 hops' }],
    update: { name: 'AP-CUSTOMERS-2', description: 'cone' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=AP-PRIVATE': [1], 'q=customer': [0], 'name__isw=AP-': [0, 1, 2] },
    invalid: [
      { body: { description: 'no name' }, field: 'name' },
      { body: { name: 'x'.repeat(101) }, field: 'name' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/as-path-entries/`,
    objectType: 'routing.aspathentry',
    graphqlName: 'routing_aspath_entry',
    fixtures: async ({ api }) => ({ path: await api.created(`${R}/as-paths/`, { name: unique('AP-ENTRIES') }) }),
    create: ({ path }) => [
      { aspath: path.id, sequence: 10, action: 'permit', pattern: '^64601_', description: 'direct' },
      { aspath: path.id, sequence: 20, action: 'deny', pattern: '_6450[0-9]_' },
      { aspath: path.id, sequence: 30, action: 'permit', pattern: '.*' },
    ],
    update: { action: 'deny', pattern: '^64601$' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'aspath', 'sequence', 'action', 'pattern'],
    filters: ({ path }) => ({ 'action=deny': [1], 'sequence__gte=20': [1, 2], [`aspath_id=${path.id}`]: [0, 1, 2], 'q=direct': [0] }),
    invalid: [
      { body: ({ path }) => ({ aspath: path.id, sequence: 40, action: 'allow', pattern: '.*' }), field: 'action' },
      { body: ({ path }) => ({ aspath: path.id, sequence: 40, action: 'permit' }), field: 'pattern' },
      { body: ({ path }) => ({ aspath: path.id, sequence: -1, action: 'permit', pattern: '.*' }), field: 'sequence' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/communities/`,
    objectType: 'routing.community',
    graphqlName: 'routing_community',
    fixtures: ({ api }) => world(api),
    create: ({ role, tenant }) => [
      { community: '64601:666', name: 'BLACKHOLE', role: role.id, description: 'rtbh' },
      { community: '64601:1:100', status: 'reserved', tenant: tenant.id },
      { community: '64601:200', status: 'deprecated' },
    ],
    update: { name: 'RTBH', status: 'deprecated' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'community', 'description'],
    filters: ({ role }) => ({ 'status=reserved': [1], [`role_id=${role.id}`]: [0], 'community=64601:200': [2], 'q=blackhole': [0] }),
    invalid: [
      { body: { community: 'no-export' }, field: 'community' },
      { body: { community: '64601:1:2:3' }, field: 'community' },
      { body: { community: '64601:300', status: 'retired' }, field: 'status' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/community-lists/`,
    objectType: 'routing.communitylist',
    graphqlName: 'routing_communitylist',
    fixtures: ({ api }) => world(api),
    create: ({ tenant }) => [
      { name: 'CL-CUSTOMERS', description: 'customer routes' },
      { name: 'CL-PEERS', tenant: tenant.id },
      { name: 'CL-RTBH' },
    ],
    update: { name: 'CL-CUSTOMERS-2', comments: 'tagged on ingress' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ tenant }) => ({ 'name=CL-RTBH': [2], [`tenant_id=${tenant.id}`]: [1], 'q=customer': [0] }),
    invalid: [
      { body: { description: 'no name' }, field: 'name' },
      { body: { name: '' }, field: 'name' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/community-list-entries/`,
    objectType: 'routing.communitylistentry',
    graphqlName: 'routing_communitylistentry',
    fixtures: async ({ api }) => ({
      list: await api.created(`${R}/community-lists/`, { name: unique('CL-ENTRIES') }),
      communities: [
        await api.created(`${R}/communities/`, { community: '64602:10' }),
        await api.created(`${R}/communities/`, { community: '64602:20' }),
      ],
    }),
    create: ({ list, communities: [c1, c2] }) => [
      { community_list: list.id, action: 'permit', community: c1.id, description: 'first' },
      { community_list: list.id, action: 'deny', community: c2.id },
      { community_list: list.id, action: 'permit', community: c2.id },
    ],
    update: ({ communities: [, c2] }) => ({ action: 'deny', community: c2.id }),
    bulkUpdate: { action: 'permit' },
    brief: ['id', 'url', 'display', 'community_list', 'action', 'community', 'description'],
    filters: ({ list, communities: [c1] }) => ({
      'action=deny': [1],
      [`community_id=${c1.id}`]: [0],
      [`community_list_id=${list.id}`]: [0, 1, 2],
    }),
    invalid: [
      { body: ({ list, communities }) => ({ community_list: list.id, action: 'maybe', community: communities[0].id }), field: 'action' },
      { body: ({ list }) => ({ community_list: list.id, action: 'permit' }), field: 'community' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/route-map-entries/`,
    objectType: 'routing.routemapentry',
    graphqlName: 'routing_route_map_entry',
    fixtures: async ({ api }) => ({
      ...(await world(api)),
      map: await api.created(`${R}/route-maps/`, { name: unique('RM-ENTRIES') }),
      list: await api.created(`${R}/community-lists/`, { name: unique('CL-MATCH') }),
      community: await api.created(`${R}/communities/`, { community: '64602:999' }),
      path: await api.created(`${R}/as-paths/`, { name: unique('AP-MATCH') }),
    }),
    create: ({ map, list, community, path, prefixLists: [pin] }) => [
      {
        route_map: map.id,
        sequence: 10,
        action: 'permit',
        match_prefix_list: [pin.id],
        match_community_list: [list.id],
        set: { local_preference: 200, community: ['64602:999'] },
        description: 'preferred',
      },
      { route_map: map.id, sequence: 20, action: 'deny', match_community: [community.id], match_aspath: [path.id] },
      { route_map: map.id, sequence: 30, action: 'permit', flow_control: 40, match: { metric: 10 } },
    ],
    update: ({ path }) => ({ action: 'deny', match_aspath: [path.id], set: null, flow_control: 30 }),
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'route_map', 'sequence', 'action'],
    filters: ({ map }) => ({ 'action=deny': [1], 'sequence__gte=20': [1, 2], [`route_map_id=${map.id}`]: [0, 1, 2], 'q=preferred': [0] }),
    invalid: [
      { body: ({ map }) => ({ route_map: map.id, sequence: 65536, action: 'permit' }), field: 'sequence' },
      {
        body: ({ map }) => ({ route_map: map.id, sequence: 50, action: 'permit', match_community: [2_147_483_000] }),
        field: 'match_community',
      },
      { body: { sequence: 50, action: 'permit' }, field: 'route_map' },
    ],
  });

  describeResourceApi({
    app,
    path: `${R}/custom-prefixes/`,
    objectType: 'routing.customprefix',
    graphqlName: 'routing_custom_prefix',
    create: [{ prefix: '203.0.113.0/24', description: 'documentation' }, { prefix: '2001:db8:100::/48' }, { prefix: '0.0.0.0/0' }],
    update: { prefix: '203.0.113.0/25', description: 'half' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'prefix'],
    filters: { 'prefix=0.0.0.0/0': [2], 'q=documentation': [0] },
    invalid: [
      { body: { prefix: '203.0.113.1/24' }, field: 'prefix' },
      { body: { prefix: 'not-a-prefix' }, field: 'prefix' },
    ],
  });
});
