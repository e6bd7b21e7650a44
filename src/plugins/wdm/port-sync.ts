import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/** One front-port → rear-port mapping of a node's device (front position is always 1). */
export interface Mapping {
  front_port_id: number;
  rear_port_id: number;
  rear_port_position: number;
}

interface ChannelPorts {
  id: number;
  module_id: number | null;
  grid_position: number;
  mux_front_port_id: number | null;
  demux_front_port_id: number | null;
}

interface LinePort {
  rear_port_id: number;
  module_id: number | null;
  role: string;
  positions: number;
}

/** The roles of line ports a mux port transmits into and a demux port receives from (reference §4.2). */
const LINE_ROLES = { mux: ['tx', 'bidi'], demux: ['rx', 'bidi'] } as const;

export async function nodeChannels(manager: EntityManager, nodeId: number): Promise<ChannelPorts[]> {
  return (await manager.query(
    `SELECT id, module_id, grid_position, mux_front_port_id, demux_front_port_id FROM wdm_wdmchannel
      WHERE wdm_node_id = $1 ORDER BY module_id NULLS FIRST, grid_position, id`,
    [nodeId],
  )) as ChannelPorts[];
}

async function nodeLinePorts(manager: EntityManager, nodeId: number): Promise<LinePort[]> {
  return (await manager.query(
    `SELECT l.rear_port_id, l.module_id, l.role, rear.positions FROM wdm_wdmlineport l JOIN dcim_rearport rear ON rear.id = l.rear_port_id
      WHERE l.wdm_node_id = $1 ORDER BY l.id`,
    [nodeId],
  )) as LinePort[];
}

/**
 * The mappings a node's channels call for: each mux (demux) port at rear position = grid position of
 * the first TX or BIDI (RX or BIDI) line port of the channel's module (else of the device) that has
 * that position free. One mapping per front port, because a front port position maps to one rear
 * port position (the platform's port mappings are unique on both ends).
 */
export function expectedMappings(channels: readonly ChannelPorts[], linePorts: readonly LinePort[]): Mapping[] {
  const used = new Set<string>();
  const mappings: Mapping[] = [];
  for (const channel of channels) {
    for (const kind of ['mux', 'demux'] as const) {
      const frontPortId = channel[`${kind}_front_port_id`];
      if (frontPortId === null) continue;
      const roles: readonly string[] = LINE_ROLES[kind];
      const own = linePorts.filter((port) => roles.includes(port.role) && port.module_id === channel.module_id);
      const candidates = own.length > 0 ? own : linePorts.filter((port) => roles.includes(port.role) && port.module_id === null);
      const line = candidates.find(
        (port) => channel.grid_position <= port.positions && !used.has(`${port.rear_port_id}:${channel.grid_position}`),
      );
      if (!line) continue;
      used.add(`${line.rear_port_id}:${channel.grid_position}`);
      mappings.push({ front_port_id: frontPortId, rear_port_id: line.rear_port_id, rear_port_position: channel.grid_position });
    }
  }
  return mappings;
}

/** The device's mappings that touch the node's channel ports or line ports. */
async function actualMappings(
  manager: EntityManager,
  frontPortIds: number[],
  rearPortIds: number[],
): Promise<Array<Mapping & { id: number }>> {
  return (await manager.query(
    `SELECT id, front_port_id, rear_port_id, rear_port_position FROM dcim_portmapping
      WHERE front_port_id = ANY($1) OR rear_port_id = ANY($2) ORDER BY id`,
    [frontPortIds, rearPortIds],
  )) as Array<Mapping & { id: number }>;
}

const key = (mapping: Mapping) => `${mapping.front_port_id}:${mapping.rear_port_id}:${mapping.rear_port_position}`;

/** SHA-256 of the sorted `fp:rp:pos` triples (reference §4.2). */
export function mappingHash(mappings: readonly Mapping[]): string {
  return createHash('sha256').update(mappings.map(key).sort().join('\n')).digest('hex');
}

/** What syncing a node's mappings would change: the expected set, the rows to delete and the mappings to create. */
export interface MappingPlan {
  expected: Mapping[];
  expectedHash: string;
  inSync: boolean;
  remove: Array<Mapping & { id: number }>;
  create: Mapping[];
  /** Line rear ports on a cable whose mappings change: their cable paths change with them. */
  cabledRearPortsAffected: number;
}

export async function planMappings(manager: EntityManager, nodeId: number): Promise<MappingPlan> {
  const channels = await nodeChannels(manager, nodeId);
  const linePorts = await nodeLinePorts(manager, nodeId);
  const expected = expectedMappings(channels, linePorts);
  const frontPortIds = channels.flatMap((channel) => [channel.mux_front_port_id, channel.demux_front_port_id]).filter((id) => id !== null);
  const actual = await actualMappings(
    manager,
    frontPortIds,
    linePorts.map((port) => port.rear_port_id),
  );
  const wanted = new Set(expected.map(key));
  const present = new Set(actual.map(key));
  const remove = actual.filter((mapping) => !wanted.has(key(mapping)));
  const create = expected.filter((mapping) => !present.has(key(mapping)));
  const touched = [...new Set([...remove, ...create].map((mapping) => mapping.rear_port_id))];
  const [cabled] = touched.length
    ? ((await manager.query('SELECT count(*)::integer AS n FROM dcim_rearport WHERE id = ANY($1) AND cable_id IS NOT NULL', [
        touched,
      ])) as Array<{
        n: number;
      }>)
    : [{ n: 0 }];
  const expectedHash = mappingHash(expected);
  return { expected, expectedHash, inSync: mappingHash(actual) === expectedHash, remove, create, cabledRearPortsAffected: cabled.n };
}

/** Rewrites the device's mappings to the plan and records the node as in sync. */
export async function writeMappings(manager: EntityManager, nodeId: number, plan: MappingPlan): Promise<void> {
  if (plan.remove.length > 0) await manager.query('DELETE FROM dcim_portmapping WHERE id = ANY($1)', [plan.remove.map((row) => row.id)]);
  if (plan.create.length > 0) {
    await manager.query(
      `INSERT INTO dcim_portmapping (device_id, front_port_id, front_port_position, rear_port_id, rear_port_position)
       SELECT n.device_id, m.front_port_id, 1, m.rear_port_id, m.rear_port_position
         FROM wdm_wdmnode n, unnest($2::integer[], $3::integer[], $4::integer[]) AS m(front_port_id, rear_port_id, rear_port_position)
        WHERE n.id = $1`,
      [
        nodeId,
        plan.create.map((mapping) => mapping.front_port_id),
        plan.create.map((mapping) => mapping.rear_port_id),
        plan.create.map((mapping) => mapping.rear_port_position),
      ],
    );
  }
  await manager.query('UPDATE wdm_wdmnode SET expected_port_hash = $2, port_sync_valid = true WHERE id = $1', [nodeId, plan.expectedHash]);
}

/** Stores the node's expected hash and whether its device's mappings match it. */
export async function refreshPortSync(manager: EntityManager, nodeId: number): Promise<void> {
  const plan = await planMappings(manager, nodeId);
  await manager.query('UPDATE wdm_wdmnode SET expected_port_hash = $2, port_sync_valid = $3 WHERE id = $1', [
    nodeId,
    plan.expectedHash,
    plan.inSync,
  ]);
}
