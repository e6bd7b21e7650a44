import type { EntityManager } from 'typeorm';
import { countsOf } from '../framework/resource/computed-properties';
import { idFilterProblem, throughFilter } from '../framework/resource/extra-filters';
import { choice, genericRelation, integer, longText, many, relation, text } from '../framework/resource/fields';
import { defineOrganizationalResource } from '../framework/resource/organizational';
import { defineResource, type ExtraFilter } from '../framework/resource/resource-definition';
import { TenantResource } from '../tenancy/tenancy.resources';
import {
  AUTHENTICATION_ALGORITHM_CHOICES,
  AUTHENTICATION_METHOD_CHOICES,
  DH_GROUP_CHOICES,
  ENCRYPTION_ALGORITHM_CHOICES,
  IKE_MODE_CHOICES,
  IKE_VERSION_CHOICES,
  IPSEC_MODE_CHOICES,
  L2VPN_P2P_TYPES,
  L2VPN_STATUS_CHOICES,
  L2VPN_TYPE_CHOICES,
  TUNNEL_ENCAPSULATION_CHOICES,
  TUNNEL_STATUS_CHOICES,
  TUNNEL_TERMINATION_ROLE_CHOICES,
} from './vpn.choices';

const objectTypeId = (objectType: string): string => {
  const [app, model] = objectType.split('.');
  return `(SELECT id FROM core_objecttype WHERE app_label = '${app}' AND model = '${model}')`;
};

/**
 * Rows whose generic relation `field` points at an object of `objectType` among those `select`
 * answers for the values (SQL with `:values`), or among the values themselves as ids
 * (`interface_id=3` on tunnel terminations).
 */
function assignedFilter(field: string, objectType: string, select?: string, key: 'id' | 'text' = 'id'): ExtraFilter {
  return (values, alias, prefix) => {
    const problem = key === 'id' ? idFilterProblem(values) : undefined;
    if (problem) return { problem };
    const ids = select ? select.replaceAll(':values', `:...${prefix}`) : `:...${prefix}`;
    return {
      where: `(${alias}.${field}_type_id = ${objectTypeId(objectType)} AND ${alias}.${field}_id IN (${ids}))`,
      params: { [prefix]: key === 'id' ? values.map(Number) : values },
    };
  };
}

/**
 * L2VPN terminations whose object (a VLAN, a device's interface or a VM's interface) is on a site
 * matching `siteCondition` (SQL over the site alias `s`, with `:values`), as NetBox's `site`/`region` filters.
 */
function terminationSiteFilter(siteCondition: string, key: 'id' | 'text'): ExtraFilter {
  const sites = `SELECT s.id FROM dcim_site s WHERE ${siteCondition}`;
  const byType: Array<[string, string]> = [
    ['ipam.vlan', `SELECT v.id FROM ipam_vlan v WHERE v.site_id IN (${sites})`],
    ['dcim.interface', `SELECT i.id FROM dcim_interface i JOIN dcim_device d ON d.id = i.device_id WHERE d.site_id IN (${sites})`],
    [
      'virtualization.vminterface',
      `SELECT i.id FROM virtualization_vminterface i JOIN virtualization_virtualmachine m ON m.id = i.virtual_machine_id WHERE m.site_id IN (${sites})`,
    ],
  ];
  return (values, alias, prefix) => {
    const problem = key === 'id' ? idFilterProblem(values) : undefined;
    if (problem) return { problem };
    const terms = byType.map(
      ([objectType, select]) =>
        `(${alias}.assigned_object_type_id = ${objectTypeId(objectType)} AND ${alias}.assigned_object_id IN (${select.replaceAll(':values', `:...${prefix}`)}))`,
    );
    return { where: `(${terms.join(' OR ')})`, params: { [prefix]: key === 'id' ? values.map(Number) : values } };
  };
}

