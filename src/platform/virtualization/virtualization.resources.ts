import { EntityManager } from 'typeorm';
import { DeviceRoleResource, PlatformResource } from '../dcim/dcim.resources';
import { interfaceMacAddresses, primaryMacAssigned } from '../dcim/mac-addresses';
import { configContextProperty, contextDataProblems } from '../extras/config-contexts';
import { ConfigTemplateResource } from '../extras/extras.resources';
import { throughFilter } from '../framework/resource/extra-filters';
import { countsOf } from '../framework/resource/computed-properties';
import { boolean, choice, decimal, genericRelation, integer, json, longText, many, relation, text } from '../framework/resource/fields';
import { defineOrganizationalResource } from '../framework/resource/organizational';
import { defineResource, ResourceHookContext, ResourceRow } from '../framework/resource/resource-definition';
import { assignedAddressProblems } from '../ipam/assigned-addresses';
import { INTERFACE_MODE_CHOICES, interfaceVlanProblems, InterfaceVlanSubject } from '../ipam/interface-vlans';
import { IpAddressResource, VlanResource, VlanTranslationPolicyResource, VrfResource } from '../ipam/ipam.resources';
import { TenantResource } from '../tenancy/tenancy.resources';

type Problems = Record<string, string[]>;

export const ClusterTypeResource = defineOrganizationalResource({
  appLabel: 'virtualization',
  model: 'clustertype',
  path: 'cluster-types',
  verboseName: 'cluster type',
  table: 'virtualization_clustertype',
  fields: { comments: longText({ search: true }) },
  brief: ['name', 'slug', 'description', 'cluster_count'],
  extensions: [countsOf({ cluster_count: { table: 'virtualization_cluster', column: 'type_id' } })],
});

export const ClusterGroupResource = defineOrganizationalResource({
  appLabel: 'virtualization',
  model: 'clustergroup',
  path: 'cluster-groups',
  verboseName: 'cluster group',
  table: 'virtualization_clustergroup',
  fields: { comments: longText({ search: true }) },
  brief: ['name', 'slug', 'description', 'cluster_count'],
  extensions: [countsOf({ cluster_count: { table: 'virtualization_cluster', column: 'group_id' } })],
});

/** Where a cluster is (NetBox 4.2's scope). */
export const CLUSTER_SCOPE_TYPES = ['dcim.region', 'dcim.sitegroup', 'dcim.site', 'dcim.location'];

