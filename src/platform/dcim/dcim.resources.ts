import { deviceCertificatesProperty } from './device-certificates.property';
import {
  boolean,
  choice,
  color,
  decimal,
  genericRelation,
  integer,
  json,
  longText,
  many,
  relation,
  RelationField,
  slug,
  text,
} from '../framework/resource/fields';
import { configContextProperty, contextDataProblems } from '../extras/config-contexts';
import { ConfigTemplateResource } from '../extras/extras.resources';
import {
  defineResource,
  ResourceDeclaration,
  ResourceDefinition,
  ResourceExtension,
  ResourceHookContext,
  ResourceRow,
} from '../framework/resource/resource-definition';
import { TenantResource } from '../tenancy/tenancy.resources';
import {
  CABLE_FILTERS,
  CABLE_TERMINATION_TABLE,
  CABLED_FILTER,
  cableEndsInGraphql,
  cableTerminationsExtension,
} from './cable-terminations';
import {
  linkPeersExtension,
  pathEndpointExtension,
  pathHooks,
  pathsAction,
  recomputeForCable,
  recomputeThrough,
  traceAction,
} from './cable-paths';
import { renderDeviceConfig } from './device-config';
import { installedModuleExtension } from './installed-modules';
import { frontPortRearPortsExtension } from './front-port-rear-ports';
import {
  CABLE_STATUS_CHOICES,
  CABLE_TYPE_CHOICES,
  DEVICE_AIRFLOW_CHOICES,
  DEVICE_FACE_CHOICES,
  DEVICE_STATUS_CHOICES,
  INTERFACE_TYPE_CHOICES,
  LENGTH_UNIT_CHOICES,
  MAX_PORT_POSITIONS,
  MODULE_STATUS_CHOICES,
  PORT_TYPE_CHOICES,
  STATUS_CHOICES,
  SUBDEVICE_ROLE_CHOICES,
} from './dcim.choices';
import { instantiateComponents } from './component-instantiation';
import { exactlyOneOf, locationRules, moduleBayOnDevice, moduleOnDevice, portMappingRules } from './dcim.rules';
import { deviceRackRules } from './rack-rules';
import { deviceAddressRules } from './device-addresses';
import { parentDeviceExtension } from './parent-device';
import { throughFilter } from '../framework/resource/extra-filters';
import { interfaceMacAddresses, primaryMacAssigned } from './mac-addresses';
import { INTERFACE_MODE_CHOICES, interfaceVlanProblems, InterfaceVlanSubject } from '../ipam/interface-vlans';
import { defineOrganizationalResource, treeFilter } from '../framework/resource/organizational';
import { countsOf } from '../framework/resource/computed-properties';
import type { EntityManager } from 'typeorm';

const positions = () => integer({ min: 1, max: MAX_PORT_POSITIONS, default: 1 });

export const RegionResource = defineOrganizationalResource({
  appLabel: 'dcim',
  model: 'region',
  path: 'regions',
  verboseName: 'region',
  table: 'dcim_region',
  tree: true,
});

export const SiteGroupResource = defineOrganizationalResource({
  appLabel: 'dcim',
  model: 'sitegroup',
  path: 'site-groups',
  verboseName: 'site group',
  table: 'dcim_sitegroup',
  tree: true,
});

