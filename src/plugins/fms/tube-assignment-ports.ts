import type { EntityManager } from 'typeorm';
import type { ResourceHookContext } from '../../platform/plugin-api';

/**
 * A tube assigned to a splice tray brings its fibres with it: the closure-side front port of each
 * of its strands is put on the tray module, and returned to the device when the assignment ends or
 * moves. Each port is moved through the front-port model, so every move is in the change log.
 */

interface TubePort {
  id: number;
  name: string;
  module_id: number | null;
}

/** The front port of each of the tube's strands that is on the closure (A side first); strands with none there are skipped. */
async function tubePortsOnClosure(manager: EntityManager, closureId: number, tubeId: number): Promise<TubePort[]> {
  return (await manager.query(
    `SELECT DISTINCT ON (s.id) p.id, p.name, p.module_id
       FROM fms_fiberstrand s
       JOIN dcim_frontport p ON p.id IN (s.front_port_a_id, s.front_port_b_id) AND p.device_id = $1
      WHERE s.buffer_tube_id = $2
      ORDER BY s.id, (p.id = s.front_port_a_id) DESC`,
    [closureId, tubeId],
  )) as TubePort[];
}

/**
 * Ports the assignment would take from another module: any module but none, the target tray, and
 * (on an update) the tray the assignment holds now.
 */
export async function portsOnOtherModules(
  manager: EntityManager,
  values: { id?: unknown; closure_id: number; tray_id: number; buffer_tube_id: number },
): Promise<TubePort[]> {
  const allowed = new Set<number | null>([null, values.tray_id]);
  if (typeof values.id === 'number') {
    const [stored] = (await manager.query('SELECT tray_id FROM fms_tubeassignment WHERE id = $1', [values.id])) as Array<{
      tray_id: number;
    }>;
    if (stored) allowed.add(stored.tray_id);
  }
  return (await tubePortsOnClosure(manager, values.closure_id, values.buffer_tube_id)).filter((port) => !allowed.has(port.module_id));
}

/** The closure's splice plans compare splices per tray: moving ports makes their cached diffs stale. */
async function markClosurePlansStale(manager: EntityManager, closureId: number): Promise<void> {
  await manager.query('UPDATE fms_spliceplan SET diff_stale = true WHERE closure_id = $1 AND NOT diff_stale', [closureId]);
}

/** Puts the tube's closure-side ports on the assignment's tray. */
export async function placeTubePorts(context: ResourceHookContext, assignment: Readonly<Record<string, unknown>>): Promise<void> {
  const tray = assignment.tray_id as number;
  const ports = await tubePortsOnClosure(context.manager, assignment.closure_id as number, assignment.buffer_tube_id as number);
  const moving = ports.filter((port) => port.module_id !== tray);
  for (const port of moving) await context.update('dcim.frontport', port.id, { module: tray });
  if (moving.length > 0) await markClosurePlansStale(context.manager, assignment.closure_id as number);
}

/** Returns the tube's closure-side ports still on the tray to the device; ports moved elsewhere by hand stay. */
export async function releaseTubePorts(context: ResourceHookContext, assignment: Readonly<Record<string, unknown>>): Promise<void> {
  const closure = assignment.closure_id as number;
  const ports = await tubePortsOnClosure(context.manager, closure, assignment.buffer_tube_id as number);
  const moving = ports.filter((port) => port.module_id === assignment.tray_id);
  for (const port of moving) await context.update('dcim.frontport', port.id, { module: null });
  if (moving.length > 0) await markClosurePlansStale(context.manager, closure);
}

/** Deleted with its closure or its tray, the ports go with them: nothing to return. */
export const PORTS_GO_WITH = ['dcim.device', 'dcim.module'];
