import { EntityManager } from 'typeorm';
import { computedProperties } from '../framework/resource/computed-properties';
import { idFilterProblem, throughFilter } from '../framework/resource/extra-filters';
import { boolean, choice, date, genericRelation, integer, json, longText, many, relation, text } from '../framework/resource/fields';
import { defineOrganizationalResource } from '../framework/resource/organizational';
import { defineResource, ExtraFilter, ResourceExtension } from '../framework/resource/resource-definition';
import { TenantResource } from '../tenancy/tenancy.resources';
import { isIpProblem, parseIpAddress, parseIpInterface, parseIpNetwork } from './ip-network';

const IPAM_STATUS_CHOICES = [
  ['active', 'Active'],
  ['reserved', 'Reserved'],
  ['deprecated', 'Deprecated'],
] as const;

const PREFIX_STATUS_CHOICES = [['container', 'Container'], ...IPAM_STATUS_CHOICES] as const;

const IP_ROLE_CHOICES = [
  ['loopback', 'Loopback'],
  ['secondary', 'Secondary'],
  ['anycast', 'Anycast'],
  ['vip', 'VIP'],
  ['vrrp', 'VRRP'],
  ['hsrp', 'HSRP'],
  ['glbp', 'GLBP'],
  ['carp', 'CARP'],
] as const;

/**
 * A network filter: every value must parse (else 400), a row matches any value. `operator` is
 * PostgreSQL's containment (`<<` strictly within, `<<=` within or equal, `>>=` contains or equal).
 */
function networkFilter(
  column: string,
  operator: '<<' | '<<=' | '>>=',
  parse: (raw: unknown) => ReturnType<typeof parseIpNetwork>,
  hostOnly = false,
): ExtraFilter {
  return (values, alias, prefix) => {
    const params: Record<string, unknown> = {};
    const terms: string[] = [];
    for (const [index, raw] of values.entries()) {
      const parsed = parse(raw);
      if (isIpProblem(parsed)) return { problem: parsed.problem };
      params[`${prefix}_${index}`] = parsed.value;
      // An address is inside a prefix by its host part, whatever its own mask (10.0.0.7/16 is in 10.0.0.0/24).
      const subject = hostOnly ? `host(${alias}."${column}")::inet` : `${alias}."${column}"`;
      terms.push(`${subject} ${operator} CAST(:${prefix}_${index} AS inet)`);
    }
    return { where: `(${terms.join(' OR ')})`, params };
  };
}

/** Network or address, whichever the value is, for `contains=`. */
const networkOrAddress = (raw: unknown) => {
  const address = parseIpAddress(raw);
  return isIpProblem(address) ? parseIpNetwork(raw) : address;
};

const familyFilter =
  (column: string): ExtraFilter =>
  (values, alias, prefix) => {
    const families = values.map(Number);
    if (families.some((value) => value !== 4 && value !== 6)) return { problem: 'Select a valid choice: 4 or 6.' };
    return { where: `family(${alias}."${column}") IN (:...${prefix})`, params: { [prefix]: families } };
  };

/** NetBox refuses a /0 mask on prefixes and IP addresses. */
function withoutZeroMask(parse: (raw: unknown) => ReturnType<typeof parseIpNetwork>, noun: string) {
  return (raw: unknown) => {
    const parsed = parse(raw);
    if (!isIpProblem(parsed) && parsed.value.endsWith('/0')) return { problem: `Cannot create ${noun} with /0 mask.` };
    return parsed;
  };
}

/** `address=10.0.0.1` matches the host whatever its mask, as NetBox's address filter does. */
const hostAddressFilter: ExtraFilter = (values, alias, prefix) => {
  const params: Record<string, unknown> = {};
  const terms: string[] = [];
  for (const [index, raw] of values.entries()) {
    const parsed = parseIpInterface(raw);
    if (isIpProblem(parsed)) return { problem: parsed.problem };
    params[`${prefix}_${index}`] = parsed.value;
    const withMask = String(raw).includes('/');
    terms.push(
      withMask
        ? `${alias}."address" = CAST(:${prefix}_${index} AS inet)`
        : `host(${alias}."address") = host(CAST(:${prefix}_${index} AS inet))`,
    );
  }
  return { where: `(${terms.join(' OR ')})`, params };
};

