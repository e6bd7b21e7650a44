import type { EntityManager } from 'typeorm';
import type { ResourceExtension } from '../framework/resource/resource-declaration';

/** An interface model MAC addresses are assigned to: a device's (`dcim.interface`) or a VM's (`virtualization.vminterface`). */
type InterfaceModel = 'dcim.interface' | 'virtualization.vminterface';

/** The MAC addresses assigned to interfaces of the model, with the interface's id. */
function assignedTo(model: InterfaceModel): string {
  const [app, name] = model.split('.');
  return `SELECT m.id, m.mac_address, m.assigned_object_id AS interface_id FROM dcim_macaddress m
    JOIN core_objecttype ot ON ot.id = m.assigned_object_type_id AND ot.app_label = '${app}' AND ot.model = '${name}'`;
}

/**
 * An interface's MAC addresses as NetBox 4.2+ shows them: `mac_addresses` (those assigned to it,
 * brief) and `mac_address` (its primary one's address, read-only). One query per page.
 */
export function interfaceMacAddresses(model: InterfaceModel): ResourceExtension {
  return {
    keys: ['mac_address', 'mac_addresses'],
    readSchema: {
      mac_address: { type: 'string', nullable: true, readOnly: true },
      mac_addresses: { type: 'array', readOnly: true, items: { $ref: '#/components/schemas/BriefDcimMacaddress' } },
    },
    async represent(manager, rows, baseUrl, serializer) {
      const assigned = (await manager.query(`${assignedTo(model)} WHERE m.assigned_object_id = ANY($1) ORDER BY m.mac_address, m.id`, [
        rows.map((row) => row.id),
      ])) as Array<{ id: number; mac_address: string; interface_id: number }>;
      const primaries = (await manager.query('SELECT id, mac_address FROM dcim_macaddress WHERE id = ANY($1)', [
        rows.map((row) => row.primary_mac_address_id).filter((id) => id != null),
      ])) as Array<{ id: number; mac_address: string }>;
      const shown = await serializer.briefByIds(
        manager,
        'dcim.macaddress',
        assigned.map((mac) => mac.id),
        baseUrl,
      );
      return new Map(
        rows.map((row) => [
          row.id,
          {
            mac_address: primaries.find((mac) => mac.id === row.primary_mac_address_id)?.mac_address ?? null,
            mac_addresses: assigned.filter((mac) => mac.interface_id === row.id).map((mac) => shown.get(mac.id) ?? null),
          },
        ]),
      );
    },
    snapshot: async () => new Map(),
    validate: async () => ({}),
    apply: async () => undefined,
  };
}

/** An interface's primary MAC address is one assigned to that interface. */
export function primaryMacAssigned(model: InterfaceModel) {
  return async (manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, string[]>> => {
    if (values.primary_mac_address_id == null) return {};
    const [mac] = (await manager.query(`${assignedTo(model)} WHERE m.id = $1`, [values.primary_mac_address_id])) as Array<{
      mac_address: string;
      interface_id: number;
    }>;
    return mac && mac.interface_id === values.id ? {} : { primary_mac_address: ['The MAC address is not assigned to this interface.'] };
  };
}
