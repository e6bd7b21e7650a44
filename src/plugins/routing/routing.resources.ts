import {
  AsnResource,
  boolean,
  choice,
  defineResource,
  DeviceResource,
  integer,
  IpAddressResource,
  parseIpNetwork,
  relation,
  ResourceValidationError,
  TenantResource,
  text,
  VrfResource,
} from '../../platform/plugin-api';

/**
 * The routing plugin's models (what netbox-routing provides and the peering plugin needs). As a
 * plugin, its GraphQL queries carry the plugin's name: `routing_bgp_peer`, `routing_prefix_list_list`.
 * Their tables were created by the platform's CoreModels migration, before routing became a plugin;
 * later changes to them are migrations of this plugin (see ./migrations).
 */
const apiPrefix = '/api/plugins/routing/';
const named = {
  name: text({ maxLength: 100, required: true, unique: true, search: true }),
  description: text({ maxLength: 200, search: true }),
};
const display = (row: Record<string, unknown>) => String(row.name);
/** Rows read per query by the peer summary. */
const PAGE = 1000;

export const BgpRouterResource = defineResource({
  appLabel: 'routing',
  model: 'bgprouter',
  path: 'bgp-routers',
  apiPrefix,
  verboseName: 'BGP router',
  graphqlName: 'routing_bgp_router',
  table: 'routing_bgprouter',
  fields: {
    device: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true }),
    asn: relation(() => AsnResource, { onDelete: 'PROTECT', required: true }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => `Router ${String(row.device_id)} AS ${String(row.asn_id)}`,
  brief: ['device', 'asn', 'description'],
  ordering: ['device', 'asn'],
  uniqueTogether: [['device', 'asn']],
  relatedObject: 'device',
});

