import { boolean, choice, color, genericRelation, integer, longText, relation, text } from '../framework/resource/fields';
import type { EntityManager } from 'typeorm';
import { defineOrganizationalResource, noParentCycle } from '../framework/resource/organizational';
import { defineResource, ResourceAction } from '../framework/resource/resource-definition';
import type { FieldSpec } from '../framework/resource/resource-declaration';
import { countsOf } from '../framework/resource/computed-properties';
import { CABLED_FILTER } from './cable-terminations';
import { pathEndpointExtension, traceAction } from './cable-paths';
import {
  CONSOLE_PORT_SPEED_CHOICES,
  CONSOLE_PORT_TYPE_CHOICES,
  INTERFACE_TYPE_CHOICES,
  INVENTORY_ITEM_STATUS_CHOICES,
  POE_MODE_CHOICES,
  POE_TYPE_CHOICES,
  POWER_OUTLET_FEED_LEG_CHOICES,
  POWER_OUTLET_STATUS_CHOICES,
  POWER_OUTLET_TYPE_CHOICES,
  POWER_PORT_TYPE_CHOICES,
} from './dcim.choices';
import {
  cableEndpointFields,
  DeviceResource,
  DeviceTypeResource,
  ManufacturerResource,
  ModuleResource,
  ModuleTypeResource,
} from './dcim.resources';
import { exactlyOneOf } from './dcim.rules';

const WIRELESS_ROLE_CHOICES = [
  ['ap', 'Access point'],
  ['station', 'Station'],
] as const;

/** A component template: on a device type or a module type (never both), named uniquely on it. */
function componentTemplate(model: string, path: string, verboseName: string, fields: Record<string, FieldSpec>) {
  return defineResource({
    appLabel: 'dcim',
    model,
    path,
    verboseName,
    table: `dcim_${model}`,
    fields: {
      device_type: relation(() => DeviceTypeResource, { onDelete: 'CASCADE' }),
      module_type: relation(() => ModuleTypeResource, { onDelete: 'CASCADE' }),
      name: text({ maxLength: 64, required: true, search: true }),
      label: text({ maxLength: 64, search: true }),
      ...fields,
      description: text({ maxLength: 200, search: true }),
    },
    display: (row) => String(row.name),
    brief: ['name', 'description'],
    ordering: ['device_type', 'module_type', 'name'],
    uniqueTogether: [
      ['device_type', 'name'],
      ['module_type', 'name'],
    ],
    validate: exactlyOneOf('device_type', 'module_type'),
    standard: { tags: false, customFields: false },
  });
}

export const ConsolePortTemplateResource = componentTemplate('consoleporttemplate', 'console-port-templates', 'console port template', {
  type: choice(CONSOLE_PORT_TYPE_CHOICES, { blank: true }),
});

export const ConsoleServerPortTemplateResource = componentTemplate(
  'consoleserverporttemplate',
  'console-server-port-templates',
  'console server port template',
  { type: choice(CONSOLE_PORT_TYPE_CHOICES, { blank: true }) },
);

const powerDraw = () => ({
  maximum_draw: integer({ min: 1, max: 2147483647, nullable: true }),
  allocated_draw: integer({ min: 1, max: 2147483647, nullable: true }),
});

export const PowerPortTemplateResource = componentTemplate('powerporttemplate', 'power-port-templates', 'power port template', {
  type: choice(POWER_PORT_TYPE_CHOICES, { blank: true }),
  ...powerDraw(),
});

export const PowerOutletTemplateResource = componentTemplate('poweroutlettemplate', 'power-outlet-templates', 'power outlet template', {
  type: choice(POWER_OUTLET_TYPE_CHOICES, { blank: true }),
  color: color(),
  power_port: relation(() => PowerPortTemplateResource, { onDelete: 'SET NULL' }),
  feed_leg: choice(POWER_OUTLET_FEED_LEG_CHOICES, { blank: true }),
});

