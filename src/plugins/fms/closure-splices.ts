import type { EntityManager } from 'typeorm';

/** Fibre pairs as `{fiber_a, fiber_b}` front-port ids. */
export interface FiberPair {
  fiber_a: number;
  fiber_b: number;
}

export interface LiveSplice extends FiberPair {
  cable_id: number;
  tray_id: number | null;
  tray_b_id: number | null;
}

/** Pairs compare unordered: a splice a↔b is b↔a. */
export const pairKey = (a: number, b: number): string => (a < b ? `${a}:${b}` : `${b}:${a}`);

/**
 * The closure's live splices: cables whose A and B ends are each one front port of the closure
 * device (what applying a plan creates), with the tray (module) of the A port and of the B port.
 */
export async function liveSplices(manager: EntityManager, closureId: number): Promise<LiveSplice[]> {
  return (await manager.query(
    `WITH fp AS (SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = 'frontport')
     SELECT c.id AS cable_id, pa.id AS fiber_a, pb.id AS fiber_b, pa.module_id AS tray_id, pb.module_id AS tray_b_id
       FROM dcim_cable c
       JOIN dcim_cabletermination ta ON ta.cable_id = c.id AND ta.cable_end = 'A' AND ta.termination_type_id = (SELECT id FROM fp)
       JOIN dcim_cabletermination tb ON tb.cable_id = c.id AND tb.cable_end = 'B' AND tb.termination_type_id = (SELECT id FROM fp)
       JOIN dcim_frontport pa ON pa.id = ta.termination_id
       JOIN dcim_frontport pb ON pb.id = tb.termination_id
      WHERE pa.device_id = $1 AND pb.device_id = $1
        AND (SELECT count(*) FROM dcim_cabletermination t WHERE t.cable_id = c.id) = 2
      ORDER BY c.id`,
    [closureId],
  )) as LiveSplice[];
}

/** Names of the non-decommissioned fiber circuits that hold any of these front ports. */
export async function circuitsHoldingPorts(manager: EntityManager, frontPortIds: readonly number[]): Promise<string[]> {
  if (frontPortIds.length === 0) return [];
  const rows = (await manager.query(
    `SELECT DISTINCT c.name FROM fms_fibercircuitnode n
       JOIN fms_fibercircuitpath p ON p.id = n.path_id JOIN fms_fibercircuit c ON c.id = p.circuit_id
      WHERE n.front_port_id = ANY($1) AND c.status <> 'decommissioned' ORDER BY c.name`,
    [frontPortIds],
  )) as Array<{ name: string }>;
  return rows.map((row) => row.name);
}

/**
 * A cable on a closure's front ports changes its live splices: the cached diffs of the closure's
 * splice plans are marked stale, so the next `diff/` recomputes. Run with the cable's terminations
 * as they were (before an update or delete) and as they are (after a create or update).
 */
export async function markPlansStaleForCable(manager: EntityManager, cableId: number): Promise<void> {
  await manager.query(
    `UPDATE fms_spliceplan SET diff_stale = true
      WHERE NOT diff_stale AND closure_id IN (
        SELECT p.device_id FROM dcim_cabletermination t JOIN dcim_frontport p ON p.id = t.termination_id
         WHERE t.cable_id = $1 AND t.termination_type_id = (SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = 'frontport'))`,
    [cableId],
  );
}