export const BgpScopeResource = defineResource({
  appLabel: 'routing',
  model: 'bgpscope',
  path: 'bgp-scopes',
  apiPrefix,
  verboseName: 'BGP scope',
  graphqlName: 'routing_bgp_scope',
  table: 'routing_bgpscope',
  fields: {
    router: relation(() => BgpRouterResource, { onDelete: 'CASCADE', required: true }),
    vrf: relation(() => VrfResource, { onDelete: 'CASCADE' }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => `Scope ${row.id}`,
  brief: ['router', 'vrf'],
  ordering: ['router', 'vrf'],
  uniqueTogether: [['router', 'vrf']],
  relatedObject: 'router',
});

export const BgpPeerTemplateResource = defineResource({
  appLabel: 'routing',
  model: 'bgppeertemplate',
  path: 'bgp-peer-templates',
  apiPrefix,
  verboseName: 'BGP peer template',
  graphqlName: 'routing_bgp_peer_template',
  table: 'routing_bgppeertemplate',
  fields: {
    ...named,
    remote_as: relation(() => AsnResource, { onDelete: 'PROTECT' }),
    enabled: boolean({ default: true }),
  },
  display,
  brief: ['name', 'description'],
  ordering: ['name'],
});

export const BfdProfileResource = defineResource({
  appLabel: 'routing',
  model: 'bfdprofile',
  path: 'bfd-profiles',
  apiPrefix,
  verboseName: 'BFD profile',
  graphqlName: 'routing_bfd_profile',
  table: 'routing_bfdprofile',
  fields: {
    ...named,
    min_tx_int: integer({ min: 1, max: 60000, default: 300 }),
    min_rx_int: integer({ min: 1, max: 60000, default: 300 }),
    multiplier: integer({ min: 1, max: 255, default: 3 }),
    hold: integer({ min: 0, max: 65535, nullable: true }),
  },
  display,
  brief: ['name', 'description'],
  ordering: ['name'],
});

export const BGP_PEER_STATUS_CHOICES = [
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['offline', 'Offline'],
  ['decommissioned', 'Decommissioned'],
] as const;

export const BgpPeerResource = defineResource({
  appLabel: 'routing',
  model: 'bgppeer',
  path: 'bgp-peers',
  apiPrefix,
  verboseName: 'BGP peer',
  graphqlName: 'routing_bgp_peer',
  table: 'routing_bgppeer',
  fields: {
    name: text({ maxLength: 100, search: true }),
    description: text({ maxLength: 200, search: true }),
    scope: relation(() => BgpScopeResource, { onDelete: 'CASCADE', required: true }),
    peer: relation(() => IpAddressResource, { onDelete: 'PROTECT', required: true }),
    source: relation(() => IpAddressResource, { onDelete: 'SET NULL' }),
    peer_group: relation(() => BgpPeerTemplateResource, { onDelete: 'SET NULL' }),
    remote_as: relation(() => AsnResource, { onDelete: 'PROTECT' }),
    local_as: relation(() => AsnResource, { onDelete: 'PROTECT' }),
    enabled: boolean({ default: true }),
    status: choice(BGP_PEER_STATUS_CHOICES, { default: 'active' }),
    password: text({ maxLength: 255, secret: true }),
    ttl: integer({ min: 1, max: 255, nullable: true }),
    bfd_profile: relation(() => BfdProfileResource, { onDelete: 'SET NULL' }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
  },
  display: (row) => (row.name ? String(row.name) : `Peer ${row.id}`),
  brief: ['name', 'description'],
  ordering: ['scope', 'peer'],
  uniqueTogether: [['scope', 'peer']],
  relatedObject: 'scope',
  collectionActions: [
    {
      name: 'summary',
      method: 'GET',
      permission: 'view',
      openapi: {
        summary: 'Count the BGP peers the caller may view, by status; the list filters apply',
        response: {
          type: 'object',
          required: ['count', 'by_status'],
          properties: {
            count: { type: 'integer' },
            by_status: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Every status, with 0 for none' },
          },
        },
      },
      handle: async ({ query, visibleRows }) => {
        const byStatus: Record<string, number> = Object.fromEntries(BGP_PEER_STATUS_CHOICES.map(([value]) => [value, 0]));
        let count = 0;
        for (let offset = 0; ; offset += PAGE) {
          const rows = await visibleRows('routing.bgppeer', query, { limit: PAGE, offset });
          for (const row of rows) byStatus[String(row.status)] += 1;
          count += rows.length;
          if (rows.length < PAGE) break;
        }
        return { count, by_status: byStatus };
      },
    },
  ],
});

export const PrefixListResource = defineResource({
  appLabel: 'routing',
  model: 'prefixlist',
  path: 'prefix-lists',
  apiPrefix,
  verboseName: 'prefix list',
  graphqlName: 'routing_prefix_list',
  table: 'routing_prefixlist',
  fields: {
    ...named,
    family: choice(
      [
        ['ipv4', 'IPv4'],
        ['ipv6', 'IPv6'],
      ],
      { required: true },
    ),
  },
  display,
  brief: ['name', 'description'],
  ordering: ['name'],
  beforeUpdate: async ({ manager }, existing, changes) => {
    if (changes.family === undefined || changes.family === existing.family) return;
    const [{ entries }] = (await manager.query('SELECT COUNT(*)::int AS entries FROM routing_prefixlistentry WHERE prefix_list_id = $1', [
      existing.id,
    ])) as Array<{
      entries: number;
    }>;
    // Its entries' prefixes are of the old family.
    if (entries > 0)
      throw new ResourceValidationError({ family: [`The family of a prefix list with entries cannot change (${entries} entries).`] });
  },
});

export const PrefixListEntryResource = defineResource({
  appLabel: 'routing',
  model: 'prefixlistentry',
  path: 'prefix-list-entries',
  apiPrefix,
  verboseName: 'prefix list entry',
  graphqlName: 'routing_prefix_list_entry',
  table: 'routing_prefixlistentry',
  fields: {
    prefix_list: relation(() => PrefixListResource, { onDelete: 'CASCADE', required: true }),
    sequence: integer({ min: 1, max: 4_294_967_294, required: true, big: true }),
    action: choice(
      [
        ['permit', 'Permit'],
        ['deny', 'Deny'],
      ],
      { required: true },
    ),
    prefix: text({ columnType: 'cidr', required: true, parse: (raw) => parseIpNetwork(raw, { requireMask: true }) }),
    ge: integer({ min: 0, max: 128, nullable: true }),
    le: integer({ min: 0, max: 128, nullable: true }),
  },
  display: (row) => `${String(row.sequence)} ${String(row.action)} ${String(row.prefix)}`,
  brief: ['sequence', 'action', 'prefix'],
  ordering: ['prefix_list', 'sequence'],
  uniqueTogether: [['prefix_list', 'sequence']],
  relatedObject: 'prefix_list',
  validate: (values): Record<string, string[]> => {
    const prefix = String(values.prefix ?? '/0');
    const length = Number(prefix.split('/')[1]);
    const maxLength = prefix.includes(':') ? 128 : 32;
    const ge = values.ge as number | null | undefined;
    const le = values.le as number | null | undefined;
    // As in router configurations: length <= ge <= le <= the family's address width.
    const problems: Record<string, string[]> = {};
    if (ge != null && (ge < length || ge > maxLength)) problems.ge = [`ge must be between the prefix length (${length}) and ${maxLength}.`];
    if (le != null && (le < length || le > maxLength)) problems.le = [`le must be between the prefix length (${length}) and ${maxLength}.`];
    else if (ge != null && le != null && le < ge) problems.le = ['le must not be below ge.'];
    return problems;
  },
});

export const RouteMapResource = defineResource({
  appLabel: 'routing',
  model: 'routemap',
  path: 'route-maps',
  apiPrefix,
  verboseName: 'route map',
  graphqlName: 'routing_route_map',
  table: 'routing_routemap',
  fields: { ...named },
  display,
  brief: ['name', 'description'],
  ordering: ['name'],
});

export const BGP_AFI_CHOICES = [
  ['ipv4-unicast', 'IPv4 Unicast'],
  ['ipv6-unicast', 'IPv6 Unicast'],
  ['ipv4-multicast', 'IPv4 Multicast'],
  ['ipv6-multicast', 'IPv6 Multicast'],
  ['vpnv4-unicast', 'VPNv4 Unicast'],
  ['vpnv6-unicast', 'VPNv6 Unicast'],
  ['l2vpn-evpn', 'L2VPN EVPN'],
] as const;

export const BgpPeerAddressFamilyResource = defineResource({
  appLabel: 'routing',
  model: 'bgppeeraddressfamily',
  path: 'bgp-peer-address-families',
  apiPrefix,
  verboseName: 'BGP peer address family',
  graphqlName: 'routing_bgp_peer_address_family',
  table: 'routing_bgppeeraddressfamily',
  fields: {
    assigned_peer: relation(() => BgpPeerResource, { onDelete: 'CASCADE', required: true }),
    afi: choice(BGP_AFI_CHOICES, { required: true }),
    enabled: boolean({ default: true }),
    prefixlist_in: relation(() => PrefixListResource, { onDelete: 'SET NULL' }),
    prefixlist_out: relation(() => PrefixListResource, { onDelete: 'SET NULL' }),
    routemap_in: relation(() => RouteMapResource, { onDelete: 'SET NULL' }),
    routemap_out: relation(() => RouteMapResource, { onDelete: 'SET NULL' }),
  },
  display: (row) => String(row.afi),
  brief: ['assigned_peer', 'afi'],
  ordering: ['assigned_peer', 'afi'],
  uniqueTogether: [['assigned_peer', 'afi']],
  relatedObject: 'assigned_peer',
});
