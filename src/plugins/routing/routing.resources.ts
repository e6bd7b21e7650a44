import { isIP } from 'node:net';
import type { EntityManager } from 'typeorm';
import {
  AsnResource,
  boolean,
  choice,
  defineResource,
  DeviceResource,
  genericRelation,
  integer,
  IpAddressResource,
  json,
  longText,
  many,
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
    peer_session: relation(() => BgpSessionTemplateResource, { onDelete: 'PROTECT' }),
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
    peer_policy: relation(() => BgpPolicyTemplateResource, { onDelete: 'PROTECT' }),
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

/** Permit or deny, as the entries of prefix lists, route maps, AS paths and community lists say. */
const ACTION_CHOICES = [
  ['permit', 'Permit'],
  ['deny', 'Deny'],
] as const;
const comments = longText({ search: true });
/** The id a many-to-many write names: `5`, `"5"` or `{"id": 5}`. */
const idOf = (item: unknown): number => Number(item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : item);

/**
 * The ids reachable from `start` by following `edges` (a query answering `{id}` rows: the next
 * templates of the ids in `$1`), `start` excluded; one query per level.
 */
async function reachable(manager: EntityManager, start: readonly number[], edges: string): Promise<Set<number>> {
  // Writers of one inheritance graph take turns until they commit: two concurrent writes that each
  // close half of a loop would otherwise both pass, each checking the graph without the other's edge.
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [edges]);
  const seen = new Set<number>();
  let frontier = [...new Set(start)];
  while (frontier.length > 0) {
    const rows = (await manager.query(edges, [frontier])) as Array<{ id: number }>;
    frontier = rows.map(({ id }) => id).filter((id) => !seen.has(id));
    for (const id of frontier) seen.add(id);
  }
  return seen;
}

/** Router-level settings (netbox-routing's BGPSettingChoices) and how each value is written. */
export const BGP_SETTING_CHOICES = [
  ['router_id', 'Router ID'],
  ['auto_summary', 'Auto summary'],
  ['additional_paths_install', 'Additional Paths (install)'],
  ['additional_paths_receive', 'Additional Paths (receive)'],
  ['additional_paths_send', 'Additional Paths (send)'],
  ['asdot', 'AS Dot Notation'],
  ['graceful_restart', 'Graceful Restart'],
  ['default_information_originate', 'Default Originate'],
  ['default_metric', 'Default Metric'],
  ['distance_ebgp', 'eBGP Distance'],
  ['distance_ibgp', 'iBGP Distance'],
  ['distance_embgp', 'MP eBGP Distance'],
  ['distance_imbgp', 'MP iBGP Distance'],
  ['paths_maximum', 'Maximum Paths'],
  ['paths_maximum_secondary', 'Maximum Paths (secondary)'],
  ['timers_keepalive', 'Keep Alive'],
  ['timers_hold', 'Hold Time'],
] as const;
const BGP_SETTING_VALUE_KIND: Record<string, 'ipaddr' | 'boolean' | 'integer'> = {
  router_id: 'ipaddr',
  auto_summary: 'boolean',
  asdot: 'boolean',
  graceful_restart: 'boolean',
  default_information_originate: 'boolean',
};
/** What a BGP setting may be attached to. */
export const BGP_SETTING_OBJECT_TYPES = [
  'routing.bgprouter',
  'routing.bgpscope',
  'routing.bgpaddressfamily',
  'routing.bgppeer',
  'routing.bgppeeraddressfamily',
] as const;