export const SiteResource = defineResource({
  appLabel: 'dcim',
  model: 'site',
  path: 'sites',
  verboseName: 'site',
  table: 'dcim_site',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug(),
    status: choice(STATUS_CHOICES, { default: 'active' }),
    region: relation(() => RegionResource, { onDelete: 'SET NULL', noFilter: true }),
    group: relation(() => SiteGroupResource, { onDelete: 'SET NULL', noFilter: true }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    facility: text({ maxLength: 50, search: true }),
    time_zone: text({ maxLength: 63 }),
    physical_address: text({ maxLength: 200, search: true }),
    shipping_address: text({ maxLength: 200, search: true }),
    latitude: decimal({ precision: 8, scale: 6, min: -90, max: 90, nullable: true }),
    longitude: decimal({ precision: 9, scale: 6, min: -180, max: 180, nullable: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
  // NetBox's tree filters: a region or site group selects the sites of its descendants too.
  extraFilters: {
    region_id: treeFilter('region_id', 'dcim_region', 'id'),
    region: treeFilter('region_id', 'dcim_region', 'slug'),
    group_id: treeFilter('group_id', 'dcim_sitegroup', 'id'),
    group: treeFilter('group_id', 'dcim_sitegroup', 'slug'),
  },
});

export const LocationResource = defineResource({
  appLabel: 'dcim',
  model: 'location',
  path: 'locations',
  verboseName: 'location',
  table: 'dcim_location',
  fields: {
    name: text({ maxLength: 100, required: true, search: true }),
    slug: slug({ unique: false }),
    site: relation(() => SiteResource, { onDelete: 'CASCADE', required: true }),
    parent: relation(() => LocationResource, { onDelete: 'CASCADE' }),
    status: choice(STATUS_CHOICES, { default: 'active' }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    facility: text({ maxLength: 50, search: true }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
  uniqueTogether: [
    { fields: ['site', 'parent', 'name'], nullsEqual: true },
    { fields: ['site', 'parent', 'slug'], nullsEqual: true },
  ],
  relatedObject: 'site',
  validateAsync: locationRules(),
});

export const ManufacturerResource = defineOrganizationalResource({
  appLabel: 'dcim',
  model: 'manufacturer',
  path: 'manufacturers',
  verboseName: 'manufacturer',
  table: 'dcim_manufacturer',
  extensions: [
    countsOf({
      devicetype_count: { table: 'dcim_devicetype', column: 'manufacturer_id' },
      moduletype_count: { table: 'dcim_moduletype', column: 'manufacturer_id' },
      inventoryitem_count: { table: 'dcim_inventoryitem', column: 'manufacturer_id' },
      platform_count: { table: 'dcim_platform', column: 'manufacturer_id' },
    }),
  ],
});

export const DeviceRoleResource = defineOrganizationalResource({
  appLabel: 'dcim',
  model: 'devicerole',
  path: 'device-roles',
  verboseName: 'device role',
  table: 'dcim_devicerole',
  fields: { color: color({ default: '9e9e9e' }), vm_role: boolean({ default: true }) },
  brief: ['name', 'slug', 'description', 'device_count', 'virtualmachine_count'],
  extensions: [hostedCounts('role_id')],
});

export const PlatformResource = defineOrganizationalResource({
  appLabel: 'dcim',
  model: 'platform',
  path: 'platforms',
  verboseName: 'platform',
  table: 'dcim_platform',
  fields: { manufacturer: relation(() => ManufacturerResource, { onDelete: 'PROTECT' }) },
  brief: ['name', 'slug', 'description', 'device_count', 'virtualmachine_count'],
  extensions: [hostedCounts('platform_id')],
});

/** The devices and virtual machines naming a role or platform in `column`. */
function hostedCounts(column: string) {
  return countsOf({
    device_count: { table: 'dcim_device', column },
    virtualmachine_count: { table: 'virtualization_virtualmachine', column },
  });
}

/** A device or module type's component templates, counted as NetBox's `<component>_template_count`. */
function templateCounts(column: string, tables: readonly string[]) {
  const names: Record<string, string> = {
    consoleporttemplate: 'console_port_template_count',
    consoleserverporttemplate: 'console_server_port_template_count',
    powerporttemplate: 'power_port_template_count',
    poweroutlettemplate: 'power_outlet_template_count',
    interfacetemplate: 'interface_template_count',
    frontporttemplate: 'front_port_template_count',
    rearporttemplate: 'rear_port_template_count',
    devicebaytemplate: 'device_bay_template_count',
    modulebaytemplate: 'module_bay_template_count',
    inventoryitemtemplate: 'inventory_item_template_count',
  };
  return Object.fromEntries(tables.map((table) => [names[table], { table: `dcim_${table}`, column }]));
}

const MODULAR_TEMPLATES = [
  'consoleporttemplate',
  'consoleserverporttemplate',
  'powerporttemplate',
  'poweroutlettemplate',
  'interfacetemplate',
  'frontporttemplate',
  'rearporttemplate',
  'modulebaytemplate',
] as const;

export const DeviceTypeResource = defineResource({
  appLabel: 'dcim',
  model: 'devicetype',
  path: 'device-types',
  verboseName: 'device type',
  table: 'dcim_devicetype',
  fields: {
    manufacturer: relation(() => ManufacturerResource, { onDelete: 'PROTECT', required: true }),
    model: text({ maxLength: 100, required: true, search: true }),
    slug: slug({ unique: false }),
    part_number: text({ maxLength: 50, search: true }),
    u_height: decimal({ precision: 4, scale: 1, min: 0, max: 100, default: 1 }),
    is_full_depth: boolean({ default: true }),
    subdevice_role: choice(SUBDEVICE_ROLE_CHOICES, { blank: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.model),
  brief: ['manufacturer', 'model', 'slug', 'description', 'device_count'],
  extensions: [
    countsOf({
      device_count: { table: 'dcim_device', column: 'device_type_id' },
      ...templateCounts('device_type_id', [...MODULAR_TEMPLATES, 'devicebaytemplate', 'inventoryitemtemplate']),
    }),
  ],
  ordering: ['model'],
  uniqueTogether: [
    ['manufacturer', 'model'],
    ['manufacturer', 'slug'],
  ],
  validate: (values): Record<string, string[]> =>
    values.subdevice_role === 'child' && Number(values.u_height ?? 1) !== 0 ? { u_height: ['Child device types must be 0U.'] } : {},
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    if (values.subdevice_role === 'parent' || values.id === undefined) return {};
    const [template] = (await manager.query('SELECT 1 FROM dcim_devicebaytemplate WHERE device_type_id = $1 LIMIT 1', [
      values.id,
    ])) as unknown[];
    return template
      ? { subdevice_role: ['Must delete all device bay templates associated with this device before declassifying it as a parent device.'] }
      : {};
  },
});

export const ModuleTypeResource = defineResource({
  appLabel: 'dcim',
  model: 'moduletype',
  path: 'module-types',
  verboseName: 'module type',
  table: 'dcim_moduletype',
  fields: {
    manufacturer: relation(() => ManufacturerResource, { onDelete: 'PROTECT', required: true }),
    model: text({ maxLength: 100, required: true, search: true }),
    part_number: text({ maxLength: 50, search: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.model),
  brief: ['manufacturer', 'model', 'description', 'module_count'],
  extensions: [
    countsOf({ module_count: { table: 'dcim_module', column: 'module_type_id' }, ...templateCounts('module_type_id', MODULAR_TEMPLATES) }),
  ],
  ordering: ['model'],
  uniqueTogether: [['manufacturer', 'model']],
});

/** Templates belong to a device type or a module type, never both. */
const templateParents = {
  device_type: relation(() => DeviceTypeResource, { onDelete: 'CASCADE' }),
  module_type: relation(() => ModuleTypeResource, { onDelete: 'CASCADE' }),
};
const templateDisplay = (row: ResourceRow) => String(row.name);

/** Front- and rear-port templates: the same fields on a device or module type. */
function portTemplate(declaration: { model: string; path: string; verboseName: string; table: string; extensions?: ResourceExtension[] }) {
  return defineResource({
    appLabel: 'dcim',
    ...declaration,
    fields: {
      ...templateParents,
      name: text({ maxLength: 64, required: true, search: true }),
      label: text({ maxLength: 64, search: true }),
      type: choice(PORT_TYPE_CHOICES, { required: true }),
      color: color(),
      positions: positions(),
      description: text({ maxLength: 200, search: true }),
    },
    display: templateDisplay,
    brief: ['name', 'description'],
    ordering: ['name'],
    uniqueTogether: [
      ['device_type', 'name'],
      ['module_type', 'name'],
    ],
    validate: exactlyOneOf('device_type', 'module_type'),
    standard: { tags: false, customFields: false },
  });
}

export const RearPortTemplateResource = portTemplate({
  model: 'rearporttemplate',
  path: 'rear-port-templates',
  verboseName: 'rear port template',
  table: 'dcim_rearporttemplate',
});

export const FrontPortTemplateResource = portTemplate({
  model: 'frontporttemplate',
  path: 'front-port-templates',
  verboseName: 'front port template',
  table: 'dcim_frontporttemplate',
  extensions: [
    frontPortRearPortsExtension({
      mapping: 'dcim_porttemplatemapping',
      rear: 'dcim_rearporttemplate',
      parents: [
        { key: 'device_type', column: 'device_type_id' },
        { key: 'module_type', column: 'module_type_id' },
      ],
    }),
  ],
});

/**
 * Which front-port position is wired to which rear-port position: inside a device or module type
 * (templates), or inside one device.
 */
function portMapping({
  parents,
  front,
  rear,
  ...declaration
}: Omit<ResourceDeclaration, 'appLabel' | 'fields' | 'display' | 'brief' | 'ordering' | 'uniqueTogether' | 'standard'> & {
  parents: Record<string, RelationField>;
  front: () => ResourceDefinition;
  rear: () => ResourceDefinition;
}): ResourceDefinition {
  return defineResource({
    appLabel: 'dcim',
    ...declaration,
    fields: {
      ...parents,
      front_port: relation(front, { onDelete: 'CASCADE', required: true }),
      front_port_position: positions(),
      rear_port: relation(rear, { onDelete: 'CASCADE', required: true }),
      rear_port_position: positions(),
    },
    display: (row) =>
      `${String(row.front_port_id)}:${String(row.front_port_position)} ↔ ${String(row.rear_port_id)}:${String(row.rear_port_position)}`,
    brief: ['front_port_position', 'rear_port_position'],
    ordering: ['front_port', 'front_port_position'],
    uniqueTogether: [
      ['front_port', 'front_port_position'],
      ['rear_port', 'rear_port_position'],
    ],
    standard: { tags: false, customFields: false },
  });
}

export const PortTemplateMappingResource = portMapping({
  model: 'porttemplatemapping',
  path: 'port-template-mappings',
  verboseName: 'port template mapping',
  table: 'dcim_porttemplatemapping',
  parents: templateParents,
  front: () => FrontPortTemplateResource,
  rear: () => RearPortTemplateResource,
  validate: exactlyOneOf('device_type', 'module_type'),
  validateAsync: portMappingRules('dcim_frontporttemplate', 'dcim_rearporttemplate', ['device_type_id', 'module_type_id']),
});

/** A module bay of a device type, or of a module type (a bay in a module, made when the module is installed). */
export const ModuleBayTemplateResource = defineResource({
  appLabel: 'dcim',
  model: 'modulebaytemplate',
  path: 'module-bay-templates',
  verboseName: 'module bay template',
  table: 'dcim_modulebaytemplate',
  fields: {
    ...templateParents,
    name: text({ maxLength: 64, required: true, search: true }),
    label: text({ maxLength: 64, search: true }),
    position: text({ maxLength: 30 }),
    description: text({ maxLength: 200, search: true }),
  },
  display: templateDisplay,
  brief: ['name', 'description'],
  ordering: ['name'],
  uniqueTogether: [
    ['device_type', 'name'],
    ['module_type', 'name'],
  ],
  validate: exactlyOneOf('device_type', 'module_type'),
  standard: { tags: false, customFields: false },
});

export const DeviceResource = defineResource({
  appLabel: 'dcim',
  model: 'device',
  path: 'devices',
  verboseName: 'device',
  table: 'dcim_device',
  fields: {
    name: text({ maxLength: 64, nullable: true, search: true }),
    device_type: relation(() => DeviceTypeResource, { onDelete: 'PROTECT', required: true, createOnly: true }),
    role: relation(() => DeviceRoleResource, { onDelete: 'PROTECT', required: true }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    platform: relation(() => PlatformResource, { onDelete: 'SET NULL' }),
    serial: text({ maxLength: 50, search: true }),
    asset_tag: text({ maxLength: 50, nullable: true, unique: true, search: true }),
    site: relation(() => SiteResource, { onDelete: 'PROTECT', required: true }),
    location: relation(() => LocationResource, { onDelete: 'SET NULL' }),
    rack: relation('dcim.rack', { onDelete: 'PROTECT' }),
    position: decimal({ precision: 4, scale: 1, min: 0.5, max: 999.5, nullable: true }),
    face: choice(DEVICE_FACE_CHOICES, { blank: true }),
    airflow: choice(DEVICE_AIRFLOW_CHOICES, { blank: true }),
    status: choice(DEVICE_STATUS_CHOICES, { default: 'active' }),
    cluster: relation('virtualization.cluster', { onDelete: 'SET NULL' }),
    virtual_chassis: relation('dcim.virtualchassis', { onDelete: 'SET NULL', clearAlso: { vc_position: null, vc_priority: null } }),
    vc_position: integer({ min: 0, max: 255, nullable: true }),
    vc_priority: integer({ min: 0, max: 255, nullable: true }),
    primary_ip4: relation('ipam.ipaddress', { onDelete: 'SET NULL', unique: true, label: 'primary IPv4' }),
    primary_ip6: relation('ipam.ipaddress', { onDelete: 'SET NULL', unique: true, label: 'primary IPv6' }),
    oob_ip: relation('ipam.ipaddress', { onDelete: 'SET NULL', unique: true, label: 'out-of-band IP' }),
    config_template: relation(() => ConfigTemplateResource, { onDelete: 'SET NULL' }),
    local_context_data: json({ validate: contextDataProblems, noFilter: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  extensions: [
    configContextProperty('device'),
    parentDeviceExtension(),
    countsOf({
      console_port_count: { table: 'dcim_consoleport', column: 'device_id' },
      console_server_port_count: { table: 'dcim_consoleserverport', column: 'device_id' },
      power_port_count: { table: 'dcim_powerport', column: 'device_id' },
      power_outlet_count: { table: 'dcim_poweroutlet', column: 'device_id' },
      interface_count: { table: 'dcim_interface', column: 'device_id' },
      front_port_count: { table: 'dcim_frontport', column: 'device_id' },
      rear_port_count: { table: 'dcim_rearport', column: 'device_id' },
      device_bay_count: { table: 'dcim_devicebay', column: 'device_id' },
      module_bay_count: { table: 'dcim_modulebay', column: 'device_id' },
      inventory_item_count: { table: 'dcim_inventoryitem', column: 'device_id' },
    }),
    deviceCertificatesProperty(),
  ],
  display: (row) => (row.name ? String(row.name) : `Unnamed device (${row.id})`),
  brief: ['name', 'description'],
  ordering: ['name', 'id'],
  uniqueTogether: [{ fields: ['site', 'tenant', 'name'], nullsEqual: true, caseInsensitive: ['name'] }, ['virtual_chassis', 'vc_position']],
  validateAsync: async (manager, values) => {
    const child = await childDeviceRules(manager, values);
    if (Object.keys(child).length > 0) return child;
    const cluster = await deviceClusterRules(manager, values);
    if (Object.keys(cluster).length > 0) return cluster;
    return { ...(await deviceRackRules(manager, values)), ...(await deviceAddressRules(manager, values)) };
  },
  extraFilters: {
    parent_device_id: throughFilter('id', 'SELECT installed_device_id FROM dcim_devicebay WHERE device_id IN (:values)'),
    parent_bay_id: throughFilter('id', 'SELECT installed_device_id FROM dcim_devicebay WHERE id IN (:values)'),
  },
  actions: [
    {
      name: 'render-config',
      method: 'POST',
      permission: 'view',
      safePost: true,
      openapi: {
        summary: "Render the device's config template with the device as `device`",
        request: { type: 'object', description: 'Ignored (NetBox accepts extra context here; this platform does not).' },
        response: {
          type: 'object',
          required: ['configtemplate', 'content'],
          properties: { configtemplate: { $ref: '#/components/schemas/BriefExtrasConfigtemplate' }, content: { type: 'string' } },
        },
      },
      handle: async ({ manager, row, scope, serializer }) => {
        const [device] = await serializer.serialize(manager, DeviceResource, [row], 'full', scope.baseUrl);
        return renderDeviceConfig(manager, serializer, scope.baseUrl, row, device, `${scope.principal.kind}:${scope.principal.id}`);
      },
    },
  ],
  afterCreate: (context: ResourceHookContext, row: ResourceRow) =>
    instantiateComponents(context, { device: row.id }, { column: 'device_type_id', id: row.device_type_id as number }),
});

/** A device's cluster is scoped to the device's site (or a location of it) and location, when the cluster names them. */
async function deviceClusterRules(manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, string[]>> {
  if (values.cluster_id == null) return {};
  const [cluster] = (await manager.query(
    `SELECT s.id AS site_id, s.name AS site, l.id AS location_id, l.name AS location
       FROM virtualization_cluster c LEFT JOIN core_objecttype t ON t.id = c.scope_type_id AND t.app_label = 'dcim'
       LEFT JOIN dcim_location l ON t.model = 'location' AND l.id = c.scope_id
       LEFT JOIN dcim_site s ON s.id = CASE t.model WHEN 'site' THEN c.scope_id WHEN 'location' THEN l.site_id END
      WHERE c.id = $1`,
    [values.cluster_id],
  )) as Array<{ site_id: number | null; site: string | null; location_id: number | null; location: string | null }>;
  if (cluster?.site_id != null && cluster.site_id !== values.site_id) {
    return { cluster: [`The assigned cluster belongs to a different site (${cluster.site})`] };
  }
  if (cluster?.location_id != null && cluster.location_id !== (values.location_id ?? null)) {
    return { cluster: [`The assigned cluster belongs to a different location (${cluster.location})`] };
  }
  return {};
}

/** A child device's rack face and position are its parent's: it takes neither itself. */
async function childDeviceRules(manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, string[]>> {
  if (values.rack_id == null || (!values.face && values.position == null)) return {};
  const [type] = (await manager.query('SELECT subdevice_role FROM dcim_devicetype WHERE id = $1', [values.device_type_id])) as Array<{
    subdevice_role: string | null;
  }>;
  if (type?.subdevice_role !== 'child') return {};
  return values.face
    ? { face: ['Child device types cannot be assigned to a rack face. This is an attribute of the parent device.'] }
    : { position: ['Child device types cannot be assigned to a rack position. This is an attribute of the parent device.'] };
}

export const ModuleBayResource = defineResource({
  appLabel: 'dcim',
  model: 'modulebay',
  path: 'module-bays',
  verboseName: 'module bay',
  table: 'dcim_modulebay',
  fields: {
    device: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true }),
    module: relation('dcim.module', { onDelete: 'CASCADE' }),
    name: text({ maxLength: 64, required: true, search: true }),
    label: text({ maxLength: 64, search: true }),
    position: text({ maxLength: 30 }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => String(row.name),
  brief: ['installed_module', 'name', 'description'],
  ordering: ['device', 'name'],
  uniqueTogether: [['device', 'name']],
  relatedObject: 'device',
  validateAsync: moduleOnDevice,
  extensions: [installedModuleExtension()],
});

export const ModuleResource = defineResource({
  appLabel: 'dcim',
  model: 'module',
  path: 'modules',
  verboseName: 'module',
  table: 'dcim_module',
  fields: {
    device: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true }),
    module_bay: relation(() => ModuleBayResource, { onDelete: 'CASCADE', required: true, unique: true }),
    module_type: relation(() => ModuleTypeResource, { onDelete: 'PROTECT', required: true, createOnly: true }),
    status: choice(MODULE_STATUS_CHOICES, { default: 'active' }),
    serial: text({ maxLength: 50, search: true }),
    asset_tag: text({ maxLength: 50, nullable: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => `Module ${row.id}`,
  brief: ['device', 'module_bay', 'module_type', 'description'],
  ordering: ['device', 'module_bay'],
  relatedObject: 'device',
  validateAsync: moduleBayOnDevice,
  afterCreate: (context: ResourceHookContext, row: ResourceRow) =>
    instantiateComponents(
      context,
      { device: row.device_id, module: row.id },
      { column: 'module_type_id', id: row.module_type_id as number },
    ),
});

const portFields = () => ({
  device: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true }),
  module: relation(() => ModuleResource, { onDelete: 'CASCADE' }),
  name: text({ maxLength: 64, required: true, search: true }),
  label: text({ maxLength: 64, search: true }),
  type: choice(PORT_TYPE_CHOICES, { required: true }),
  color: color(),
  positions: positions(),
  mark_connected: boolean({ default: false }),
  description: text({ maxLength: 200, search: true }),
  ...cableEndpointFields(),
});

export const RearPortResource = defineResource({
  appLabel: 'dcim',
  model: 'rearport',
  path: 'rear-ports',
  verboseName: 'rear port',
  table: 'dcim_rearport',
  fields: portFields(),
  display: (row) => String(row.name),
  brief: ['device', 'name', 'cable', 'description'],
  ordering: ['device', 'name'],
  uniqueTogether: [['device', 'name']],
  extraFilters: CABLED_FILTER,
  relatedObject: 'device',
  extensions: [linkPeersExtension('dcim.rearport')],
  actions: [traceAction('dcim.rearport'), pathsAction('dcim.rearport')],
  ...pathHooks('dcim.rearport'),
});

export const FrontPortResource = defineResource({
  appLabel: 'dcim',
  model: 'frontport',
  path: 'front-ports',
  verboseName: 'front port',
  table: 'dcim_frontport',
  fields: portFields(),
  display: (row) => String(row.name),
  brief: ['device', 'name', 'cable', 'description'],
  ordering: ['device', 'name'],
  uniqueTogether: [['device', 'name']],
  extraFilters: CABLED_FILTER,
  relatedObject: 'device',
  extensions: [
    frontPortRearPortsExtension({ mapping: 'dcim_portmapping', rear: 'dcim_rearport', parents: [{ key: 'device', column: 'device_id' }] }),
    linkPeersExtension('dcim.frontport'),
  ],
  actions: [traceAction('dcim.frontport'), pathsAction('dcim.frontport')],
  ...pathHooks('dcim.frontport'),
});

/** Front-port position ↔ rear-port position inside one device (NetBox 4.5's PortMapping). */
export const PortMappingResource = portMapping({
  model: 'portmapping',
  path: 'port-mappings',
  verboseName: 'port mapping',
  table: 'dcim_portmapping',
  parents: { device: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true }) },
  front: () => FrontPortResource,
  rear: () => RearPortResource,
  relatedObject: 'device',
  validateAsync: portMappingRules('dcim_frontport', 'dcim_rearport', ['device_id']),
  // A changed mapping reroutes every path through either port.
  afterCreate: (context: ResourceHookContext, row: ResourceRow) => recomputeThrough(context.manager, mappedPorts(row)),
  afterUpdate: (context: ResourceHookContext, before: ResourceRow, after: ResourceRow) =>
    recomputeThrough(context.manager, [...mappedPorts(before), ...mappedPorts(after)]),
  afterDelete: (context: ResourceHookContext, row: ResourceRow) => recomputeThrough(context.manager, mappedPorts(row)),
});

function mappedPorts(row: ResourceRow): Array<[string, number]> {
  return [
    ['dcim.frontport', row.front_port_id as number],
    ['dcim.rearport', row.rear_port_id as number],
  ];
}

const DEVICE_INTERFACE_VLANS: InterfaceVlanSubject = {
  parentNoun: 'device',
  parentTable: 'dcim_device',
  parentColumn: 'device_id',
  taggedTable: 'dcim_interface_tagged_vlans',
  taggedColumn: 'interface_id',
  modeChecks: true,
};

export const InterfaceResource = defineResource({
  appLabel: 'dcim',
  model: 'interface',
  path: 'interfaces',
  verboseName: 'interface',
  table: 'dcim_interface',
  fields: {
    device: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true }),
    module: relation(() => ModuleResource, { onDelete: 'CASCADE' }),
    name: text({ maxLength: 64, required: true, search: true }),
    label: text({ maxLength: 64, search: true }),
    type: choice(INTERFACE_TYPE_CHOICES, { required: true }),
    enabled: boolean({ default: true }),
    mtu: integer({ min: 1, max: 65536, nullable: true }),
    mgmt_only: boolean({ default: false }),
    mark_connected: boolean({ default: false }),
    description: text({ maxLength: 200, search: true }),
    vdcs: many('dcim.virtualdevicecontext'),
    primary_mac_address: relation('dcim.macaddress', { onDelete: 'SET NULL', unique: true }),
    mode: choice(INTERFACE_MODE_CHOICES, { blank: true, label: '802.1Q mode' }),
    untagged_vlan: relation('ipam.vlan', { onDelete: 'SET NULL', label: 'untagged VLAN' }),
    tagged_vlans: many('ipam.vlan', { label: 'tagged VLANs' }),
    qinq_svlan: relation('ipam.vlan', { onDelete: 'SET NULL', label: 'Q-in-Q SVLAN' }),
    vlan_translation_policy: relation('ipam.vlantranslationpolicy', { onDelete: 'PROTECT', label: 'VLAN translation policy' }),
    ...cableEndpointFields(),
  },
  display: (row) => String(row.name),
  brief: ['device', 'name', 'cable', 'description'],
  ordering: ['device', 'name'],
  uniqueTogether: [['device', 'name']],
  extraFilters: CABLED_FILTER,
  relatedObject: 'device',
  extensions: [pathEndpointExtension('dcim.interface'), interfaceMacAddresses('dcim.interface')],
  validateAsync: async (manager, values, body) => ({
    ...(await primaryMacAssigned('dcim.interface')(manager, values)),
    ...(await interfaceVlanProblems(manager, DEVICE_INTERFACE_VLANS, values, body)),
  }),
  actions: [traceAction('dcim.interface')],
  ...pathHooks('dcim.interface'),
});

/** What a cable can end on: the `cable` it is attached to and which end, both set by the cable's terminations. */
export function cableEndpointFields() {
  return {
    cable: relation(() => CableResource, { onDelete: 'SET NULL', readOnly: true, clearAlso: { cable_end: null } }),
    cable_end: text({ maxLength: 1, nullable: true, readOnly: true }),
  };
}

export const CableResource = defineResource({
  appLabel: 'dcim',
  model: 'cable',
  path: 'cables',
  verboseName: 'cable',
  table: 'dcim_cable',
  fields: {
    type: choice(CABLE_TYPE_CHOICES, { blank: true }),
    status: choice(CABLE_STATUS_CHOICES, { default: 'connected' }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    label: text({ maxLength: 100, search: true }),
    color: color(),
    length: decimal({ precision: 8, scale: 2, min: 0, nullable: true }),
    length_unit: choice(LENGTH_UNIT_CHOICES, { blank: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => (row.label ? String(row.label) : `#${row.id}`),
  brief: ['label', 'description'],
  ordering: ['id'],
  extensions: [cableTerminationsExtension()],
  graphql: {
    lists: { terminations: { objectType: 'dcim.cabletermination', field: 'cable' } },
    unionLists: cableEndsInGraphql(),
  },
  extraFilters: CABLE_FILTERS,
  afterCreate: (context: ResourceHookContext, row: ResourceRow) => recomputeForCable(context.manager, row.id),
  afterUpdate: (context: ResourceHookContext, _before: ResourceRow, after: ResourceRow) => recomputeForCable(context.manager, after.id),
  afterDelete: (context: ResourceHookContext, row: ResourceRow) => recomputeThrough(context.manager, [['dcim.cable', row.id]]),
  validate: (values): Record<string, string[]> =>
    values.length !== null && values.length !== undefined && !values.length_unit
      ? { length_unit: ['Must specify a unit when setting a cable length'] }
      : {},
});

/** One object a cable end is attached to (written through the cable's `a_terminations`/`b_terminations`). */
export const CableTerminationResource = defineResource({
  appLabel: 'dcim',
  model: 'cabletermination',
  path: 'cable-terminations',
  verboseName: 'cable termination',
  table: CABLE_TERMINATION_TABLE,
  fields: {
    cable: relation(() => CableResource, { onDelete: 'CASCADE', required: true }),
    cable_end: choice(
      [
        ['A', 'A'],
        ['B', 'B'],
      ],
      { required: true },
    ),
    termination: genericRelation({ required: true, onDelete: 'CASCADE' }),
    positions: json({ nullable: true, noFilter: true }),
    connector: integer({ min: 1, max: 256, nullable: true }),
  },
  display: (row) => `Cable ${String(row.cable_id)} end ${String(row.cable_end)}`,
  brief: ['cable', 'cable_end'],
  ordering: ['cable', 'cable_end', 'id'],
  readOnly: true,
  relatedObject: 'cable',
  standard: { tags: false, customFields: false },
});
