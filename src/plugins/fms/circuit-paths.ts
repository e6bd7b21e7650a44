import type { EntityManager } from 'typeorm';
import type { ActionDocumentation, ResourceRow } from '../../platform/plugin-api';
import { FMS_API_PREFIX } from './cable-types.resources';
import { buildHops, HOP_SCHEMA } from './trace-hops';

/** A circuit path's hops, its nodes (what a live circuit holds) and its loss. */

export const PATH_ELEMENT_TYPES = ['front_port', 'rear_port', 'cable', 'splice_entry'];
const ELEMENT_TABLES: Record<string, string> = {
  front_port: 'dcim_frontport',
  rear_port: 'dcim_rearport',
  cable: 'dcim_cable',
  splice_entry: 'fms_spliceplanentry',
};

interface Hop {
  type: string;
  id: number;
}

/**
 * Every hop names an existing object; the circuit has no more paths than strands. The hops are
 * locked (FOR KEY SHARE) until the path is written: a delete of one of them waits for this write
 * and then finds the path holding it, or deleted it first and the hop is reported missing.
 */
export async function pathElementProblems(manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, string[]>> {
  const hops = (values.path ?? []) as Hop[];
  for (const type of PATH_ELEMENT_TYPES) {
    const ids = hops.filter((hop) => hop.type === type).map((hop) => hop.id);
    if (ids.length === 0) continue;
    const found = (await manager.query(`SELECT id FROM ${ELEMENT_TABLES[type]} WHERE id = ANY($1) ORDER BY id FOR KEY SHARE`, [
      ids,
    ])) as Array<{
      id: number;
    }>;
    const missing = ids.filter((id) => !found.some((row) => row.id === id));
    if (missing.length > 0) return { path: [`No ${type.replace('_', ' ')} with id ${missing.join(', ')}.`] };
  }
  const [circuit] = (await manager.query(
    'SELECT c.strand_count, (SELECT count(*)::int FROM fms_fibercircuitpath p WHERE p.circuit_id = c.id AND p.id IS DISTINCT FROM $2) AS paths FROM fms_fibercircuit c WHERE c.id = $1',
    [values.circuit_id, values.id ?? null],
  )) as Array<{ strand_count: number; paths: number }>;
  if (circuit && circuit.paths + 1 > circuit.strand_count)
    return { circuit: [`The circuit has ${circuit.strand_count} strand(s) and already that many paths.`] };
  return {};
}

/**
 * Rebuilds one path's nodes: one per hop, plus the strands provisioned to its front ports, unless
 * the circuit is decommissioned (then it holds nothing).
 */
export async function rebuildPathNodes(manager: EntityManager, pathId: number): Promise<void> {
  await manager.query('DELETE FROM fms_fibercircuitnode WHERE path_id = $1', [pathId]);
  const [path] = (await manager.query(
    'SELECT p.path, p.origin_id, p.destination_id, c.status FROM fms_fibercircuitpath p JOIN fms_fibercircuit c ON c.id = p.circuit_id WHERE p.id = $1',
    [pathId],
  )) as Array<{ path: Hop[] | null; origin_id: number; destination_id: number | null; status: string }>;
  if (!path || path.status === 'decommissioned') return;
  const hops: Hop[] = [{ type: 'front_port', id: path.origin_id }, ...(path.path ?? [])];
  if (path.destination_id !== null) hops.push({ type: 'front_port', id: path.destination_id });
  const frontPorts = [...new Set(hops.filter((hop) => hop.type === 'front_port').map((hop) => hop.id))];
  const strands = (await manager.query(
    'SELECT id FROM fms_fiberstrand WHERE front_port_a_id = ANY($1) OR front_port_b_id = ANY($1) ORDER BY id',
    [frontPorts],
  )) as Array<{ id: number }>;
  const nodes = [
    ...new Map(
      [...hops, ...strands.map((strand) => ({ type: 'fiber_strand', id: strand.id }))].map((hop) => [`${hop.type}:${hop.id}`, hop]),
    ).values(),
  ];
  const column = (type: string) => nodes.map((node) => (node.type === type ? node.id : null));
  await manager.query(
    `INSERT INTO fms_fibercircuitnode (path_id, position, cable_id, front_port_id, rear_port_id, fiber_strand_id, splice_entry_id)
     SELECT $1, n.position, n.cable, n.front_port, n.rear_port, n.fiber_strand, n.splice_entry
       FROM unnest($2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[]) AS n(position, cable, front_port, rear_port, fiber_strand, splice_entry)`,
    [
      pathId,
      nodes.map((_, index) => index + 1),
      column('cable'),
      column('front_port'),
      column('rear_port'),
      column('fiber_strand'),
      column('splice_entry'),
    ],
  );
}

export async function rebuildCircuitNodes(manager: EntityManager, circuitId: number): Promise<void> {
  const paths = (await manager.query('SELECT id FROM fms_fibercircuitpath WHERE circuit_id = $1', [circuitId])) as Array<{ id: number }>;
  for (const path of paths) await rebuildPathNodes(manager, path.id);
}

const TO_KM: Record<string, number> = { km: 1, m: 0.001, cm: 0.00001, mi: 1.609344, ft: 0.0003048, in: 0.0000254 };

/**
 * Loss per wavelength of each path: for every cable on it, glass length (km) × the type's dB/km,
 * rounded half-up to 0.001 dB; only wavelengths every cable of the path has a spec for.
 */
async function lossesOf(manager: EntityManager, pathIds: readonly number[]): Promise<Map<number, Array<[number, string]>>> {
  const rows = (await manager.query(
    `SELECT p.id AS path_id, c.id AS cable_id, c.length, c.length_unit, t.twist_factor_ratio, s.wavelength_nm, s.max_loss_db_per_km
       FROM fms_fibercircuitpath p
       CROSS JOIN LATERAL jsonb_array_elements(coalesce(p.path, '[]'::jsonb)) AS hop
       JOIN dcim_cable c ON hop->>'type' = 'cable' AND c.id = (hop->>'id')::int
       LEFT JOIN fms_fibercable f ON f.cable_id = c.id
       LEFT JOIN fms_fibercabletype t ON t.id = f.fiber_cable_type_id
       LEFT JOIN fms_fiberattenuationspec s ON s.fiber_cable_type_id = t.id
      WHERE p.id = ANY($1)`,
    [pathIds],
  )) as Array<{
    path_id: number;
    cable_id: number;
    length: string | null;
    length_unit: string;
    twist_factor_ratio: string | null;
    wavelength_nm: number | null;
    max_loss_db_per_km: string | null;
  }>;
  const result = new Map<number, Array<[number, string]>>();
  for (const pathId of pathIds) {
    const mine = rows.filter((row) => row.path_id === pathId);
    const cables = new Set(mine.map((row) => row.cable_id));
    const byWavelength = new Map<number, { cables: Set<number>; loss: number }>();
    for (const row of mine) {
      if (row.wavelength_nm === null || row.length === null || !TO_KM[row.length_unit]) continue;
      const km = Number(row.length) * TO_KM[row.length_unit] * (1 + Number(row.twist_factor_ratio ?? 0));
      const entry = byWavelength.get(row.wavelength_nm) ?? { cables: new Set(), loss: 0 };
      entry.cables.add(row.cable_id);
      entry.loss += Math.round(km * Number(row.max_loss_db_per_km) * 1000 + Number.EPSILON) / 1000;
      byWavelength.set(row.wavelength_nm, entry);
    }
    result.set(
      pathId,
      [...byWavelength.entries()]
        .filter(([, entry]) => cables.size > 0 && entry.cables.size === cables.size)
        .sort(([a], [b]) => a - b)
        .map(([wavelength, entry]) => [wavelength, entry.loss.toFixed(3)]),
    );
  }
  return result;
}

export async function calculatedLosses(
  manager: EntityManager,
  rows: readonly ResourceRow[],
): Promise<Map<number, Record<string, unknown>>> {
  const losses = await lossesOf(
    manager,
    rows.map((row) => row.id),
  );
  return new Map(rows.map((row) => [row.id, { calculated_loss_db: losses.get(row.id) ?? [] }]));
}

export const TRACE_DOCUMENTATION: ActionDocumentation = {
  summary:
    "The path as a field crew reads it: devices with their ports, cables with the strand and its tube, splices with their plan and tray; with the loss per wavelength calculated from the cables' lengths and their types' attenuation",
  response: {
    type: 'object',
    required: ['circuit_id', 'circuit_name', 'circuit_url', 'path_position', 'is_complete', 'hops'],
    properties: {
      circuit_id: { type: 'integer' },
      circuit_name: { type: 'string' },
      circuit_url: { type: 'string' },
      path_position: { type: 'integer' },
      is_complete: { type: 'boolean' },
      calculated_loss_db: { type: 'array', items: { type: 'array', items: {} }, description: '[[wavelength_nm, "dB"]]' },
      total_calculated_loss_db: { type: 'string', nullable: true, description: "At the path's wavelength (or the first calculated one)" },
      total_actual_loss_db: { type: 'string', nullable: true },
      wavelength_nm: { type: 'integer', nullable: true },
      hops: { type: 'array', items: HOP_SCHEMA },
    },
  },
};

export async function tracePath(manager: EntityManager, path: ResourceRow, baseUrl: string): Promise<Record<string, unknown>> {
  const [circuit] = (await manager.query('SELECT id, name FROM fms_fibercircuit WHERE id = $1', [path.circuit_id])) as Array<{
    id: number;
    name: string;
  }>;
  const hops: Hop[] = [{ type: 'front_port', id: path.origin_id as number }, ...((path.path ?? []) as Hop[])];
  if (path.destination_id !== null) hops.push({ type: 'front_port', id: path.destination_id as number });
  const losses = (await lossesOf(manager, [path.id])).get(path.id) ?? [];
  const wavelength = (path.wavelength_nm as number | null) ?? null;
  const atWavelength = wavelength === null ? losses[0] : losses.find(([nm]) => nm === wavelength);
  return {
    circuit_id: circuit.id,
    circuit_name: circuit.name,
    circuit_url: `${baseUrl}${FMS_API_PREFIX}fiber-circuits/${circuit.id}/`,
    path_position: path.position,
    is_complete: path.is_complete,
    calculated_loss_db: losses,
    total_calculated_loss_db: atWavelength ? atWavelength[1] : null,
    total_actual_loss_db: path.actual_loss_db === null ? null : Number(path.actual_loss_db).toFixed(3),
    wavelength_nm: wavelength ?? (atWavelength ? atWavelength[0] : null),
    hops: await buildHops(manager, hops, baseUrl),
  };
}
