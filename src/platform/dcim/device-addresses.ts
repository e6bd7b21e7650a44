import type { EntityManager } from 'typeorm';
import { assignedAddressProblems } from '../ipam/assigned-addresses';

/**
 * NetBox's rules for a device's primary and out-of-band addresses: each is assigned to one of the
 * device's interfaces (or, on a virtual chassis's master, to a member's), and a primary address is
 * of its field's family.
 */
export function deviceAddressRules(manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, string[]>> {
  return assignedAddressProblems(
    manager,
    values,
    [
      ['primary_ip4', 4],
      ['primary_ip6', 6],
      ['oob_ip', null],
    ],
    {
      interfaceType: 'dcim.interface',
      interfaceIds: `SELECT i.id FROM dcim_interface i JOIN dcim_device d ON d.id = i.device_id
                      WHERE d.id = $1
                         OR (d.virtual_chassis_id IS NOT NULL
                             AND d.virtual_chassis_id = (SELECT vc.id FROM dcim_virtualchassis vc WHERE vc.master_id = $1))`,
      noun: 'device',
    },
  );
}