export const RirResource = defineOrganizationalResource({
  appLabel: 'ipam',
  model: 'rir',
  path: 'rirs',
  verboseName: 'RIR',
  graphqlName: 'rir',
  table: 'ipam_rir',
  fields: { is_private: boolean({ default: false }) },
});

export const AsnResource = defineResource({
  appLabel: 'ipam',
  model: 'asn',
  path: 'asns',
  verboseName: 'ASN',
  graphqlName: 'asn',
  table: 'ipam_asn',
  fields: {
    asn: integer({ min: 1, max: 4_294_967_295, required: true, unique: true, big: true, label: 'ASN' }),
    rir: relation(() => RirResource, { onDelete: 'PROTECT', required: true }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => `AS${String(row.asn)}`,
  brief: ['asn', 'description'],
  ordering: ['asn'],
});

export const VrfResource = defineResource({
  appLabel: 'ipam',
  model: 'vrf',
  path: 'vrfs',
  verboseName: 'VRF',
  graphqlName: 'vrf',
  table: 'ipam_vrf',
  fields: {
    name: text({ maxLength: 100, required: true, search: true }),
    rd: text({ maxLength: 21, nullable: true, unique: true, search: true, label: 'route distinguisher' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    enforce_unique: boolean({ default: true }),
    import_targets: many(() => RouteTargetResource),
    export_targets: many(() => RouteTargetResource),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'rd', 'description'],
  ordering: ['name', 'rd'],
});

export const VlanResource = defineResource({
  appLabel: 'ipam',
  model: 'vlan',
  path: 'vlans',
  verboseName: 'VLAN',
  graphqlName: 'vlan',
  table: 'ipam_vlan',
  fields: {
    site: relation('dcim.site', { onDelete: 'PROTECT' }),
    group: relation(() => VlanGroupResource, { onDelete: 'PROTECT' }),
    vid: integer({ min: 1, max: 4094, required: true, label: 'VLAN ID' }),
    name: text({ maxLength: 64, required: true, search: true }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    status: choice(IPAM_STATUS_CHOICES, { default: 'active' }),
    role: relation(() => RoleResource, { onDelete: 'SET NULL' }),
    description: text({ maxLength: 200, search: true }),
    qinq_role: choice(
      [
        ['svlan', 'Service'],
        ['cvlan', 'Customer'],
      ],
      { blank: true, label: 'Q-in-Q role' },
    ),
    qinq_svlan: relation(() => VlanResource, { onDelete: 'PROTECT', label: 'Q-in-Q SVLAN' }),
    comments: longText({ search: true }),
  },
  display: (row) => `${String(row.name)} (${String(row.vid)})`,
  brief: ['vid', 'name', 'description'],
  ordering: ['site', 'group', 'vid', 'name'],
  uniqueTogether: [
    ['group', 'vid'],
    ['group', 'name'],
    ['qinq_svlan', 'vid'],
    ['qinq_svlan', 'name'],
  ],
  extraFilters: { qinq_svlan_vid: throughFilter('qinq_svlan_id', 'SELECT id FROM ipam_vlan WHERE vid IN (:values)') },
  validate: (values): Problems => {
    if (values.qinq_svlan_id != null && values.qinq_role !== 'cvlan') {
      return { qinq_svlan: ['Only Q-in-Q customer VLANs maybe assigned to a service VLAN.'] };
    }
    if (values.qinq_role === 'cvlan' && values.qinq_svlan_id == null) {
      return { qinq_role: ['A Q-in-Q customer VLAN must be assigned to a service VLAN.'] };
    }
    return {};
  },
  validateAsync: vidInGroupRanges,
});

/** A named set of VLAN ID translations, applied to device and VM interfaces. */
export const VlanTranslationPolicyResource = defineResource({
  appLabel: 'ipam',
  model: 'vlantranslationpolicy',
  path: 'vlan-translation-policies',
  verboseName: 'VLAN translation policy',
  graphqlName: 'vlan_translation_policy',
  graphql: { lists: { rules: { objectType: 'ipam.vlantranslationrule', field: 'policy' } } },
  table: 'ipam_vlantranslationpolicy',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  extensions: [policyRules()],
});

const ruleDisplay = (row: Record<string, unknown>) =>
  `${String(row.local_vid)} -> ${String(row.remote_vid)} (policy ${String(row.policy_id)})`;

/** One translation of a policy: a local VLAN ID to a remote one, each used once per policy. */
export const VlanTranslationRuleResource = defineResource({
  appLabel: 'ipam',
  model: 'vlantranslationrule',
  path: 'vlan-translation-rules',
  verboseName: 'VLAN translation rule',
  graphqlName: 'vlan_translation_rule',
  table: 'ipam_vlantranslationrule',
  fields: {
    policy: relation(() => VlanTranslationPolicyResource, { onDelete: 'CASCADE', required: true, label: 'VLAN translation policy' }),
    local_vid: integer({ min: 1, max: 4094, required: true, label: 'local VLAN ID' }),
    remote_vid: integer({ min: 1, max: 4094, required: true, label: 'remote VLAN ID' }),
    description: text({ maxLength: 200, search: true }),
  },
  display: ruleDisplay,
  brief: ['policy', 'local_vid', 'remote_vid', 'description'],
  ordering: ['policy', 'local_vid'],
  uniqueTogether: [
    ['policy', 'local_vid'],
    ['policy', 'remote_vid'],
  ],
  searchRelated: [{ relation: 'policy', column: 'name' }],
  relatedObject: 'policy',
});

/** A policy's `rules` as NetBox lists them: each rule's own fields, its policy as an id (one query per page). */
function policyRules(): ResourceExtension {
  const ruleSchema = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      url: { type: 'string', format: 'uri' },
      display: { type: 'string' },
      policy: { type: 'integer' },
      local_vid: { type: 'integer' },
      remote_vid: { type: 'integer' },
      description: { type: 'string' },
    },
  } as const;
  return {
    keys: ['rules'],
    readSchema: { rules: { type: 'array', readOnly: true, items: ruleSchema } },
    async represent(manager, rows, baseUrl) {
      const rules = (await manager.query(
        'SELECT id, policy_id, local_vid, remote_vid, description FROM ipam_vlantranslationrule WHERE policy_id = ANY($1) ORDER BY local_vid, id',
        [rows.map((row) => row.id)],
      )) as Array<{ id: number; policy_id: number; local_vid: number; remote_vid: number; description: string }>;
      return new Map(
        rows.map((row) => [
          row.id,
          {
            rules: rules
              .filter((rule) => rule.policy_id === row.id)
              .map((rule) => ({
                id: rule.id,
                url: `${baseUrl}/api/ipam/vlan-translation-rules/${rule.id}/`,
                display: ruleDisplay(rule),
                policy: rule.policy_id,
                local_vid: rule.local_vid,
                remote_vid: rule.remote_vid,
                description: rule.description,
              })),
          },
        ]),
      );
    },
    snapshot: async () => new Map(),
    validate: async () => ({}),
    apply: async () => undefined,
  };
}

export const PrefixResource = defineResource({
  appLabel: 'ipam',
  model: 'prefix',
  path: 'prefixes',
  verboseName: 'prefix',
  table: 'ipam_prefix',
  fields: {
    prefix: text({
      columnType: 'cidr',
      required: true,
      search: true,
      parse: withoutZeroMask((raw) => parseIpNetwork(raw, { requireMask: true }), 'prefix'),
    }),
    vrf: relation(() => VrfResource, { onDelete: 'PROTECT' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    vlan: relation(() => VlanResource, { onDelete: 'PROTECT' }),
    status: choice(PREFIX_STATUS_CHOICES, { default: 'active' }),
    role: relation(() => RoleResource, { onDelete: 'SET NULL' }),
    is_pool: boolean({ default: false }),
    mark_utilized: boolean({ default: false }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.prefix),
  brief: ['prefix', 'description'],
  ordering: ['vrf', 'prefix'],
  extraFilters: {
    within: networkFilter('prefix', '<<', parseIpNetwork),
    within_include: networkFilter('prefix', '<<=', parseIpNetwork),
    parent: networkFilter('prefix', '<<=', parseIpNetwork),
    contains: networkFilter('prefix', '>>=', networkOrAddress),
    family: familyFilter('prefix'),
  },
});

/** `interface_id=…`: the addresses assigned to those interfaces, as NetBox's IP address filter. */
const assignedInterfaceFilter: ExtraFilter = (values, alias, prefix) => {
  const problem = idFilterProblem(values);
  if (problem) return { problem };
  return {
    where: `(${alias}.assigned_object_type_id = (SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = 'interface') AND ${alias}.assigned_object_id IN (:...${prefix}))`,
    params: { [prefix]: values.map(Number) },
  };
};

export const IpAddressResource = defineResource({
  appLabel: 'ipam',
  model: 'ipaddress',
  path: 'ip-addresses',
  verboseName: 'IP address',
  graphqlName: 'ip_address',
  table: 'ipam_ipaddress',
  fields: {
    address: text({
      columnType: 'inet',
      required: true,
      search: true,
      noFilter: true,
      parse: withoutZeroMask(parseIpInterface, 'IP address'),
    }),
    vrf: relation(() => VrfResource, { onDelete: 'PROTECT' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    status: choice([...IPAM_STATUS_CHOICES, ['dhcp', 'DHCP'], ['slaac', 'SLAAC']], { default: 'active' }),
    role: choice(IP_ROLE_CHOICES, { blank: true }),
    assigned_object: genericRelation({
      onDelete: 'SET NULL',
      allowedTypes: ['dcim.interface', 'virtualization.vminterface', 'ipam.fhrpgroup'],
    }),
    dns_name: text({
      maxLength: 255,
      search: true,
      pattern: {
        regex: /^([0-9A-Za-z_-]+|\*)(\.[0-9A-Za-z_-]+)*\.?$/,
        message: 'Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names',
      },
    }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.address),
  brief: ['address', 'description'],
  ordering: ['address', 'id'],
  relatedObject: 'assigned_object',
  extraFilters: {
    address: hostAddressFilter,
    parent: networkFilter('address', '<<=', parseIpNetwork, true),
    family: familyFilter('address'),
    interface_id: assignedInterfaceFilter,
  },
});

/** The function of a prefix, IP range or VLAN, with a weight ordering the roles. */
export const RoleResource = defineOrganizationalResource({
  appLabel: 'ipam',
  model: 'role',
  path: 'roles',
  verboseName: 'role',
  table: 'ipam_role',
  fields: {
    weight: integer({ min: 0, max: 32767, default: 1000 }),
    comments: longText({ search: true }),
  },
  ordering: ['weight', 'name'],
});

type Problems = Record<string, string[]>;

/** NetBox: aggregates never overlap, neither inside another nor around one. */
async function aggregateDoesNotOverlap(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  if (values.prefix == null) return {};
  const [covering] = (await manager.query(
    'SELECT prefix::text AS prefix FROM ipam_aggregate WHERE prefix >>= $1::cidr AND id <> $2 ORDER BY prefix LIMIT 1',
    [values.prefix, values.id ?? 0],
  )) as Array<{ prefix: string }>;
  if (covering) {
    return {
      prefix: [`Aggregates cannot overlap. ${String(values.prefix)} is already covered by an existing aggregate (${covering.prefix}).`],
    };
  }
  const [covered] = (await manager.query(
    'SELECT prefix::text AS prefix FROM ipam_aggregate WHERE prefix << $1::cidr AND id <> $2 ORDER BY prefix LIMIT 1',
    [values.prefix, values.id ?? 0],
  )) as Array<{ prefix: string }>;
  return covered
    ? { prefix: [`Prefixes cannot overlap aggregates. ${String(values.prefix)} covers an existing aggregate (${covered.prefix}).`] }
    : {};
}

/** A block of address space allocated by a RIR. */
export const AggregateResource = defineResource({
  appLabel: 'ipam',
  model: 'aggregate',
  path: 'aggregates',
  verboseName: 'aggregate',
  table: 'ipam_aggregate',
  fields: {
    prefix: text({
      columnType: 'cidr',
      required: true,
      search: true,
      parse: withoutZeroMask((raw) => parseIpNetwork(raw, { requireMask: true }), 'aggregate'),
    }),
    rir: relation(() => RirResource, { onDelete: 'PROTECT', required: true, label: 'RIR' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    date_added: date(),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.prefix),
  brief: ['prefix', 'description'],
  ordering: ['prefix', 'id'],
  validateAsync: aggregateDoesNotOverlap,
  extensions: [familyOf('prefix')],
  extraFilters: {
    within: networkFilter('prefix', '<<', parseIpNetwork),
    within_include: networkFilter('prefix', '<<=', parseIpNetwork),
    contains: networkFilter('prefix', '>>=', networkOrAddress),
    family: familyFilter('prefix'),
  },
});

/** NetBox's read-only `family`, `{value: 4|6, label: "IPv4"|"IPv6"}`, read off a network column as stored. */
function familyOf(column: string) {
  return computedProperties(
    { family: { type: 'object', properties: { value: { type: 'integer' }, label: { type: 'string' } } } },
    async (_manager, rows) =>
      new Map(
        rows.map((row) => {
          const family = String(row[column]).includes(':') ? 6 : 4;
          return [row.id, { family: { value: family, label: `IPv${family}` } }];
        }),
      ),
  );
}

/** A VLAN group's VLAN IDs: a list of inclusive `[first, last]` ranges within 1–4094 that do not overlap. */
function vidRangeProblems(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) return ['Enter a list of [first, last] VLAN ID ranges.'];
  const ranges: Array<[number, number]> = [];
  for (const range of value) {
    if (!Array.isArray(range) || range.length !== 2 || !range.every((vid) => Number.isInteger(vid))) {
      return ['Each range must be a list of two VLAN IDs: [first, last].'];
    }
    const [first, last] = range as [number, number];
    if (first < 1) return [`Starting VLAN ID in range (${first}) cannot be less than 1`];
    if (last > 4094) return [`Ending VLAN ID in range (${last}) cannot exceed 4094`];
    if (first > last) return [`Ending VLAN ID in range must be greater than or equal to the starting VLAN ID (${first}-${last})`];
    ranges.push([first, last]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  return ranges.some((range, index) => index > 0 && range[0] <= ranges[index - 1][1]) ? ['Ranges cannot overlap.'] : [];
}

/** What a VLAN group may be scoped to (NetBox's VLANGROUP_SCOPE_TYPES, those this platform has). */
export const VLAN_GROUP_SCOPE_TYPES = [
  'dcim.region',
  'dcim.sitegroup',
  'dcim.site',
  'dcim.location',
  'virtualization.clustergroup',
  'virtualization.cluster',
];

/** VLANs grouped under a scope, with the VLAN IDs they may use. */
export const VlanGroupResource = defineResource({
  appLabel: 'ipam',
  model: 'vlangroup',
  path: 'vlan-groups',
  verboseName: 'VLAN group',
  graphqlName: 'vlan_group',
  table: 'ipam_vlangroup',
  fields: {
    name: text({ maxLength: 100, required: true, search: true }),
    slug: text({
      maxLength: 100,
      required: true,
      pattern: { regex: /^[-a-zA-Z0-9_]+$/, message: 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.' },
    }),
    scope: genericRelation({ onDelete: 'CASCADE', allowedTypes: VLAN_GROUP_SCOPE_TYPES }),
    vid_ranges: json({ nullable: false, default: () => [[1, 4094]], validate: vidRangeProblems, noFilter: true, label: 'VLAN ID ranges' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['name', 'id'],
  uniqueTogether: [
    { fields: ['scope_type_id', 'scope_id', 'name'], nullsEqual: true },
    { fields: ['scope_type_id', 'scope_id', 'slug'], nullsEqual: true },
  ],
});

/** A VLAN in a group has a VLAN ID inside one of the group's ranges. */
async function vidInGroupRanges(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  if (values.group_id == null || values.vid == null) return {};
  const [group] = (await manager.query('SELECT name, vid_ranges FROM ipam_vlangroup WHERE id = $1', [values.group_id])) as Array<{
    name: string;
    vid_ranges: Array<[number, number]>;
  }>;
  if (!group) return {};
  const vid = Number(values.vid);
  if (group.vid_ranges.some(([first, last]) => vid >= first && vid <= last)) return {};
  const ranges = group.vid_ranges.map(([first, last]) => (first === last ? `${first}` : `${first}-${last}`)).join(', ');
  return { vid: [`VID must be in ranges ${ranges} for VLANs in group ${group.name}`] };
}

/** Start and end of a range: one family and mask, end after start, no overlap with another range of the VRF. */
async function ipRangeRules(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  if (values.start_address == null || values.end_address == null) return {};
  const [check] = (await manager.query(
    `SELECT family($1::inet) = family($2::inet) AS same_family, masklen($1::inet) = masklen($2::inet) AS same_mask,
            host($2::inet)::inet > host($1::inet)::inet AS ordered`,
    [values.start_address, values.end_address],
  )) as Array<{ same_family: boolean; same_mask: boolean; ordered: boolean }>;
  if (!check.same_family) return { end_address: ['Starting and ending IP address versions must match'] };
  if (!check.same_mask) return { end_address: ['Starting and ending IP address masks must match'] };
  if (!check.ordered)
    return { end_address: [`Ending address must be greater than the starting address (${String(values.start_address)})`] };
  const [overlap] = (await manager.query(
    `SELECT start_address::text AS start_address, end_address::text AS end_address FROM ipam_iprange
      WHERE vrf_id IS NOT DISTINCT FROM $3 AND id <> $4
        AND host(start_address)::inet <= host($2::inet)::inet AND host(end_address)::inet >= host($1::inet)::inet
      ORDER BY start_address LIMIT 1`,
    [values.start_address, values.end_address, values.vrf_id ?? null, values.id ?? 0],
  )) as Array<{ start_address: string; end_address: string }>;
  if (overlap) {
    return {
      non_field_errors: [
        `Defined addresses overlap with range ${overlap.start_address}-${overlap.end_address} in VRF ${values.vrf_id == null ? 'None' : String(values.vrf_id)}`,
      ],
    };
  }
  const [size] = (await manager.query('SELECT host($2::inet)::inet - host($1::inet)::inet + 1 AS size', [
    values.start_address,
    values.end_address,
  ])) as Array<{ size: string }>;
  return BigInt(size.size) > 2n ** 32n - 1n ? { non_field_errors: [`Defined range exceeds maximum supported size (${2 ** 32 - 1})`] } : {};
}

/** A range of IP addresses (start and end inclusive), e.g. a DHCP pool. */
export const IpRangeResource = defineResource({
  appLabel: 'ipam',
  model: 'iprange',
  path: 'ip-ranges',
  verboseName: 'IP range',
  graphqlName: 'ip_range',
  table: 'ipam_iprange',
  fields: {
    start_address: text({ columnType: 'inet', required: true, search: true, parse: withoutZeroMask(parseIpInterface, 'IP range') }),
    end_address: text({ columnType: 'inet', required: true, search: true, parse: withoutZeroMask(parseIpInterface, 'IP range') }),
    vrf: relation(() => VrfResource, { onDelete: 'PROTECT' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    status: choice(IPAM_STATUS_CHOICES, { default: 'active' }),
    role: relation(() => RoleResource, { onDelete: 'SET NULL' }),
    mark_populated: boolean({ default: false }),
    mark_utilized: boolean({ default: false }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => `${String(row.start_address)}-${String(row.end_address)}`,
  brief: ['start_address', 'end_address', 'description'],
  ordering: ['vrf', 'start_address', 'id'],
  validateAsync: ipRangeRules,
  extensions: [
    familyOf('start_address'),
    // 'number', not 'integer': an IPv6 range's size is past GraphQL's 32-bit Int.
    computedProperties({ size: { type: 'number' } }, async (manager, rows) => {
      const found = (await manager.query(
        'SELECT id, (host(end_address)::inet - host(start_address)::inet + 1)::bigint AS size FROM ipam_iprange WHERE id = ANY($1)',
        [rows.map((row) => row.id)],
      )) as Array<{ id: number; size: string }>;
      return new Map(found.map(({ id, size }) => [id, { size: Number(size) }]));
    }),
  ],
  extraFilters: {
    family: familyFilter('start_address'),
    contains: (values, alias, prefix) => {
      const params: Record<string, unknown> = {};
      const terms: string[] = [];
      for (const [index, raw] of values.entries()) {
        const parsed = parseIpAddress(raw);
        if (isIpProblem(parsed)) return { problem: parsed.problem };
        params[`${prefix}_${index}`] = parsed.value;
        const address = `host(CAST(:${prefix}_${index} AS inet))::inet`;
        terms.push(`(host(${alias}.start_address)::inet <= ${address} AND host(${alias}.end_address)::inet >= ${address})`);
      }
      return { where: `(${terms.join(' OR ')})`, params };
    },
  },
});

/** A BGP extended community identifying a VRF's routes (RFC 4360). */
export const RouteTargetResource = defineResource({
  appLabel: 'ipam',
  model: 'routetarget',
  path: 'route-targets',
  verboseName: 'route target',
  graphqlName: 'route_target',
  table: 'ipam_routetarget',
  fields: {
    name: text({ maxLength: 21, required: true, unique: true, search: true }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  extraFilters: {
    importing_vrf_id: throughFilter('id', 'SELECT routetarget_id FROM ipam_vrf_import_targets WHERE vrf_id IN (:values)'),
    exporting_vrf_id: throughFilter('id', 'SELECT routetarget_id FROM ipam_vrf_export_targets WHERE vrf_id IN (:values)'),
  },
});

const SERVICE_PROTOCOL_CHOICES = [
  ['tcp', 'TCP'],
  ['udp', 'UDP'],
  ['sctp', 'SCTP'],
] as const;

/** A service's ports: a non-empty list of port numbers 1–65535. */
function portsProblems(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) return ['This field is required.'];
  return value.every((port) => Number.isInteger(port) && port >= 1 && port <= 65535)
    ? []
    : ['Each port must be a whole number from 1 to 65535.'];
}

/** `port=443`: services listening on that port. */
const portFilter: ExtraFilter = (values, alias, prefix) => {
  if (values.some((value) => !/^\d{1,5}$/.test(value))) return { problem: 'Enter a whole number.' };
  return {
    where: `(${values.map((_, index) => `${alias}.ports @> CAST(:${prefix}_${index} AS jsonb)`).join(' OR ')})`,
    params: Object.fromEntries(values.map((value, index) => [`${prefix}_${index}`, JSON.stringify([Number(value)])])),
  };
};

const serviceFields = {
  name: text({ maxLength: 100, required: true, search: true }),
  protocol: choice(SERVICE_PROTOCOL_CHOICES, { required: true }),
  ports: json({ required: true, nullable: false, validate: portsProblems, noFilter: true }),
  description: text({ maxLength: 200, search: true }),
  comments: longText({ search: true }),
};

const serviceDisplay = (row: Record<string, unknown>) =>
  `${String(row.name)} (${String(row.protocol).toUpperCase()}/${(row.ports as number[] | null)?.join(', ') ?? ''})`;

/** A service to apply to devices and virtual machines. */
export const ServiceTemplateResource = defineResource({
  appLabel: 'ipam',
  model: 'servicetemplate',
  path: 'service-templates',
  verboseName: 'service template',
  graphqlName: 'service_template',
  table: 'ipam_servicetemplate',
  fields: { ...serviceFields, name: text({ maxLength: 100, required: true, unique: true, search: true }) },
  display: serviceDisplay,
  brief: ['name', 'protocol', 'ports', 'description'],
  ordering: ['name'],
  extraFilters: { port: portFilter },
});

/** A layer-four service on a device, virtual machine or FHRP group, optionally bound to its IP addresses. */
export const ServiceResource = defineResource({
  appLabel: 'ipam',
  model: 'service',
  path: 'services',
  verboseName: 'service',
  table: 'ipam_service',
  fields: {
    parent_object: genericRelation({
      required: true,
      onDelete: 'CASCADE',
      allowedTypes: ['dcim.device', 'virtualization.virtualmachine', 'ipam.fhrpgroup'],
    }),
    ...serviceFields,
    ipaddresses: many(() => IpAddressResource),
  },
  display: serviceDisplay,
  brief: ['name', 'protocol', 'ports', 'description'],
  ordering: ['protocol', 'id'],
  relatedObject: 'parent_object',
  extraFilters: {
    port: portFilter,
    device_id: parentFilter('dcim', 'device'),
    virtual_machine_id: parentFilter('virtualization', 'virtualmachine'),
    fhrpgroup_id: parentFilter('ipam', 'fhrpgroup'),
  },
});

/** Services whose parent is one of the given objects of one type. */
function parentFilter(app: string, model: string): ExtraFilter {
  return (values, alias, prefix) => {
    const problem = idFilterProblem(values);
    if (problem) return { problem };
    return {
      where: `(${alias}.parent_object_type_id = (SELECT id FROM core_objecttype WHERE app_label = '${app}' AND model = '${model}') AND ${alias}.parent_object_id IN (:...${prefix}))`,
      params: { [prefix]: values.map(Number) },
    };
  };
}

const FHRP_PROTOCOL_CHOICES = [
  ['vrrp2', 'VRRPv2'],
  ['vrrp3', 'VRRPv3'],
  ['carp', 'CARP'],
  ['clusterxl', 'ClusterXL'],
  ['hsrp', 'HSRP'],
  ['glbp', 'GLBP'],
  ['other', 'Other'],
] as const;

/** A first-hop redundancy group (VRRP, HSRP, …) whose virtual addresses are assigned to it. */
export const FhrpGroupResource = defineResource({
  appLabel: 'ipam',
  model: 'fhrpgroup',
  path: 'fhrp-groups',
  verboseName: 'FHRP group',
  graphqlName: 'fhrp_group',
  table: 'ipam_fhrpgroup',
  fields: {
    name: text({ maxLength: 100, search: true }),
    protocol: choice(FHRP_PROTOCOL_CHOICES, { required: true }),
    group_id: integer({ min: 0, max: 32767, required: true, label: 'group ID' }),
    auth_type: choice(
      [
        ['plaintext', 'Plaintext'],
        ['md5', 'MD5'],
      ],
      { blank: true, label: 'authentication type' },
    ),
    auth_key: text({ maxLength: 255, label: 'authentication key' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => {
    const protocol = FHRP_PROTOCOL_CHOICES.find(([value]) => value === row.protocol)?.[1] ?? String(row.protocol);
    return row.name ? `${String(row.name)} (${protocol} ${String(row.group_id)})` : `${protocol}: ${String(row.group_id)}`;
  },
  brief: ['protocol', 'group_id', 'description'],
  ordering: ['protocol', 'group_id', 'id'],
});

/** An FHRP group on a device or VM interface, with the interface's priority in it. */
export const FhrpGroupAssignmentResource = defineResource({
  appLabel: 'ipam',
  model: 'fhrpgroupassignment',
  path: 'fhrp-group-assignments',
  verboseName: 'FHRP group assignment',
  graphqlName: 'fhrp_group_assignment',
  table: 'ipam_fhrpgroupassignment',
  fields: {
    group: relation(() => FhrpGroupResource, { onDelete: 'CASCADE', required: true }),
    interface: genericRelation({ required: true, onDelete: 'CASCADE', allowedTypes: ['dcim.interface', 'virtualization.vminterface'] }),
    priority: integer({ min: 0, max: 255, required: true }),
  },
  display: (row) => `Group ${String(row.group_id)}: interface ${String(row.interface_id)}`,
  brief: ['group', 'interface', 'priority'],
  ordering: ['priority', 'id'],
  uniqueTogether: [['interface_type_id', 'interface_id', 'group']],
  relatedObject: 'interface',
});
