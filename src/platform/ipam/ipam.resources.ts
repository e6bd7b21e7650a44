import { boolean, choice, genericRelation, integer, longText, relation, text } from '../framework/resource/fields';
import { defineOrganizationalResource } from '../framework/resource/organizational';
import { idFilterProblem } from '../framework/resource/extra-filters';
import { defineResource, ExtraFilter } from '../framework/resource/resource-definition';
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
    vid: integer({ min: 1, max: 4094, required: true }),
    name: text({ maxLength: 64, required: true, search: true }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    status: choice(IPAM_STATUS_CHOICES, { default: 'active' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => `${String(row.name)} (${String(row.vid)})`,
  brief: ['vid', 'name', 'description'],
  ordering: ['vid', 'name'],
});

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
    assigned_object: genericRelation({ onDelete: 'SET NULL', allowedTypes: ['dcim.interface'] }),
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
