import type { EntityManager } from 'typeorm';

type Problems = Record<string, string[]>;

const ADDRESS_FIELDS = [
  ['primary_ip4', 4],
  ['primary_ip6', 6],
  ['oob_ip', null],
] as const;

/**
 * NetBox's rules for a device's primary and out-of-band addresses: each is assigned to one of the
 * device's interfaces (or, on a virtual chassis's master, to a member's), and a primary address is
 * of its field's family.
 */
export async function deviceAddressRules(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  const chosen = ADDRESS_FIELDS.filter(([field]) => values[`${field}_id`] != null);
  if (chosen.length === 0) return {};
  const addresses = (await manager.query(
    `SELECT a.id, a.address::text AS address, family(a.address) AS family,
            (t.app_label = 'dcim' AND t.model = 'interface' AND a.assigned_object_id IN (
              SELECT i.id FROM dcim_interface i JOIN dcim_device d ON d.id = i.device_id
               WHERE d.id = $2
                  OR (d.virtual_chassis_id IS NOT NULL
                      AND d.virtual_chassis_id = (SELECT vc.id FROM dcim_virtualchassis vc WHERE vc.master_id = $2)))) AS own
       FROM ipam_ipaddress a LEFT JOIN core_objecttype t ON t.id = a.assigned_object_type_id
      WHERE a.id = ANY($1)`,
    [chosen.map(([field]) => values[`${field}_id`]), values.id ?? 0],
  )) as Array<{ id: number; address: string; family: number; own: boolean | null }>;
  const problems: Problems = {};
  for (const [field, family] of chosen) {
    const ip = addresses.find((address) => address.id === values[`${field}_id`]);
    if (!ip) continue;
    if (family !== null && ip.family !== family) problems[field] = [`${ip.address} is not an IPv${family} address.`];
    else if (!ip.own) problems[field] = [`The specified IP address (${ip.address}) is not assigned to this device.`];
  }
  return problems;
}
