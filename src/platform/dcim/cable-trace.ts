import { EntityManager } from 'typeorm';
import type { ObjectSerializer } from '../framework/resource/resource-declaration';
import { CABLE_TERMINATION_TABLES, storedTerminations } from './cable-terminations';

/** A trace never walks more hops than this (a loop in the cabling stops it). */
const MAX_HOPS = 64;

interface Position {
  type: string;
  id: number;
  position: number;
  /** How we reached this port: the cable crossed, `mapping` (through the device), or `start`. */
  via: number | 'mapping' | 'start';
}

/**
 * NetBox's cable trace from a front port: each segment is `[near ends, cable, far ends]`. Inside a
 * device a front port leads to its rear port (and a rear-port position back to its front port)
 * through the port mappings, so a trace crosses patch panels position by position: front port →
 * rear port → trunk cable → far rear port → far front port → its patch cable → … until a port
 * without a further cable.
 */
export async function traceFromFrontPort(
  manager: EntityManager,
  serializer: ObjectSerializer,
  baseUrl: string,
  frontPortId: number,
): Promise<unknown[]> {
  const segments: unknown[] = [];
  let current: Position | undefined = { type: 'dcim.frontport', id: frontPortId, position: 1, via: 'start' };
  const seen = new Set<string>();
  while (current && segments.length < MAX_HOPS) {
    const key = `${current.type}:${current.id}:${current.position}:${String(current.via)}`;
    if (seen.has(key)) break;
    seen.add(key);
    const [port] = (await manager.query(`SELECT id, cable_id, cable_end FROM ${CABLE_TERMINATION_TABLES[current.type]} WHERE id = $1`, [
      current.id,
    ])) as Array<{ id: number; cable_id: number | null; cable_end: string }>;
    if (!port) break;
    if (port.cable_id !== null && port.cable_id !== current.via) {
      const terminations = await storedTerminations(manager, [port.cable_id]);
      const near = terminations.filter((termination) => termination.cable_end === port.cable_end);
      const far = terminations.filter((termination) => termination.cable_end !== port.cable_end);
      segments.push([
        await represent(manager, serializer, baseUrl, near),
        (await serializer.briefByIds(manager, 'dcim.cable', [port.cable_id], baseUrl)).get(port.cable_id) ?? null,
        await represent(manager, serializer, baseUrl, far),
      ]);
      current =
        far.length === 1 ? { type: far[0].object_type, id: far[0].object_id, position: current.position, via: port.cable_id } : undefined;
      continue;
    }
    if (current.via === 'mapping') break;
    current = await throughDevice(manager, current);
  }
  return segments;
}

/** Front port position → rear port position, or back; undefined when the port has no mapping (an end point). */
async function throughDevice(manager: EntityManager, at: Position): Promise<Position | undefined> {
  if (at.type === 'dcim.frontport') {
    const [mapping] = (await manager.query(
      'SELECT rear_port_id, rear_port_position FROM dcim_portmapping WHERE front_port_id = $1 ORDER BY front_port_position = $2 DESC, front_port_position LIMIT 1',
      [at.id, at.position],
    )) as Array<{ rear_port_id: number; rear_port_position: number }>;
    return mapping && { type: 'dcim.rearport', id: mapping.rear_port_id, position: mapping.rear_port_position, via: 'mapping' };
  }
  if (at.type === 'dcim.rearport' && at.via !== 'start') {
    const [mapping] = (await manager.query(
      'SELECT front_port_id, front_port_position FROM dcim_portmapping WHERE rear_port_id = $1 AND rear_port_position = $2',
      [at.id, at.position],
    )) as Array<{ front_port_id: number; front_port_position: number }>;
    return mapping && { type: 'dcim.frontport', id: mapping.front_port_id, position: mapping.front_port_position, via: 'mapping' };
  }
  return undefined;
}

async function represent(
  manager: EntityManager,
  serializer: ObjectSerializer,
  baseUrl: string,
  terminations: ReadonlyArray<{ object_type: string; object_id: number }>,
): Promise<unknown[]> {
  const objects: unknown[] = [];
  for (const termination of terminations) {
    const found = await serializer.briefByIds(manager, termination.object_type, [termination.object_id], baseUrl);
    objects.push(found.get(termination.object_id) ?? null);
  }
  return objects;
}
