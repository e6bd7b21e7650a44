import type { EntityManager } from 'typeorm';

type Problems = Record<string, string[]>;

/** Where an object's chosen addresses must be assigned: interfaces of one type, those of the object given as $1. */
export interface AddressOwner {
  /** The interfaces' object type, `app_label.model`. */
  interfaceType: string;
  /** SQL answering the ids of the object's interfaces; `$1` is the object's id. */
  interfaceIds: string;
  /** The object as NetBox's messages name it ("device", "VM"). */
  noun: string;
}

/**
 * NetBox's rule for an object's primary (and out-of-band) addresses: each is assigned to one of the
 * object's interfaces, and a field with a family takes only that family. `fields` are the address
 * fields, each with its family or null; one statement for all of them.
 */
export async function assignedAddressProblems(
  manager: EntityManager,
  values: Record<string, unknown>,
  fields: ReadonlyArray<readonly [field: string, family: 4 | 6 | null]>,
  owner: AddressOwner,
): Promise<Problems> {
  const chosen = fields.filter(([field]) => values[`${field}_id`] != null);
  if (chosen.length === 0) return {};
  const [app, model] = owner.interfaceType.split('.');
  const addresses = (await manager.query(
    `SELECT a.id, a.address::text AS address, family(a.address) AS family,
            (t.app_label = $3 AND t.model = $4 AND a.assigned_object_id IN (${owner.interfaceIds})) AS own
       FROM ipam_ipaddress a LEFT JOIN core_objecttype t ON t.id = a.assigned_object_type_id
      WHERE a.id = ANY($2)`,
    [values.id ?? 0, chosen.map(([field]) => values[`${field}_id`]), app, model],
  )) as Array<{ id: number; address: string; family: number; own: boolean | null }>;
  const problems: Problems = {};
  for (const [field, family] of chosen) {
    const ip = addresses.find((address) => address.id === values[`${field}_id`]);
    if (!ip) continue;
    if (family !== null && ip.family !== family) problems[field] = [`${ip.address} is not an IPv${family} address.`];
    else if (!ip.own) problems[field] = [`The specified IP address (${ip.address}) is not assigned to this ${owner.noun}.`];
  }
  return problems;
}
