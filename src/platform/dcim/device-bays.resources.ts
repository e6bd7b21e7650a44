import type { EntityManager } from 'typeorm';
import { relation, text } from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';
import { DeviceResource, DeviceTypeResource } from './dcim.resources';

type Problems = Record<string, string[]>;

/** A device type's model and subdevice role. */
async function deviceTypeOf(
  manager: EntityManager,
  where: string,
  id: unknown,
): Promise<{ model: string; role: string | null } | undefined> {
  const [type] = (await manager.query(`SELECT t.model, t.subdevice_role AS role FROM dcim_devicetype t WHERE t.id = ${where}`, [
    id,
  ])) as Array<{ model: string; role: string | null }>;
  return type;
}

/** A space in a parent device that houses one child device. */
export const DeviceBayResource = defineResource({
  appLabel: 'dcim',
  model: 'devicebay',
  path: 'device-bays',
  verboseName: 'device bay',
  table: 'dcim_devicebay',
  fields: {
    device: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true }),
    name: text({ maxLength: 64, required: true, search: true }),
    label: text({ maxLength: 64, search: true }),
    description: text({ maxLength: 200, search: true }),
    installed_device: relation(() => DeviceResource, { onDelete: 'SET NULL', unique: true }),
  },
  display: (row) => String(row.name),
  brief: ['device', 'name', 'description'],
  ordering: ['device', 'name'],
  uniqueTogether: [['device', 'name']],
  relatedObject: 'device',
  validateAsync: deviceBayRules,
});

/**
 * NetBox's rules on a bay: only a parent device has bays, and what it houses is a child device other
 * than itself (`installed_device` is unique: a device is in one bay at most).
 */
async function deviceBayRules(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  const parentType = await deviceTypeOf(manager, '(SELECT device_type_id FROM dcim_device WHERE id = $1)', values.device_id);
  if (parentType && parentType.role !== 'parent') {
    return { device: [`This type of device (${parentType.model}) does not support device bays.`] };
  }
  const installed = values.installed_device_id;
  if (installed == null) return {};
  if (installed === values.device_id) return { installed_device: ['Cannot install a device into itself.'] };
  const childType = await deviceTypeOf(manager, '(SELECT device_type_id FROM dcim_device WHERE id = $1)', installed);
  return childType && childType.role !== 'child'
    ? { installed_device: [`The device's type (${childType.model}) is not a child device type.`] }
    : {};
}

/** A device bay of a parent device type, made into a device bay of each new device of the type. */
export const DeviceBayTemplateResource = defineResource({
  appLabel: 'dcim',
  model: 'devicebaytemplate',
  path: 'device-bay-templates',
  verboseName: 'device bay template',
  table: 'dcim_devicebaytemplate',
  fields: {
    device_type: relation(() => DeviceTypeResource, { onDelete: 'CASCADE', required: true }),
    name: text({ maxLength: 64, required: true, search: true }),
    label: text({ maxLength: 64, search: true }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['device_type', 'name'],
  uniqueTogether: [['device_type', 'name']],
  standard: { tags: false, customFields: false },
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    const type = await deviceTypeOf(manager, '$1', values.device_type_id);
    return type && type.role !== 'parent'
      ? { device_type: [`Subdevice role of device type (${type.model}) must be set to "parent" to allow device bays.`] }
      : {};
  },
});