export const InterfaceTemplateResource = componentTemplate('interfacetemplate', 'interface-templates', 'interface template', {
  type: choice(INTERFACE_TYPE_CHOICES, { required: true }),
  enabled: boolean({ default: true }),
  mgmt_only: boolean({ default: false }),
  bridge: relation(() => InterfaceTemplateResource, { onDelete: 'SET NULL' }),
  poe_mode: choice(POE_MODE_CHOICES, { blank: true }),
  poe_type: choice(POE_TYPE_CHOICES, { blank: true }),
  rf_role: choice(WIRELESS_ROLE_CHOICES, { blank: true }),
});

/** A device's component that a cable can end on, with the stored cable path it originates (`trace/`). */
function cabledComponent(
  model: string,
  path: string,
  verboseName: string,
  fields: Record<string, FieldSpec>,
  actions: ResourceAction[] = [],
) {
  const objectType = `dcim.${model}`;
  return defineResource({
    appLabel: 'dcim',
    model,
    path,
    verboseName,
    table: `dcim_${model}`,
    fields: {
      device: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true }),
      module: relation(() => ModuleResource, { onDelete: 'CASCADE' }),
      name: text({ maxLength: 64, required: true, search: true }),
      label: text({ maxLength: 64, search: true }),
      ...fields,
      description: text({ maxLength: 200, search: true }),
      mark_connected: boolean({ default: false }),
      ...cableEndpointFields(),
    },
    display: (row) => String(row.name),
    brief: ['device', 'name', 'description', 'cable'],
    ordering: ['device', 'name'],
    uniqueTogether: [['device', 'name']],
    extraFilters: CABLED_FILTER,
    relatedObject: 'device',
    extensions: [pathEndpointExtension(objectType)],
    actions: [traceAction(objectType), ...actions],
  });
}

export const ConsolePortResource = cabledComponent('consoleport', 'console-ports', 'console port', {
  type: choice(CONSOLE_PORT_TYPE_CHOICES, { blank: true }),
  speed: choice(CONSOLE_PORT_SPEED_CHOICES, { blank: true, numeric: true }),
});

export const ConsoleServerPortResource = cabledComponent('consoleserverport', 'console-server-ports', 'console server port', {
  type: choice(CONSOLE_PORT_TYPE_CHOICES, { blank: true }),
  speed: choice(CONSOLE_PORT_SPEED_CHOICES, { blank: true, numeric: true }),
});

export const PowerPortResource = cabledComponent('powerport', 'power-ports', 'power port', {
  type: choice(POWER_PORT_TYPE_CHOICES, { blank: true }),
  ...powerDraw(),
});

export const PowerOutletResource = cabledComponent('poweroutlet', 'power-outlets', 'power outlet', {
  type: choice(POWER_OUTLET_TYPE_CHOICES, { blank: true }),
  status: choice(POWER_OUTLET_STATUS_CHOICES, { default: 'enabled' }),
  color: color(),
  power_port: relation(() => PowerPortResource, { onDelete: 'SET NULL' }),
  feed_leg: choice(POWER_OUTLET_FEED_LEG_CHOICES, { blank: true }),
});

export const InventoryItemRoleResource = defineOrganizationalResource({
  appLabel: 'dcim',
  model: 'inventoryitemrole',
  path: 'inventory-item-roles',
  verboseName: 'inventory item role',
  table: 'dcim_inventoryitemrole',
  fields: { color: color({ default: '9e9e9e' }), comments: longText({ search: true }) },
  brief: ['name', 'slug', 'description', 'inventoryitem_count'],
  extensions: [
    countsOf({
      inventoryitem_count: { table: 'dcim_inventoryitem', column: 'role_id' },
      inventoryitemtemplate_count: { table: 'dcim_inventoryitemtemplate', column: 'role_id' },
    }),
  ],
});