export const BgpSettingResource = defineResource({
  appLabel: 'routing',
  model: 'bgpsetting',
  path: 'bgp-settings',
  apiPrefix,
  verboseName: 'BGP setting',
  graphqlName: 'routing_bgp_setting',
  table: 'routing_bgpsetting',
  fields: {
    assigned_object: genericRelation({ required: true, onDelete: 'CASCADE', allowedTypes: BGP_SETTING_OBJECT_TYPES }),
    key: choice(BGP_SETTING_CHOICES, { required: true }),
    value: text({ maxLength: 255, required: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    comments,
  },
  display: (row) => `${String(row.key)}: ${String(row.value)}`,
  brief: ['assigned_object', 'key', 'value'],
  ordering: ['key'],
  uniqueTogether: [['assigned_object_type_id', 'assigned_object_id', 'key']],
  relatedObject: 'assigned_object',
  validate: (values): Record<string, string[]> => {
    const value = String(values.value ?? '');
    // As netbox-routing types each key: an address (router_id), a boolean, or else an integer.
    switch (BGP_SETTING_VALUE_KIND[String(values.key)] ?? 'integer') {
      case 'ipaddr':
        return isIP(value) ? {} : { value: [`${String(values.key)} must be an IP address.`] };
      case 'boolean':
        return /^(true|false)$/.test(value) ? {} : { value: [`${String(values.key)} must be true or false.`] };
      default:
        return /^\d{1,10}$/.test(value) && Number(value) <= 4_294_967_295
          ? {}
          : { value: [`${String(values.key)} must be a whole number from 0 to 4294967295.`] };
    }
  },
});

/** netbox-routing's BGPAddressFamilyChoices. */
export const BGP_ADDRESS_FAMILY_CHOICES = [
  ['ipv4-unicast', 'IPv4 Unicast'],
  ['ipv6-unicast', 'IPv6 Unicast'],
  ['vpnv4-unicast', 'VPNv4 Unicast'],
  ['vpnv6-unicast', 'VPNv6 Unicast'],
  ['ipv4-multicast', 'IPv4 Multicast'],
  ['ipv6-multicast', 'IPv6 Multicast'],
  ['vpnv4-multicast', 'VPNv4 Multicast'],
  ['vpnv6-multicast', 'VPNv6 Multicast'],
  ['ipv4-flowspec', 'IPv4 Flowspec'],
  ['ipv6-flowspec', 'IPv6 Flowspec'],
  ['vpnv4-flowspec', 'VPNv4 Flowspec'],
  ['vpnv6-flowspec', 'VPNv6 Flowspec'],
  ['nsap', 'NSAP'],
  ['l2vpn-vpls', 'L2VPN VPLS'],
  ['l2vpn-evpn', 'L2VPN EVPN'],
  ['link-state', 'LINK-STATE'],
  ['rtfilter-unicast', 'RTFILTER'],
] as const;

export const BgpAddressFamilyResource = defineResource({
  appLabel: 'routing',
  model: 'bgpaddressfamily',
  path: 'bgp-address-families',
  apiPrefix,
  verboseName: 'BGP address family',
  graphqlName: 'routing_bgp_address_family',
  table: 'routing_bgpaddressfamily',
  fields: {
    scope: relation(() => BgpScopeResource, { onDelete: 'CASCADE', required: true }),
    address_family: choice(BGP_ADDRESS_FAMILY_CHOICES, { required: true }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    description: text({ maxLength: 200, search: true }),
    comments,
  },
  display: (row) => `Scope ${String(row.scope_id)} (${String(row.address_family)})`,
  brief: ['scope', 'address_family'],
  ordering: ['scope', 'address_family'],
  uniqueTogether: [['scope', 'address_family']],
  relatedObject: 'scope',
});

export const BgpSessionTemplateResource = defineResource({
  appLabel: 'routing',
  model: 'bgpsessiontemplate',
  path: 'bgp-session-templates',
  apiPrefix,
  verboseName: 'BGP session template',
  graphqlName: 'routing_bgp_session_template',
  table: 'routing_bgpsessiontemplate',
  fields: {
    ...named,
    parent: relation(() => BgpSessionTemplateResource, { onDelete: 'PROTECT' }),
    enabled: boolean({ default: true }),
    local_as: relation(() => AsnResource, { onDelete: 'PROTECT' }),
    remote_as: relation(() => AsnResource, { onDelete: 'PROTECT' }),
    ttl: integer({ min: 0, max: 255, nullable: true }),
    bfd: relation(() => BfdProfileResource, { onDelete: 'PROTECT' }),
    password: text({ maxLength: 255, secret: true }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    comments,
  },
  display,
  brief: ['name', 'parent'],
  ordering: ['name'],
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    const parent = values.parent_id as number | null | undefined;
    const self = values.id as number | undefined;
    if (parent == null || self === undefined) return {};
    if (parent === self) return { parent: ['A session template cannot be its own parent.'] };
    const ancestors = await reachable(
      manager,
      [parent],
      'SELECT parent_id AS id FROM routing_bgpsessiontemplate WHERE id = ANY($1) AND parent_id IS NOT NULL',
    );
    return ancestors.has(self) ? { parent: ['A session template cannot inherit from one of its own descendants.'] } : {};
  },
});

export const BgpPolicyTemplateResource = defineResource({
  appLabel: 'routing',
  model: 'bgppolicytemplate',
  path: 'bgp-policy-templates',
  apiPrefix,
  verboseName: 'BGP policy template',
  graphqlName: 'routing_bgp_policy_template',
  table: 'routing_bgppolicytemplate',
  fields: {
    ...named,
    parents: many(() => BgpPolicyTemplateResource),
    enabled: boolean({ default: true }),
    prefixlist_in: relation(() => PrefixListResource, { onDelete: 'SET NULL' }),
    prefixlist_out: relation(() => PrefixListResource, { onDelete: 'SET NULL' }),
    routemap_in: relation(() => RouteMapResource, { onDelete: 'SET NULL' }),
    routemap_out: relation(() => RouteMapResource, { onDelete: 'SET NULL' }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    comments,
  },
  display,
  brief: ['name', 'description'],
  ordering: ['name'],
  validateAsync: async (manager, values, body): Promise<Record<string, string[]>> => {
    const self = values.id as number | undefined;
    if (self === undefined || !Array.isArray(body.parents)) return {};
    const parents = body.parents.map(idOf);
    if (parents.includes(self)) return { parents: ['A policy template cannot be its own parent.'] };
    const ancestors = await reachable(
      manager,
      parents,
      'SELECT to_bgppolicytemplate_id AS id FROM routing_bgppolicytemplate_parents WHERE bgppolicytemplate_id = ANY($1)',
    );
    return ancestors.has(self) ? { parents: ['A policy template cannot inherit from one of its own descendants.'] } : {};
  },
});

export const AsPathResource = defineResource({
  appLabel: 'routing',
  model: 'aspath',
  path: 'as-paths',
  apiPrefix,
  verboseName: 'AS path',
  graphqlName: 'routing_aspath',
  table: 'routing_aspath',
  fields: { ...named, comments },
  display,
  brief: ['name', 'description'],
  ordering: ['name'],
});

export const AsPathEntryResource = defineResource({
  appLabel: 'routing',
  model: 'aspathentry',
  path: 'as-path-entries',
  apiPrefix,
  verboseName: 'AS path entry',
  graphqlName: 'routing_aspath_entry',
  table: 'routing_aspathentry',
  fields: {
    aspath: relation(() => AsPathResource, { onDelete: 'CASCADE', required: true }),
    sequence: integer({ min: 0, max: 65535, required: true }),
    action: choice(ACTION_CHOICES, { required: true }),
    pattern: text({ maxLength: 200, required: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    comments,
  },
  display: (row) => `${String(row.sequence)} ${String(row.action)} ${String(row.pattern)}`,
  brief: ['aspath', 'sequence', 'action', 'pattern'],
  ordering: ['aspath', 'sequence'],
  uniqueTogether: [['aspath', 'sequence']],
  relatedObject: 'aspath',
});

export const CommunityListResource = defineResource({
  appLabel: 'routing',
  model: 'communitylist',
  path: 'community-lists',
  apiPrefix,
  verboseName: 'community list',
  graphqlName: 'routing_communitylist',
  table: 'routing_communitylist',
  fields: { ...named, tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }), comments },
  display,
  brief: ['name', 'description'],
  ordering: ['name'],
});

/** A standard (`65000:100`), extended or large (`65000:1:2`) community, as netbox-routing checks it. */
const COMMUNITY = /^[\d.]+(?::[\d.]+(?::[\d.]+)?)?$/;

export const CommunityResource = defineResource({
  appLabel: 'routing',
  model: 'community',
  path: 'communities',
  apiPrefix,
  verboseName: 'community',
  graphqlName: 'routing_community',
  table: 'routing_community',
  fields: {
    name: text({ maxLength: 100, search: true }),
    community: text({
      maxLength: 255,
      required: true,
      unique: true,
      search: true,
      pattern: { regex: COMMUNITY, message: 'Enter a community as numbers separated by colons (65000:100, 65000:1:2).' },
    }),
    status: choice(
      [
        ['active', 'Active', 'blue'],
        ['reserved', 'Reserved', 'cyan'],
        ['deprecated', 'Deprecated', 'red'],
      ],
      { default: 'active' },
    ),
    role: relation('ipam.role', { onDelete: 'SET NULL' }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    description: text({ maxLength: 200, search: true }),
    comments,
  },
  display: (row) => (row.name ? `${String(row.name)} (${String(row.community)})` : String(row.community)),
  brief: ['name', 'community', 'description'],
  ordering: ['community'],
});

export const CommunityListEntryResource = defineResource({
  appLabel: 'routing',
  model: 'communitylistentry',
  path: 'community-list-entries',
  apiPrefix,
  verboseName: 'community list entry',
  graphqlName: 'routing_communitylistentry',
  table: 'routing_communitylistentry',
  fields: {
    community_list: relation(() => CommunityListResource, { onDelete: 'CASCADE', required: true }),
    action: choice(ACTION_CHOICES, { required: true }),
    community: relation(() => CommunityResource, { onDelete: 'CASCADE', required: true }),
    description: text({ maxLength: 200, search: true }),
    comments,
  },
  display: (row) => `${String(row.action)} community ${String(row.community_id)}`,
  brief: ['community_list', 'action', 'community', 'description'],
  ordering: ['community_list', 'community'],
  relatedObject: 'community_list',
});

export const RouteMapEntryResource = defineResource({
  appLabel: 'routing',
  model: 'routemapentry',
  path: 'route-map-entries',
  apiPrefix,
  verboseName: 'route map entry',
  graphqlName: 'routing_route_map_entry',
  table: 'routing_routemapentry',
  fields: {
    route_map: relation(() => RouteMapResource, { onDelete: 'CASCADE', required: true }),
    sequence: integer({ min: 0, max: 65535, required: true }),
    action: choice(ACTION_CHOICES, { required: true }),
    flow_control: integer({ min: 0, max: 65535, nullable: true }),
    match_prefix_list: many(() => PrefixListResource),
    match_community_list: many(() => CommunityListResource),
    match_community: many(() => CommunityResource),
    match_aspath: many(() => AsPathResource),
    match: json({ nullable: true, noFilter: true }),
    set: json({ nullable: true, noFilter: true }),
    description: text({ maxLength: 200, search: true }),
    comments,
  },
  display: (row) => `${String(row.sequence)} ${String(row.action)}`,
  brief: ['route_map', 'sequence', 'action'],
  ordering: ['route_map', 'sequence'],
  uniqueTogether: [['route_map', 'sequence']],
  relatedObject: 'route_map',
});

export const CustomPrefixResource = defineResource({
  appLabel: 'routing',
  model: 'customprefix',
  path: 'custom-prefixes',
  apiPrefix,
  verboseName: 'custom prefix',
  graphqlName: 'routing_custom_prefix',
  table: 'routing_customprefix',
  fields: {
    prefix: text({
      columnType: 'cidr',
      required: true,
      unique: true,
      search: true,
      parse: (raw) => parseIpNetwork(raw, { requireMask: true }),
    }),
    description: text({ maxLength: 200, search: true }),
    comments,
  },
  display: (row) => String(row.prefix),
  brief: ['prefix'],
  ordering: ['prefix'],
});