/** A cluster of hosts (devices) running virtual machines. */
export const ClusterResource = defineResource({
  appLabel: 'virtualization',
  model: 'cluster',
  path: 'clusters',
  verboseName: 'cluster',
  table: 'virtualization_cluster',
  fields: {
    name: text({ maxLength: 100, required: true, search: true }),
    type: relation(() => ClusterTypeResource, { onDelete: 'PROTECT', required: true }),
    group: relation(() => ClusterGroupResource, { onDelete: 'PROTECT' }),
    status: choice(
      [
        ['planned', 'Planned'],
        ['staging', 'Staging'],
        ['active', 'Active'],
        ['decommissioning', 'Decommissioning'],
        ['offline', 'Offline'],
      ],
      { default: 'active' },
    ),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    scope: genericRelation({ onDelete: 'CASCADE', allowedTypes: CLUSTER_SCOPE_TYPES }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description', 'virtualmachine_count'],
  ordering: ['name'],
  uniqueTogether: [['group', 'name']],
  extensions: [
    countsOf({
      device_count: { table: 'dcim_device', column: 'cluster_id' },
      virtualmachine_count: { table: 'virtualization_virtualmachine', column: 'cluster_id' },
    }),
  ],
  extraFilters: {
    site_id: scopeSiteFilter('id'),
    site: scopeSiteFilter('slug'),
  },
});

/** Clusters scoped to the given sites (by id or slug) or to a location on one of them. */
function scopeSiteFilter(key: 'id' | 'slug') {
  const sites = key === 'id' ? ':values' : 'SELECT id FROM dcim_site WHERE slug IN (:values)';
  const type = (model: string) => `(SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = '${model}')`;
  return throughFilter(
    'id',
    `SELECT id FROM virtualization_cluster WHERE (scope_type_id = ${type('site')} AND scope_id IN (${sites}))
        OR (scope_type_id = ${type('location')} AND scope_id IN (SELECT id FROM dcim_location WHERE site_id IN (${sites})))`,
    key === 'id' ? 'id' : 'text',
  );
}

const VIRTUAL_MACHINE_STATUS_CHOICES = [
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['decommissioning', 'Decommissioning'],
  ['paused', 'Paused'],
] as const;

/** NetBox's rules on where a VM is: a site or a cluster; a host device only with a cluster; primary IPs of its own family and interfaces. */
async function virtualMachineRules(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  if (values.site_id == null && values.cluster_id == null) {
    return { cluster: ['A virtual machine must be assigned to a site and/or cluster.'] };
  }
  if (values.device_id != null && values.cluster_id == null) return { device: ['Must specify a cluster when assigning a host device.'] };
  if (values.cluster_id != null && values.site_id != null) {
    const [cluster] = (await manager.query(
      `SELECT c.name, CASE t.model WHEN 'site' THEN c.scope_id WHEN 'location' THEN (SELECT site_id FROM dcim_location WHERE id = c.scope_id) END AS site_id
         FROM virtualization_cluster c LEFT JOIN core_objecttype t ON t.id = c.scope_type_id WHERE c.id = $1`,
      [values.cluster_id],
    )) as Array<{ name: string; site_id: number | null }>;
    if (cluster && cluster.site_id != null && cluster.site_id !== values.site_id) {
      return { cluster: [`The selected cluster (${cluster.name}) is not assigned to this site.`] };
    }
  }
  if (values.id !== undefined && values.disk != null) {
    const [disks] = (await manager.query('SELECT sum(size)::int AS total FROM virtualization_virtualdisk WHERE virtual_machine_id = $1', [
      values.id,
    ])) as Array<{ total: number | null }>;
    if (disks?.total != null && Number(values.disk) !== disks.total) {
      return {
        disk: [
          `The specified disk size (${String(values.disk)}) must match the aggregate size of assigned virtual disks (${disks.total}).`,
        ],
      };
    }
  }
  return assignedAddressProblems(
    manager,
    values,
    [
      ['primary_ip4', 4],
      ['primary_ip6', 6],
    ],
    {
      interfaceType: 'virtualization.vminterface',
      interfaceIds: 'SELECT id FROM virtualization_vminterface WHERE virtual_machine_id = $1',
      noun: 'VM',
    },
  );
}

/** A virtual machine, on a site and/or a cluster (and optionally a host device of the cluster). */
export const VirtualMachineResource = defineResource({
  appLabel: 'virtualization',
  model: 'virtualmachine',
  path: 'virtual-machines',
  verboseName: 'virtual machine',
  table: 'virtualization_virtualmachine',
  fields: {
    name: text({ maxLength: 64, required: true, search: true }),
    status: choice(VIRTUAL_MACHINE_STATUS_CHOICES, { default: 'active' }),
    start_on_boot: choice(
      [
        ['on', 'On'],
        ['off', 'Off'],
        ['laststate', 'Last State'],
      ],
      { default: 'off' },
    ),
    site: relation('dcim.site', { onDelete: 'PROTECT' }),
    cluster: relation(() => ClusterResource, { onDelete: 'PROTECT' }),
    device: relation('dcim.device', { onDelete: 'PROTECT' }),
    serial: text({ maxLength: 50, search: true, label: 'serial number' }),
    role: relation(() => DeviceRoleResource, { onDelete: 'PROTECT' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    platform: relation(() => PlatformResource, { onDelete: 'SET NULL' }),
    primary_ip4: relation(() => IpAddressResource, { onDelete: 'SET NULL', label: 'primary IPv4' }),
    primary_ip6: relation(() => IpAddressResource, { onDelete: 'SET NULL', label: 'primary IPv6' }),
    vcpus: decimal({ precision: 6, scale: 2, min: 0.01, nullable: true, label: 'virtual CPUs' }),
    memory: integer({ min: 0, max: 2_147_483_647, nullable: true, label: 'memory (MB)' }),
    disk: integer({ min: 0, max: 2_147_483_647, nullable: true, label: 'disk (MB)' }),
    config_template: relation(() => ConfigTemplateResource, { onDelete: 'PROTECT' }),
    local_context_data: json({ validate: contextDataProblems, noFilter: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name', 'id'],
  uniqueTogether: [{ fields: ['cluster', 'tenant', 'name'], nullsEqual: true, caseInsensitive: ['name'] }],
  validateAsync: virtualMachineRules,
  // NetBox fills an empty `disk` from the virtual disks.
  afterUpdate: (context: ResourceHookContext, _before: ResourceRow, after: ResourceRow) => syncDisk(context.manager, [after.id], false),
  extensions: [
    configContextProperty('virtualmachine'),
    countsOf({
      interface_count: { table: 'virtualization_vminterface', column: 'virtual_machine_id' },
      virtual_disk_count: { table: 'virtualization_virtualdisk', column: 'virtual_machine_id' },
    }),
  ],
});

const VM_INTERFACE_VLANS: InterfaceVlanSubject = {
  parentNoun: 'virtual machine',
  parentTable: 'virtualization_virtualmachine',
  parentColumn: 'virtual_machine_id',
  taggedTable: 'virtualization_vminterface_tagged_vlans',
  taggedColumn: 'vminterface_id',
  modeChecks: false,
};

/** A VM interface's parent and bridge are other interfaces of the same VM. */
async function vmInterfaceRules(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  const problems: Problems = {};
  for (const field of ['parent', 'bridge'] as const) {
    const id = values[`${field}_id`];
    if (id == null) continue;
    if (values.id !== undefined && id === values.id) {
      problems[field] = [field === 'parent' ? 'An interface cannot be its own parent.' : 'An interface cannot be bridged to itself.'];
      continue;
    }
    const [other] = (await manager.query('SELECT virtual_machine_id FROM virtualization_vminterface WHERE id = $1', [id])) as Array<{
      virtual_machine_id: number;
    }>;
    if (other && other.virtual_machine_id !== values.virtual_machine_id) {
      problems[field] = [`The selected ${field} interface belongs to a different virtual machine.`];
    }
  }
  return problems;
}

/** A virtual machine's network interface. */
export const VmInterfaceResource = defineResource({
  appLabel: 'virtualization',
  model: 'vminterface',
  path: 'interfaces',
  verboseName: 'interface',
  graphqlName: 'vm_interface',
  table: 'virtualization_vminterface',
  fields: {
    virtual_machine: relation(() => VirtualMachineResource, { onDelete: 'CASCADE', required: true }),
    name: text({ maxLength: 64, required: true, search: true }),
    enabled: boolean({ default: true }),
    parent: relation(() => VmInterfaceResource, { onDelete: 'CASCADE', label: 'parent interface' }),
    bridge: relation(() => VmInterfaceResource, { onDelete: 'SET NULL', label: 'bridge interface' }),
    mtu: integer({ min: 1, max: 65536, nullable: true, label: 'MTU' }),
    description: text({ maxLength: 200, search: true }),
    mode: choice(INTERFACE_MODE_CHOICES, { blank: true, label: '802.1Q mode' }),
    untagged_vlan: relation(() => VlanResource, { onDelete: 'SET NULL' }),
    tagged_vlans: many(() => VlanResource),
    qinq_svlan: relation(() => VlanResource, { onDelete: 'SET NULL', label: 'Q-in-Q SVLAN' }),
    vrf: relation(() => VrfResource, { onDelete: 'SET NULL', label: 'VRF' }),
    vlan_translation_policy: relation(() => VlanTranslationPolicyResource, { onDelete: 'PROTECT', label: 'VLAN translation policy' }),
    primary_mac_address: relation('dcim.macaddress', { onDelete: 'SET NULL', unique: true }),
  },
  display: (row) => String(row.name),
  brief: ['virtual_machine', 'name', 'description'],
  ordering: ['virtual_machine', 'name'],
  uniqueTogether: [['virtual_machine', 'name']],
  relatedObject: 'virtual_machine',
  validateAsync: async (manager, values, body): Promise<Problems> => {
    const problems = await vmInterfaceRules(manager, values);
    if (Object.keys(problems).length > 0) return problems;
    return {
      ...(await primaryMacAssigned('virtualization.vminterface')(manager, values)),
      ...(await interfaceVlanProblems(manager, VM_INTERFACE_VLANS, values, body)),
    };
  },
  extensions: [interfaceMacAddresses('virtualization.vminterface')],
  extraFilters: {
    cluster_id: throughFilter('virtual_machine_id', 'SELECT id FROM virtualization_virtualmachine WHERE cluster_id IN (:values)'),
  },
});

/** A virtual machine's disk, its size in MB. */
export const VirtualDiskResource = defineResource({
  appLabel: 'virtualization',
  model: 'virtualdisk',
  path: 'virtual-disks',
  verboseName: 'virtual disk',
  table: 'virtualization_virtualdisk',
  fields: {
    virtual_machine: relation(() => VirtualMachineResource, { onDelete: 'CASCADE', required: true }),
    name: text({ maxLength: 64, required: true, search: true }),
    size: integer({ min: 0, max: 2_147_483_647, required: true, label: 'size (MB)' }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => String(row.name),
  brief: ['virtual_machine', 'name', 'description', 'size'],
  ordering: ['virtual_machine', 'name'],
  uniqueTogether: [['virtual_machine', 'name']],
  relatedObject: 'virtual_machine',
  afterCreate: (context: ResourceHookContext, row: ResourceRow) => syncDisk(context.manager, [row.virtual_machine_id], true),
  afterUpdate: (context: ResourceHookContext, before: ResourceRow, after: ResourceRow) =>
    syncDisk(context.manager, [before.virtual_machine_id, after.virtual_machine_id], true),
  afterDelete: (context: ResourceHookContext, row: ResourceRow) => syncDisk(context.manager, [row.virtual_machine_id], true),
});

/**
 * A virtual machine's `disk` is the sum of its virtual disks' sizes, set (unrecorded, as NetBox's
 * signal sets it) when a disk changes, and then null without disks; `disksChanged` false (the VM
 * itself was saved) fills it only where the VM has disks.
 */
async function syncDisk(manager: EntityManager, machines: readonly unknown[], disksChanged: boolean): Promise<void> {
  await manager.query(
    `UPDATE virtualization_virtualmachine vm SET disk = d.total
       FROM (SELECT m.id, (SELECT sum(size) FROM virtualization_virtualdisk WHERE virtual_machine_id = m.id)::int AS total
               FROM virtualization_virtualmachine m WHERE m.id = ANY($1)) d
      WHERE vm.id = d.id AND ($2::boolean OR d.total IS NOT NULL) AND vm.disk IS DISTINCT FROM d.total`,
    [machines, disksChanged],
  );
}