/** What an inventory item (or its template) may stand for: one of its device's components. */
const INVENTORY_COMPONENT_TYPES = [
  'dcim.consoleport',
  'dcim.consoleserverport',
  'dcim.frontport',
  'dcim.interface',
  'dcim.poweroutlet',
  'dcim.powerport',
  'dcim.rearport',
];
const INVENTORY_TEMPLATE_COMPONENT_TYPES = [
  'dcim.consoleporttemplate',
  'dcim.consoleserverporttemplate',
  'dcim.frontporttemplate',
  'dcim.interfacetemplate',
  'dcim.poweroutlettemplate',
  'dcim.powerporttemplate',
  'dcim.rearporttemplate',
];

export const InventoryItemResource = defineResource({
  appLabel: 'dcim',
  model: 'inventoryitem',
  path: 'inventory-items',
  verboseName: 'inventory item',
  table: 'dcim_inventoryitem',
  fields: {
    device: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true }),
    parent: relation(() => InventoryItemResource, { onDelete: 'CASCADE' }),
    name: text({ maxLength: 64, required: true, search: true }),
    label: text({ maxLength: 64, search: true }),
    status: choice(INVENTORY_ITEM_STATUS_CHOICES, { default: 'active' }),
    role: relation(() => InventoryItemRoleResource, { onDelete: 'SET NULL' }),
    manufacturer: relation(() => ManufacturerResource, { onDelete: 'PROTECT' }),
    part_id: text({ maxLength: 50, search: true }),
    serial: text({ maxLength: 50, search: true }),
    asset_tag: text({ maxLength: 50, nullable: true, unique: true, search: true }),
    discovered: boolean({ default: false }),
    description: text({ maxLength: 200, search: true }),
    component: genericRelation({ onDelete: 'SET NULL', allowedTypes: INVENTORY_COMPONENT_TYPES }),
  },
  display: (row) => String(row.name),
  brief: ['device', 'name', 'description'],
  ordering: ['device', 'parent', 'name'],
  uniqueTogether: [['device', 'parent', 'name']],
  relatedObject: 'device',
  validateAsync: inventoryParentRules('dcim_inventoryitem', 'device_id'),
});

export const InventoryItemTemplateResource = defineResource({
  appLabel: 'dcim',
  model: 'inventoryitemtemplate',
  path: 'inventory-item-templates',
  verboseName: 'inventory item template',
  table: 'dcim_inventoryitemtemplate',
  fields: {
    device_type: relation(() => DeviceTypeResource, { onDelete: 'CASCADE', required: true }),
    parent: relation(() => InventoryItemTemplateResource, { onDelete: 'CASCADE' }),
    name: text({ maxLength: 64, required: true, search: true }),
    label: text({ maxLength: 64, search: true }),
    role: relation(() => InventoryItemRoleResource, { onDelete: 'SET NULL' }),
    manufacturer: relation(() => ManufacturerResource, { onDelete: 'PROTECT' }),
    part_id: text({ maxLength: 50, search: true }),
    description: text({ maxLength: 200, search: true }),
    component: genericRelation({ onDelete: 'SET NULL', allowedTypes: INVENTORY_TEMPLATE_COMPONENT_TYPES }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['device_type', 'parent', 'name'],
  uniqueTogether: [['device_type', 'parent', 'name']],
  standard: { tags: false, customFields: false },
  validateAsync: inventoryParentRules('dcim_inventoryitemtemplate', 'device_type_id'),
});

/** An item's parent is an item of the same device (type), and no item becomes its own ancestor. */
function inventoryParentRules(table: string, ownerColumn: string) {
  const noCycle = noParentCycle(table);
  return async (manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, string[]>> => {
    if (values.parent_id == null) return {};
    const [parent] = (await manager.query(`SELECT ${ownerColumn} AS owner FROM ${table} WHERE id = $1`, [values.parent_id])) as Array<{
      owner: number;
    }>;
    if (parent && parent.owner !== values[ownerColumn]) return { parent: ['The parent item must belong to the same device.'] };
    return noCycle(manager, values);
  };
}
