import {
  AsnResource,
  boolean,
  choice,
  color,
  computedProperties,
  countsOf,
  datetime,
  defineResource,
  type ExtraFilter,
  idFilterProblem,
  integer,
  InterfaceResource,
  longText,
  PrefixResource,
  relation,
  SiteResource,
  slug,
  TenantResource,
  text,
  treeFilter,
  VlanResource,
} from '../../platform/plugin-api';
import { BgpPeerResource, BgpPeerTemplateResource, PrefixListResource } from '../routing/routing.resources';
import { fabricPeeringDbRecords } from './peeringdb-cache';

/**
 * The peering plugin's models (as the peering manager built on netbox-routing): relationships, peer
 * ASNs, peering sessions on the routing plugin's BGP peers, fabrics (IXPs) with their networks and
 * connections, IRR sources and the prefix lists they generate.
 */
export const PEERING_API_PREFIX = '/api/plugins/peering/';
const apiPrefix = PEERING_API_PREFIX;
const display = (row: Record<string, unknown>) => String(row.name);

export const PEERING_STATUS_CHOICES = [
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['decommissioned', 'Decommissioned'],
] as const;

/** `param=value…` matching a column exactly, for a filter named otherwise than its field (`peerdb_id`, irr-source `url`). */
function columnFilter(column: string, kind: 'integer' | 'text'): ExtraFilter {
  return (values, alias, prefix) => {
    const problem = kind === 'integer' ? idFilterProblem(values) : undefined;
    if (problem) return { problem };
    return { where: `${alias}."${column}" IN (:...${prefix})`, params: { [prefix]: kind === 'integer' ? values.map(Number) : values } };
  };
}

