import { ProtectedObjectError, type ResourceHookContext, type ResourceRow } from '../../platform/plugin-api';

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
 * A `beforeDeleteAll` for each kind of object a circuit path runs through: while a circuit that is
 * not decommissioned holds one of them, none can be deleted, directly or with its device, cable or
 * plan (409 naming the circuits). One query for all of them: a cable's 10 000 strands cost one.
 */
export function refuseWhileHeld(objectType: string) {
  const { column, label } = HELD_BY_NODES[objectType];
  return async (context: ResourceHookContext, rows: readonly ResourceRow[]): Promise<void> => {
    // The circuits holding the first held object (by id), in name order.
    const circuits = (await context.manager.query(
      `SELECT DISTINCT n.${column} AS id, c.name, c.status FROM fms_fibercircuitnode n
         JOIN fms_fibercircuitpath p ON p.id = n.path_id JOIN fms_fibercircuit c ON c.id = p.circuit_id
        WHERE n.${column} = (SELECT min(h.${column}) FROM fms_fibercircuitnode h
                               JOIN fms_fibercircuitpath hp ON hp.id = h.path_id JOIN fms_fibercircuit hc ON hc.id = hp.circuit_id
                              WHERE h.${column} = ANY($1) AND hc.status <> 'decommissioned')
          AND c.status <> 'decommissioned' ORDER BY c.name`,
      [rows.map((row) => row.id)],
    )) as Array<{ id: number; name: string; status: string }>;
    if (circuits.length > 0) {
      throw new ProtectedObjectError(
        `Cannot delete ${label} ${circuits[0].id}: it is held by fiber circuit(s) ${circuits.map((circuit) => `"${circuit.name}" (${circuit.status})`).join(', ')}; decommission them first.`,
      );
    }
  };
}
