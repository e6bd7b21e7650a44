import { ProtectedObjectError } from '../../platform/framework/resource/resource-errors';
import type { ResourceHookContext, ResourceRow } from '../../platform/framework/resource/resource-declaration';

/** Node columns by the object type they hold. */
const HELD_BY_NODES: Record<string, { column: string; label: string }> = {
  'dcim.cable': { column: 'cable_id', label: 'cable' },
  'dcim.frontport': { column: 'front_port_id', label: 'front port' },
  'dcim.rearport': { column: 'rear_port_id', label: 'rear port' },
  'fms.fiberstrand': { column: 'fiber_strand_id', label: 'fiber strand' },
  'fms.spliceplanentry': { column: 'splice_entry_id', label: 'splice plan entry' },
};

export const PROTECTED_OBJECT_TYPES = Object.keys(HELD_BY_NODES);

/**
 * A `beforeDelete` for each kind of object a circuit path runs through: while a circuit that is not
 * decommissioned holds it, it cannot be deleted, directly or with its device, cable or plan (409
 * naming the circuits).
 */
export function refuseWhileHeld(objectType: string) {
  const { column, label } = HELD_BY_NODES[objectType];
  return async (context: ResourceHookContext, row: ResourceRow): Promise<void> => {
    const circuits = (await context.manager.query(
      `SELECT DISTINCT c.name, c.status FROM fms_fibercircuitnode n
         JOIN fms_fibercircuitpath p ON p.id = n.path_id JOIN fms_fibercircuit c ON c.id = p.circuit_id
        WHERE n.${column} = $1 AND c.status <> 'decommissioned' ORDER BY c.name`,
      [row.id],
    )) as Array<{ name: string; status: string }>;
    if (circuits.length > 0) {
      throw new ProtectedObjectError(
        `Cannot delete ${label} ${row.id}: it is held by fiber circuit(s) ${circuits.map((circuit) => `"${circuit.name}" (${circuit.status})`).join(', ')}; decommission them first.`,
      );
    }
  };
}