/** Case-insensitive substring match, any of the values (NetBox's `icontains` as the filter's only lookup). */
function substringFilter(column: string): ExtraFilter {
  return (values, alias, prefix) => {
    const params: Record<string, unknown> = {};
    const terms = values.map((value, index) => {
      params[`${prefix}_${index}`] = `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return `${alias}."${column}" ILIKE :${prefix}_${index} ESCAPE '\\'`;
    });
    return { where: `(${terms.join(' OR ')})`, params };
  };
}

/** A fabric's tenant's group (and its descendants), by id or slug. */
function tenantGroupFilter(key: 'id' | 'slug'): ExtraFilter {
  const inner = treeFilter('group_id', 'tenancy_tenantgroup', key);
  return (values, alias, prefix) => {
    const result = inner(values, 't', prefix);
    if ('problem' in result) return result;
    return { where: `${alias}."tenant_id" IN (SELECT t.id FROM tenancy_tenant t WHERE ${result.where})`, params: result.params };
  };
}

export const IrrSourceResource = defineResource({
  appLabel: 'peering',
  model: 'irrsource',
  path: 'irr-source',
  apiPrefix,
  verboseName: 'IRR source',
  graphqlName: 'platform_peering_irr_source',
  table: 'peering_irrsource',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug(),
    // The generator's base URL: `url` is every object's own link, so the API names it api_endpoint.
    api_endpoint: text({
      maxLength: 200,
      required: true,
      column: 'url',
      search: true,
      label: 'API endpoint',
      pattern: { regex: /^https?:\/\/\S+$/, message: 'Enter a valid URL.' },
    }),
    sources: text({ maxLength: 100 }),
    cache_ttl: integer({ min: 0, max: 2_147_483_647, nullable: true }),
    sync_interval: integer({ min: 1, max: 525_600, default: 1440 }),
    enabled: boolean({ default: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText(),
  },
  display,
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
  extraFilters: { url: columnFilter('url', 'text') },
  extensions: [countsOf({ prefix_list_count: { table: 'peering_irrprefixlistconfig', column: 'irr_source_id' } })],
  // A literal address is judged now; a host name when a synchronisation connects. Values are by column.
  validate: (values, { egress }): Record<string, string[]> => {
    const problem = typeof values.url === 'string' ? egress.urlProblem(values.url) : undefined;
    return problem === undefined ? {} : { api_endpoint: [`The server may not send requests there: ${problem}.`] };
  },
});

export const RelationshipResource = defineResource({
  appLabel: 'peering',
  model: 'relationship',
  path: 'relationship',
  apiPrefix,
  verboseName: 'relationship',
  graphqlName: 'platform_peering_relationship',
  table: 'peering_relationship',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug({ search: true }),
    description: text({ maxLength: 200, search: true }),
    color: color({ default: '9e9e9e' }),
    comments: longText(),
  },
  display,
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
});

export const PeerAsnResource = defineResource({
  appLabel: 'peering',
  model: 'peerasn',
  path: 'peer-asn',
  apiPrefix,
  verboseName: 'peer ASN',
  graphqlName: 'platform_peering_peer_asn',
  table: 'peering_peerasn',
  fields: {
    asn: relation(() => AsnResource, { onDelete: 'CASCADE', required: true, unique: true, label: 'ASN' }),
    affiliated: boolean({ default: false }),
    irr_as_set: text({ maxLength: 100, search: true, label: 'IRR AS-SET' }),
    ipv4_max_prefixes: integer({ min: 0, max: 2_147_483_647, nullable: true }),
    ipv6_max_prefixes: integer({ min: 0, max: 2_147_483_647, nullable: true }),
    peeringdb_id: integer({ min: 1, max: 2_147_483_647, nullable: true, unique: true, label: 'PeeringDB ID', noFilter: true }),
    peeringdb_last_sync: datetime({ nullable: true, readOnly: true }),
    comments: longText(),
  },
  display: (row) => `Peer ASN ${String(row.asn_id)}`,
  brief: ['asn', 'affiliated'],
  ordering: ['asn'],
  relatedObject: 'asn',
  searchRelated: [
    { relation: 'asn', column: 'asn' },
    { relation: 'asn', column: 'description' },
  ],
  extraFilters: { peerdb_id: columnFilter('peeringdb_id', 'integer') },
  // As upstream: the peer's name is the ASN's description, else "AS<n>".
  extensions: [
    computedProperties({ name: { type: 'string' } }, async (manager, rows) => {
      const found = (await manager.query(
        'SELECT p.id, a.asn, a.description FROM peering_peerasn p JOIN ipam_asn a ON a.id = p.asn_id WHERE p.id = ANY($1)',
        [rows.map((row) => row.id)],
      )) as Array<{ id: number; asn: string; description: string | null }>;
      return new Map(found.map(({ id, asn, description }) => [id, { name: description || `AS${asn}` }]));
    }),
  ],
});

export const PeeringFabricTypeResource = defineResource({
  appLabel: 'peering',
  model: 'peeringfabrictype',
  path: 'peering-fabric-type',
  apiPrefix,
  verboseName: 'peering fabric type',
  graphqlName: 'platform_peering_peering_fabric_type',
  table: 'peering_peeringfabrictype',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug({ search: true }),
    description: text({ maxLength: 200, search: true }),
    color: color({ default: '9e9e9e' }),
  },
  display,
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
});

export const PeeringFabricResource = defineResource({
  appLabel: 'peering',
  model: 'peeringfabric',
  path: 'peering-fabric',
  apiPrefix,
  verboseName: 'peering fabric',
  graphqlName: 'platform_peering_peering_fabric',
  table: 'peering_peeringfabric',
  fields: {
    name: text({ maxLength: 100, required: true, search: true }),
    slug: slug({ unique: false, search: true }),
    description: text({ maxLength: 200, search: true }),
    type: relation(() => PeeringFabricTypeResource, { onDelete: 'SET NULL' }),
    status: choice(PEERING_STATUS_CHOICES, { default: 'active' }),
    site: relation(() => SiteResource, { onDelete: 'SET NULL' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    peer_group: relation(() => BgpPeerTemplateResource, { onDelete: 'SET NULL' }),
    comments: longText(),
  },
  display,
  brief: ['name', 'slug', 'status', 'description'],
  ordering: ['name'],
  // A name is unique within a site, and among the fabrics without one.
  uniqueTogether: [
    { fields: ['site', 'name'], nullsEqual: true },
    { fields: ['site', 'slug'], nullsEqual: true },
  ],
  extraFilters: { tenant_group_id: tenantGroupFilter('id'), tenant_group: tenantGroupFilter('slug') },
  // Read-only: written only by the PeeringDB synchronisation, never through the API.
  extensions: [
    computedProperties(
      { peerdb: { type: 'object', nullable: true, description: 'The PeeringDB record of the fabric (IX), if linked' } },
      (manager, rows) =>
        fabricPeeringDbRecords(
          manager,
          rows.map((row) => row.id),
        ),
    ),
  ],
});

export const PeeringNetworkResource = defineResource({
  appLabel: 'peering',
  model: 'peeringnetwork',
  path: 'peering-network',
  apiPrefix,
  verboseName: 'peering network',
  graphqlName: 'platform_peering_peering_network',
  table: 'peering_peeringnetwork',
  fields: {
    fabric: relation(() => PeeringFabricResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    name: text({ maxLength: 100, required: true, search: true }),
    prefix: relation(() => PrefixResource, { onDelete: 'PROTECT', required: true }),
    vlan: relation(() => VlanResource, { onDelete: 'SET NULL', label: 'VLAN' }),
    status: choice(PEERING_STATUS_CHOICES, { default: 'active' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText(),
  },
  display,
  brief: ['fabric', 'name', 'status'],
  ordering: ['fabric', 'name'],
  uniqueTogether: [['fabric', 'name']],
  relatedObject: 'fabric',
  searchRelated: [{ relation: 'fabric', column: 'name' }],
});

export const PeeringConnectionResource = defineResource({
  appLabel: 'peering',
  model: 'peeringconnection',
  path: 'peering-connection',
  apiPrefix,
  verboseName: 'peering connection',
  graphqlName: 'platform_peering_peering_connection',
  table: 'peering_peeringconnection',
  fields: {
    peering_network: relation(() => PeeringNetworkResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    interface: relation(() => InterfaceResource, { onDelete: 'PROTECT', required: true, filterById: true }),
    status: choice(PEERING_STATUS_CHOICES, { default: 'active' }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => `Connection ${String(row.peering_network_id)}/${String(row.interface_id)}`,
  brief: ['peering_network', 'interface', 'status'],
  ordering: ['peering_network', 'interface'],
  uniqueTogether: [['peering_network', 'interface']],
  relatedObject: 'peering_network',
  searchRelated: [
    { relation: 'peering_network', column: 'name' },
    { relation: 'interface', column: 'name' },
  ],
  extraFilters: {
    device_id: (values, alias, prefix) => {
      const problem = idFilterProblem(values);
      if (problem) return { problem };
      return {
        where: `${alias}."interface_id" IN (SELECT i.id FROM dcim_interface i WHERE i.device_id IN (:...${prefix}))`,
        params: { [prefix]: values.map(Number) },
      };
    },
  },
  // The interface's device, and its addresses inside the network's prefix.
  extensions: [
    computedProperties(
      {
        device: { type: 'object', nullable: true, description: 'The device of the interface' },
        ip_addresses: { type: 'array', items: { type: 'object' }, description: "The interface's addresses within the network's prefix" },
      },
      async (manager, rows) => {
        const ids = rows.map((row) => row.id);
        const devices = (await manager.query(
          `SELECT c.id, d.id AS device_id, d.name FROM peering_peeringconnection c JOIN dcim_interface i ON i.id = c.interface_id JOIN dcim_device d ON d.id = i.device_id WHERE c.id = ANY($1)`,
          [ids],
        )) as Array<{ id: number; device_id: number; name: string | null }>;
        const addresses = (await manager.query(
          `SELECT c.id, a.id AS address_id, host(a.address) || '/' || masklen(a.address) AS address
           FROM peering_peeringconnection c
           JOIN peering_peeringnetwork n ON n.id = c.peering_network_id
           JOIN ipam_prefix p ON p.id = n.prefix_id
           JOIN ipam_ipaddress a ON a.assigned_object_type_id = (SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = 'interface') AND a.assigned_object_id = c.interface_id AND a.address <<= p.prefix
          WHERE c.id = ANY($1) ORDER BY a.address`,
          [ids],
        )) as Array<{ id: number; address_id: number; address: string }>;
        const result = new Map<number, Record<string, unknown>>(ids.map((id) => [id, { device: null, ip_addresses: [] }]));
        for (const { id, device_id, name } of devices) result.get(id)!.device = { id: device_id, name };
        for (const { id, address_id, address } of addresses) (result.get(id)!.ip_addresses as unknown[]).push({ id: address_id, address });
        return result;
      },
    ),
  ],
});

export const IrrPrefixListConfigResource = defineResource({
  appLabel: 'peering',
  model: 'irrprefixlistconfig',
  path: 'irr-prefix-list-config',
  apiPrefix,
  verboseName: 'IRR prefix list config',
  graphqlName: 'platform_peering_irr_prefix_list_config',
  table: 'peering_irrprefixlistconfig',
  fields: {
    prefix_list: relation(() => PrefixListResource, { onDelete: 'CASCADE', required: true, unique: true }),
    irr_source: relation(() => IrrSourceResource, { onDelete: 'SET NULL', label: 'IRR source' }),
    source_as_set: text({ maxLength: 100, search: true, noFilter: true, label: 'source AS-SET' }),
    sync_interval: integer({ min: 1, max: 525_600, default: 1440 }),
    last_synced: datetime({ nullable: true, readOnly: true }),
  },
  display: (row) => `IRR config ${String(row.prefix_list_id)}`,
  brief: ['prefix_list', 'irr_source', 'source_as_set'],
  ordering: ['prefix_list'],
  relatedObject: 'prefix_list',
  searchRelated: [
    { relation: 'prefix_list', column: 'name' },
    { relation: 'irr_source', column: 'name' },
  ],
  extraFilters: { source_as_set: substringFilter('source_as_set') },
  // The generator needs both: a source without an AS-SET (or the reverse) could never sync. Values are by column.
  validate: (values): Record<string, string[]> => {
    const hasSource = values.irr_source_id !== null && values.irr_source_id !== undefined;
    const hasAsSet = typeof values.source_as_set === 'string' && values.source_as_set !== '';
    if (hasSource === hasAsSet) return {};
    return hasSource ? { source_as_set: ['An IRR source needs an AS-SET.'] } : { irr_source: ['An AS-SET needs an IRR source.'] };
  },
});

export const PeeringSessionResource = defineResource({
  appLabel: 'peering',
  model: 'peeringsession',
  path: 'peering-session',
  apiPrefix,
  verboseName: 'peering session',
  graphqlName: 'platform_peering_peering_session',
  table: 'peering_peeringsession',
  fields: {
    // One session per BGP peer; the peer cannot be deleted while it has one.
    bgp_peer: relation(() => BgpPeerResource, { onDelete: 'PROTECT', required: true, unique: true, label: 'BGP peer' }),
    relationship: relation(() => RelationshipResource, { onDelete: 'SET NULL' }),
    peering_network: relation(() => PeeringNetworkResource, { onDelete: 'SET NULL' }),
    service_reference: text({ maxLength: 100, search: true }),
  },
  display: (row) => `Session ${String(row.bgp_peer_id)}`,
  brief: ['bgp_peer', 'relationship', 'service_reference'],
  ordering: ['bgp_peer'],
  relatedObject: 'bgp_peer',
  searchRelated: [
    { relation: 'bgp_peer', column: 'name' },
    { relation: 'relationship', column: 'name' },
    { relation: 'peering_network', column: 'name' },
  ],
});

export const PEERING_RESOURCES = [
  RelationshipResource,
  PeerAsnResource,
  PeeringSessionResource,
  PeeringFabricTypeResource,
  PeeringFabricResource,
  PeeringNetworkResource,
  PeeringConnectionResource,
  IrrSourceResource,
  IrrPrefixListConfigResource,
];
