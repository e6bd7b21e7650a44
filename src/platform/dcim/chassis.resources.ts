import type { EntityManager } from 'typeorm';
import { choice, genericRelation, integer, longText, relation, text } from '../framework/resource/fields';
import { defineResource, ResourceExtension } from '../framework/resource/resource-definition';
import { TenantResource } from '../tenancy/tenancy.resources';
import { VDC_STATUS_CHOICES } from './dcim.choices';
import { DeviceResource } from './dcim.resources';

const MAC_ADDRESS = /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$|^([0-9A-Fa-f]{4}\.){2}[0-9A-Fa-f]{4}$|^[0-9A-Fa-f]{12}$/;

export const VirtualChassisResource = defineResource({
  appLabel: 'dcim',
  model: 'virtualchassis',
  path: 'virtual-chassis',
  verboseName: 'virtual chassis',
  table: 'dcim_virtualchassis',
  graphqlName: 'virtual_chassis',
  fields: {
    name: text({ maxLength: 64, required: true, search: true }),
    domain: text({ maxLength: 30, search: true }),
    master: relation(() => DeviceResource, { onDelete: 'SET NULL', unique: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'master', 'description', 'member_count'],
  ordering: ['name'],
  extensions: [membersOfChassis()],
  validateAsync: async (manager: EntityManager, values): Promise<Record<string, string[]>> => {
    if (values.master_id == null) return {};
    const [master] = (await manager.query('SELECT virtual_chassis_id FROM dcim_device WHERE id = $1', [values.master_id])) as Array<{
      virtual_chassis_id: number | null;
    }>;
    return master && master.virtual_chassis_id !== (values.id ?? null)
      ? { master: [`The selected master is not assigned to this virtual chassis.`] }
      : {};
  },
});

export const VirtualDeviceContextResource = defineResource({
  appLabel: 'dcim',
  model: 'virtualdevicecontext',
  path: 'virtual-device-contexts',
  verboseName: 'virtual device context',
  table: 'dcim_virtualdevicecontext',
  fields: {
    name: text({ maxLength: 64, required: true, search: true }),
    device: relation(() => DeviceResource, { onDelete: 'PROTECT', required: true }),
    identifier: integer({ min: 0, max: 32767, nullable: true }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    primary_ip4: relation('ipam.ipaddress', { onDelete: 'SET NULL', unique: true }),
    primary_ip6: relation('ipam.ipaddress', { onDelete: 'SET NULL', unique: true }),
    status: choice(VDC_STATUS_CHOICES, { required: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'identifier', 'device', 'description'],
  ordering: ['name'],
  uniqueTogether: [
    ['device', 'identifier'],
    ['device', 'name'],
  ],
  relatedObject: 'device',
});

export const MacAddressResource = defineResource({
  appLabel: 'dcim',
  model: 'macaddress',
  path: 'mac-addresses',
  verboseName: 'MAC address',
  table: 'dcim_macaddress',
  graphqlName: 'mac_address',
  fields: {
    mac_address: text({
      maxLength: 17,
      required: true,
      search: true,
      pattern: { regex: MAC_ADDRESS, message: 'Enter a valid MAC address (e.g. 00:1A:2B:3C:4D:5E).' },
    }),
    assigned_object: genericRelation({ onDelete: 'SET NULL', allowedTypes: ['dcim.interface', 'virtualization.vminterface'] }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.mac_address),
  brief: ['mac_address', 'description'],
  ordering: ['mac_address', 'id'],
});

/** A virtual chassis's member devices (brief, by position) and their count: one query per page and one for the devices. */
function membersOfChassis(): ResourceExtension {
  return {
    keys: ['member_count', 'members'],
    readSchema: {
      member_count: { type: 'integer', readOnly: true },
      members: { type: 'array', readOnly: true, items: { $ref: '#/components/schemas/BriefDcimDevice' } },
    },
    async represent(manager, rows, baseUrl, serializer) {
      const members = (await manager.query(
        `SELECT id, virtual_chassis_id FROM dcim_device WHERE virtual_chassis_id = ANY($1) ORDER BY vc_position NULLS LAST, name, id`,
        [rows.map((row) => row.id)],
      )) as Array<{ id: number; virtual_chassis_id: number }>;
      const devices = await serializer.briefByIds(
        manager,
        'dcim.device',
        members.map((member) => member.id),
        baseUrl,
      );
      return new Map(
        rows.map((row) => {
          const own = members.filter((member) => member.virtual_chassis_id === row.id);
          return [row.id, { member_count: own.length, members: own.map((member) => devices.get(member.id) ?? null) }];
        }),
      );
    },
    snapshot: async () => new Map(),
    validate: async () => ({}),
    apply: async () => undefined,
  };
}
