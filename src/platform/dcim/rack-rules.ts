import type { EntityManager } from 'typeorm';

type Problems = Record<string, string[]>;

/**
 * A rack's location is on its site; a rack holding devices stays tall enough for the highest one and
 * starts numbering at or below the lowest.
 */
export async function rackRules(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  if (values.location_id != null) {
    const [location] = (await manager.query('SELECT site_id FROM dcim_location WHERE id = $1', [values.location_id])) as Array<{
      site_id: number;
    }>;
    if (location && location.site_id !== values.site_id) return { location: ['Location must be from the same site.'] };
  }
  if (values.id === undefined) return {};
  const [span] = (await manager.query(
    `SELECT min(d.position)::float AS lowest, max(d.position + t.u_height)::float AS top
       FROM dcim_device d JOIN dcim_devicetype t ON t.id = d.device_type_id WHERE d.rack_id = $1 AND d.position IS NOT NULL`,
    [values.id],
  )) as Array<{ lowest: number | null; top: number | null }>;
  if (span?.lowest == null || span.top == null) return {};
  const start = Number(values.starting_unit ?? 1);
  const needed = span.top - start;
  if (Number(values.u_height ?? 42) < needed) {
    return { u_height: [`Rack must be at least ${needed}U tall to house currently installed devices.`] };
  }
  if (start > span.lowest) {
    return { starting_unit: [`Rack unit numbering must begin at ${span.lowest} or less to house currently installed devices.`] };
  }
  return {};
}

/** A reservation names units the rack has, none of them reserved already. */
export async function rackReservationRules(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  const [rack] = (await manager.query('SELECT u_height, starting_unit FROM dcim_rack WHERE id = $1', [values.rack_id])) as Array<{
    u_height: number;
    starting_unit: number;
  }>;
  if (!rack || !Array.isArray(values.units)) return {};
  const units = values.units as number[];
  const invalid = units.filter((unit) => unit < rack.starting_unit || unit >= rack.starting_unit + rack.u_height);
  if (invalid.length > 0) {
    return { units: [`Invalid unit(s) for ${rack.u_height}U rack: ${invalid.join(', ')}`] };
  }
  const taken = (await manager.query(
    `SELECT DISTINCT unit::int AS unit FROM dcim_rackreservation r, jsonb_array_elements(r.units) AS unit
      WHERE r.rack_id = $1 AND r.id <> $2 AND unit::int = ANY($3) ORDER BY 1`,
    [values.rack_id, values.id ?? 0, units],
  )) as Array<{ unit: number }>;
  return taken.length > 0 ? { units: [`The following units have already been reserved: ${taken.map((row) => row.unit).join(', ')}`] } : {};
}

/**
 * A device in a rack: on the rack's site, mounted (a position) only with a face, and in units the
 * rack has that no other device on that face (or full depth) uses.
 */
export async function deviceRackRules(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  if (values.rack_id == null) {
    if (values.position != null) return { position: ['Cannot select a rack position without assigning a rack.'] };
    if (values.face) return { face: ['Cannot select a rack face without assigning a rack.'] };
    return {};
  }
  const [rack] = (await manager.query('SELECT site_id, u_height, starting_unit FROM dcim_rack WHERE id = $1', [values.rack_id])) as Array<{
    site_id: number;
    u_height: number;
    starting_unit: number;
  }>;
  if (!rack) return {};
  if (rack.site_id !== values.site_id) return { rack: ['Rack does not belong to the assigned site.'] };
  if (values.position == null) return {};
  if (!values.face) return { face: ['Must specify rack face when defining rack position.'] };
  const [type] = (await manager.query('SELECT u_height::float AS u_height, is_full_depth FROM dcim_devicetype WHERE id = $1', [
    values.device_type_id,
  ])) as Array<{ u_height: number; is_full_depth: boolean }>;
  if (!type) return {};
  const position = Number(values.position);
  const top = position + type.u_height;
  if (position < rack.starting_unit || top > rack.starting_unit + rack.u_height) {
    return { position: [`U${position} is not a valid unit of this ${rack.u_height}U rack for a ${type.u_height}U device.`] };
  }
  const [clash] = (await manager.query(
    `SELECT d.id FROM dcim_device d JOIN dcim_devicetype t ON t.id = d.device_type_id
      WHERE d.rack_id = $1 AND d.id <> $2 AND d.position IS NOT NULL AND t.u_height > 0
        AND d.position < $4 AND d.position + t.u_height > $3
        AND (d.face = $5 OR t.is_full_depth OR $6) LIMIT 1`,
    [values.rack_id, values.id ?? 0, position, top, values.face, type.is_full_depth],
  )) as Array<{ id: number }>;
  return clash ? { position: [`U${position} is already occupied or does not have sufficient space to accommodate this device.`] } : {};
}