/** Rows linked through a many-to-many join table to the objects named by the values (by id, or by `targetColumn` of `targetTable`). */
function joinFilter(joinTable: string, ownColumn: string, targetColumn: string, byName?: { table: string; column: string }): ExtraFilter {
  return byName
    ? throughFilter(
        'id',
        `SELECT j.${ownColumn} FROM ${joinTable} j JOIN ${byName.table} t ON t.id = j.${targetColumn} WHERE t.${byName.column} IN (:values)`,
        'text',
      )
    : throughFilter('id', `SELECT ${ownColumn} FROM ${joinTable} WHERE ${targetColumn} IN (:values)`);
}

//
// Tunnels
//

/** An administrative grouping of tunnels (e.g. the peer-to-peer tunnels of one mesh). */
export const TunnelGroupResource = defineOrganizationalResource({
  appLabel: 'vpn',
  model: 'tunnelgroup',
  path: 'tunnel-groups',
  verboseName: 'tunnel group',
  graphqlName: 'tunnel_group',
  table: 'vpn_tunnelgroup',
  fields: { comments: longText({ search: true }) },
  extensions: [countsOf({ tunnel_count: { table: 'vpn_tunnel', column: 'group_id' } })],
});

/** A virtual point-to-point or hub-and-spoke link, optionally protected by an IPSec profile. */
export const TunnelResource = defineResource({
  appLabel: 'vpn',
  model: 'tunnel',
  path: 'tunnels',
  verboseName: 'tunnel',
  graphqlName: 'tunnel',
  table: 'vpn_tunnel',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    status: choice(TUNNEL_STATUS_CHOICES, { default: 'active' }),
    group: relation(() => TunnelGroupResource, { onDelete: 'PROTECT' }),
    encapsulation: choice(TUNNEL_ENCAPSULATION_CHOICES, { required: true }),
    ipsec_profile: relation(() => IpsecProfileResource, { onDelete: 'PROTECT', label: 'IPSec profile' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    tunnel_id: integer({ min: 0, big: true, nullable: true, label: 'tunnel ID' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  extensions: [countsOf({ terminations_count: { table: 'vpn_tunneltermination', column: 'tunnel_id' } })],
});

/** One end of a tunnel: a device's or virtual machine's interface, at most one tunnel's. */
export const TunnelTerminationResource = defineResource({
  appLabel: 'vpn',
  model: 'tunneltermination',
  path: 'tunnel-terminations',
  verboseName: 'tunnel termination',
  graphqlName: 'tunnel_termination',
  table: 'vpn_tunneltermination',
  fields: {
    tunnel: relation(() => TunnelResource, { onDelete: 'CASCADE', required: true }),
    role: choice(TUNNEL_TERMINATION_ROLE_CHOICES, { default: 'peer' }),
    termination: genericRelation({ required: true, onDelete: 'CASCADE', allowedTypes: ['dcim.interface', 'virtualization.vminterface'] }),
    outside_ip: relation('ipam.ipaddress', { onDelete: 'PROTECT', label: 'outside IP' }),
  },
  display: (row) => `Termination ${String(row.id)}`,
  brief: [],
  ordering: ['tunnel', 'role', 'id'],
  uniqueTogether: [
    {
      fields: ['termination_type_id', 'termination_id'],
      violation: { field: 'termination', message: 'An object may be terminated to only one tunnel at a time.' },
    },
  ],
  relatedObject: 'tunnel',
  extraFilters: {
    interface_id: assignedFilter('termination', 'dcim.interface'),
    interface: assignedFilter('termination', 'dcim.interface', 'SELECT id FROM dcim_interface WHERE name IN (:values)', 'text'),
    vminterface_id: assignedFilter('termination', 'virtualization.vminterface'),
    vminterface: assignedFilter(
      'termination',
      'virtualization.vminterface',
      'SELECT id FROM virtualization_vminterface WHERE name IN (:values)',
      'text',
    ),
  },
});

//
// IKE and IPSec
//

/** Algorithms offered in IKE phase 1. */
export const IkeProposalResource = defineResource({
  appLabel: 'vpn',
  model: 'ikeproposal',
  path: 'ike-proposals',
  verboseName: 'IKE proposal',
  graphqlName: 'ike_proposal',
  table: 'vpn_ikeproposal',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    authentication_method: choice(AUTHENTICATION_METHOD_CHOICES, { required: true }),
    encryption_algorithm: choice(ENCRYPTION_ALGORITHM_CHOICES, { required: true }),
    authentication_algorithm: choice(AUTHENTICATION_ALGORITHM_CHOICES, { blank: true }),
    group: choice(DH_GROUP_CHOICES, { required: true, numeric: true, label: 'Diffie-Hellman group' }),
    sa_lifetime: integer({ min: 0, max: 2147483647, nullable: true, label: 'SA lifetime' }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  extraFilters: {
    ike_policy_id: joinFilter('vpn_ikepolicy_proposals', 'ikeproposal_id', 'ikepolicy_id'),
    ike_policy: joinFilter('vpn_ikepolicy_proposals', 'ikeproposal_id', 'ikepolicy_id', { table: 'vpn_ikepolicy', column: 'name' }),
  },
});

/** IKE phase 1: a version, its mode (IKEv1 only), proposals and a pre-shared key. */
export const IkePolicyResource = defineResource({
  appLabel: 'vpn',
  model: 'ikepolicy',
  path: 'ike-policies',
  verboseName: 'IKE policy',
  graphqlName: 'ike_policy',
  table: 'vpn_ikepolicy',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    version: choice(IKE_VERSION_CHOICES, { default: '2', numeric: true }),
    mode: choice(IKE_MODE_CHOICES, { blank: true }),
    proposals: many(() => IkeProposalResource),
    preshared_key: longText({ secret: true, label: 'pre-shared key' }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  validate: (values): Record<string, string[]> => {
    const version = Number(values.version);
    if (version === 1 && !values.mode) return { non_field_errors: ['Mode is required for selected IKE version'] };
    if (version === 2 && values.mode) return { non_field_errors: ['Mode cannot be used for selected IKE version'] };
    return {};
  },
  extraFilters: {
    ike_proposal_id: joinFilter('vpn_ikepolicy_proposals', 'ikepolicy_id', 'ikeproposal_id'),
    ike_proposal: joinFilter('vpn_ikepolicy_proposals', 'ikepolicy_id', 'ikeproposal_id', { table: 'vpn_ikeproposal', column: 'name' }),
  },
});

/** Algorithms offered in IKE phase 2 (IPSec security associations). */
export const IpsecProposalResource = defineResource({
  appLabel: 'vpn',
  model: 'ipsecproposal',
  path: 'ipsec-proposals',
  verboseName: 'IPSec proposal',
  graphqlName: 'ipsec_proposal',
  table: 'vpn_ipsecproposal',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    encryption_algorithm: choice(ENCRYPTION_ALGORITHM_CHOICES, { blank: true, label: 'encryption' }),
    authentication_algorithm: choice(AUTHENTICATION_ALGORITHM_CHOICES, { blank: true, label: 'authentication' }),
    sa_lifetime_seconds: integer({ min: 0, max: 2147483647, nullable: true, label: 'SA lifetime (seconds)' }),
    sa_lifetime_data: integer({ min: 0, max: 2147483647, nullable: true, label: 'SA lifetime (KB)' }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  validate: (values): Record<string, string[]> =>
    !values.encryption_algorithm && !values.authentication_algorithm
      ? { non_field_errors: ['Encryption and/or authentication algorithm must be defined'] }
      : {},
  extraFilters: {
    ipsec_policy_id: joinFilter('vpn_ipsecpolicy_proposals', 'ipsecproposal_id', 'ipsecpolicy_id'),
    ipsec_policy: joinFilter('vpn_ipsecpolicy_proposals', 'ipsecproposal_id', 'ipsecpolicy_id', {
      table: 'vpn_ipsecpolicy',
      column: 'name',
    }),
  },
});

/** IKE phase 2: its proposals and the Diffie-Hellman group for perfect forward secrecy. */
export const IpsecPolicyResource = defineResource({
  appLabel: 'vpn',
  model: 'ipsecpolicy',
  path: 'ipsec-policies',
  verboseName: 'IPSec policy',
  graphqlName: 'ipsec_policy',
  table: 'vpn_ipsecpolicy',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    proposals: many(() => IpsecProposalResource),
    pfs_group: choice(DH_GROUP_CHOICES, { blank: true, numeric: true, label: 'PFS group' }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  extraFilters: {
    ipsec_proposal_id: joinFilter('vpn_ipsecpolicy_proposals', 'ipsecpolicy_id', 'ipsecproposal_id'),
    ipsec_proposal: joinFilter('vpn_ipsecpolicy_proposals', 'ipsecpolicy_id', 'ipsecproposal_id', {
      table: 'vpn_ipsecproposal',
      column: 'name',
    }),
  },
});

/** An IKE policy and an IPSec policy together, as a tunnel uses them. */
export const IpsecProfileResource = defineResource({
  appLabel: 'vpn',
  model: 'ipsecprofile',
  path: 'ipsec-profiles',
  verboseName: 'IPSec profile',
  graphqlName: 'ipsec_profile',
  table: 'vpn_ipsecprofile',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    mode: choice(IPSEC_MODE_CHOICES, { required: true }),
    ike_policy: relation(() => IkePolicyResource, { onDelete: 'PROTECT', required: true, label: 'IKE policy' }),
    ipsec_policy: relation(() => IpsecPolicyResource, { onDelete: 'PROTECT', required: true, label: 'IPSec policy' }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
});

//
// L2VPNs
//

/** A layer 2 VPN (VPLS, VXLAN, EVPN, …) with its route targets. */
export const L2vpnResource = defineResource({
  appLabel: 'vpn',
  model: 'l2vpn',
  path: 'l2vpns',
  verboseName: 'L2VPN',
  graphqlName: 'l2vpn',
  table: 'vpn_l2vpn',
  fields: {
    identifier: integer({ big: true, nullable: true }),
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: text({
      maxLength: 100,
      required: true,
      unique: true,
      pattern: { regex: /^[-a-zA-Z0-9_]+$/, message: 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.' },
    }),
    type: choice(L2VPN_TYPE_CHOICES, { required: true }),
    status: choice(L2VPN_STATUS_CHOICES, { default: 'active' }),
    import_targets: many('ipam.routetarget'),
    export_targets: many('ipam.routetarget'),
    description: text({ maxLength: 200, search: true }),
    comments: longText(),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
  },
  display: (row) => (row.identifier ? `${String(row.name)} (${Number(row.identifier)})` : String(row.name)),
  brief: ['identifier', 'name', 'slug', 'type', 'description'],
  ordering: ['name', 'identifier'],
  extraFilters: {
    import_target_id: joinFilter('vpn_l2vpn_import_targets', 'l2vpn_id', 'routetarget_id'),
    import_target: joinFilter('vpn_l2vpn_import_targets', 'l2vpn_id', 'routetarget_id', { table: 'ipam_routetarget', column: 'name' }),
    export_target_id: joinFilter('vpn_l2vpn_export_targets', 'l2vpn_id', 'routetarget_id'),
    export_target: joinFilter('vpn_l2vpn_export_targets', 'l2vpn_id', 'routetarget_id', { table: 'ipam_routetarget', column: 'name' }),
  },
});

const L2VPN_TYPE_LABELS = new Map<string, string>(L2VPN_TYPE_CHOICES.map(([value, label]) => [value, label]));

/** A point-to-point L2VPN has at most two terminations. */
async function pointToPointLimit(manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, string[]>> {
  const [l2vpn] = (await manager.query(
    `SELECT v.type, (SELECT COUNT(*)::int FROM vpn_l2vpntermination t WHERE t.l2vpn_id = v.id AND t.id <> $2) AS others
       FROM vpn_l2vpn v WHERE v.id = $1`,
    [values.l2vpn_id, values.id ?? 0],
  )) as Array<{ type: string; others: number }>;
  if (!l2vpn || !L2VPN_P2P_TYPES.includes(l2vpn.type) || l2vpn.others < 2) return {};
  return {
    non_field_errors: [
      `${L2VPN_TYPE_LABELS.get(l2vpn.type) ?? l2vpn.type} L2VPNs cannot have more than two terminations; found ${l2vpn.others} already defined.`,
    ],
  };
}

/** An L2VPN's attachment to an interface, a VM interface or a VLAN; each of them is on one L2VPN at most. */
export const L2vpnTerminationResource = defineResource({
  appLabel: 'vpn',
  model: 'l2vpntermination',
  path: 'l2vpn-terminations',
  verboseName: 'L2VPN termination',
  graphqlName: 'l2vpn_termination',
  table: 'vpn_l2vpntermination',
  fields: {
    l2vpn: relation(() => L2vpnResource, { onDelete: 'CASCADE', required: true, label: 'L2VPN' }),
    assigned_object: genericRelation({
      required: true,
      onDelete: 'CASCADE',
      allowedTypes: ['dcim.interface', 'ipam.vlan', 'virtualization.vminterface'],
    }),
  },
  display: (row) => `L2VPN termination ${String(row.id)}`,
  brief: ['l2vpn'],
  ordering: ['l2vpn', 'id'],
  uniqueTogether: [
    {
      fields: ['assigned_object_type_id', 'assigned_object_id'],
      violation: { field: 'non_field_errors', message: 'L2VPN Termination already assigned.' },
    },
  ],
  relatedObject: 'l2vpn',
  validateAsync: pointToPointLimit,
  searchRelated: [{ relation: 'l2vpn', column: 'name' }],
  extraFilters: {
    region_id: terminationSiteFilter('s.region_id IN (:values)', 'id'),
    region: terminationSiteFilter('s.region_id IN (SELECT id FROM dcim_region WHERE slug IN (:values))', 'text'),
    site_id: terminationSiteFilter('s.id IN (:values)', 'id'),
    site: terminationSiteFilter('s.slug IN (:values)', 'text'),
    device_id: assignedFilter('assigned_object', 'dcim.interface', 'SELECT id FROM dcim_interface WHERE device_id IN (:values)'),
    device: assignedFilter(
      'assigned_object',
      'dcim.interface',
      'SELECT i.id FROM dcim_interface i JOIN dcim_device d ON d.id = i.device_id WHERE d.name IN (:values)',
      'text',
    ),
    virtual_machine_id: assignedFilter(
      'assigned_object',
      'virtualization.vminterface',
      'SELECT id FROM virtualization_vminterface WHERE virtual_machine_id IN (:values)',
    ),
    virtual_machine: assignedFilter(
      'assigned_object',
      'virtualization.vminterface',
      'SELECT i.id FROM virtualization_vminterface i JOIN virtualization_virtualmachine m ON m.id = i.virtual_machine_id WHERE m.name IN (:values)',
      'text',
    ),
    interface_id: assignedFilter('assigned_object', 'dcim.interface'),
    interface: assignedFilter('assigned_object', 'dcim.interface', 'SELECT id FROM dcim_interface WHERE name IN (:values)', 'text'),
    vminterface_id: assignedFilter('assigned_object', 'virtualization.vminterface'),
    vminterface: assignedFilter(
      'assigned_object',
      'virtualization.vminterface',
      'SELECT id FROM virtualization_vminterface WHERE name IN (:values)',
      'text',
    ),
    vlan_id: assignedFilter('assigned_object', 'ipam.vlan'),
    vlan: assignedFilter('assigned_object', 'ipam.vlan', 'SELECT id FROM ipam_vlan WHERE name IN (:values)', 'text'),
    vlan_vid: assignedFilter('assigned_object', 'ipam.vlan', 'SELECT id FROM ipam_vlan WHERE vid::text IN (:values)', 'text'),
  },
});
