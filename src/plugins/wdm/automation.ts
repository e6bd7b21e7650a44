import type { EntityManager } from 'typeorm';
import { nonFieldError } from '../../platform/plugin-api';
import type { ResourceHookContext, ResourceRow } from '../../platform/plugin-api';
import { generateNodeComponents } from './node-generation';
import { refreshPortSync } from './port-sync';
import { rebuildPaths } from './wavelength-paths';

/**
 * What the plugin does on its own when platform objects change (upstream's signals): a device of a
 * profiled device type becomes a node, an installed module brings its channels and line ports,
 * cabling is checked against the line ports' roles and rebuilds the wavelength paths it touches.
 * Every object created here goes through the API's rules and change log.
 */

/** A device created from a device type with a WDM profile becomes a node of the profile's type and grid. */
export async function createNodeForDevice(context: ResourceHookContext, device: ResourceRow): Promise<void> {
  const [profile] = (await context.manager.query(
    `SELECT p.node_type, p.grid FROM wdm_wdmprofile p
      WHERE p.device_type_id = $1 AND NOT EXISTS (SELECT 1 FROM wdm_wdmnode n WHERE n.device_id = $2)`,
    [device.device_type_id, device.id],
  )) as Array<{ node_type: string; grid: string }>;
  if (!profile) return;
  await context.createChildren('wdm.wdmnode', [{ device: device.id, node_type: profile.node_type, grid: profile.grid }]);
}

/** A module installed in a node's device adds the channels and line ports of its module type's profile. */
export async function addModuleComponents(context: ResourceHookContext, module: ResourceRow): Promise<void> {
  const [node] = (await context.manager.query('SELECT id FROM wdm_wdmnode WHERE device_id = $1', [module.device_id])) as Array<{
    id: number;
  }>;
  if (!node) return;
  await generateNodeComponents(context.manager, node.id, (objectType, items) => context.createChildren(objectType, items));
}

/**
 * Refuses a cable joining two line ports of the same one-way role (TX to TX, RX to RX): light leaves
 * a TX port and enters an RX port. Bidirectional and unmanaged ports pass. Every A-end line port is
 * compared with every B-end one (upstream pairs the terminations along the cable's profile).
 */
export async function refuseSameRoleTrunk(manager: EntityManager, cableId: number): Promise<void> {
  const [clash] = (await manager.query(
    `SELECT la.role, ra.name AS a_name, rb.name AS b_name, da.name AS a_device, db.name AS b_device
       FROM dcim_cabletermination ta
       JOIN dcim_cabletermination tb ON tb.cable_id = ta.cable_id AND tb.cable_end <> ta.cable_end AND tb.termination_type_id = ta.termination_type_id
       JOIN wdm_wdmlineport la ON la.rear_port_id = ta.termination_id
       JOIN wdm_wdmlineport lb ON lb.rear_port_id = tb.termination_id AND lb.role = la.role
       JOIN dcim_rearport ra ON ra.id = ta.termination_id
       JOIN dcim_rearport rb ON rb.id = tb.termination_id
       JOIN dcim_device da ON da.id = ra.device_id
       JOIN dcim_device db ON db.id = rb.device_id
      WHERE ta.cable_id = $1 AND ta.cable_end = 'A' AND la.role IN ('tx', 'rx')
        AND ta.termination_type_id = (SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = 'rearport')
      LIMIT 1`,
    [cableId],
  )) as Array<{ role: string; a_name: string; b_name: string; a_device: string; b_device: string }>;
  if (!clash) return;
  const role = clash.role.toUpperCase();
  throw nonFieldError(
    `Invalid WDM trunk cabling: ${clash.a_device} ${clash.a_name} and ${clash.b_device} ${clash.b_name} are both ${role} line ports. ` +
      'Connect TX to RX (or use bidirectional line ports).',
  );
}

/** The channels mapped to the rear ports a cable lands on: those whose paths the cable can join or split. */
export async function channelsOnCable(manager: EntityManager, cableId: number): Promise<number[]> {
  const rows = (await manager.query(
    `SELECT DISTINCT c.id
       FROM dcim_cabletermination t
       JOIN dcim_portmapping pm ON pm.rear_port_id = t.termination_id
       JOIN wdm_wdmchannel c ON c.mux_front_port_id = pm.front_port_id OR c.demux_front_port_id = pm.front_port_id
      WHERE t.cable_id = $1 AND t.termination_type_id = (SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = 'rearport')`,
    [cableId],
  )) as Array<{ id: number }>;
  return rows.map((row) => row.id);
}

/** Channels a cable reached before its update or deletion, read before the write and rebuilt after it (one transaction each). */
const channelsBeforeWrite = new WeakMap<EntityManager, Map<number, number[]>>();

export async function noteChannelsOnCable(manager: EntityManager, cableId: number): Promise<void> {
  const noted = channelsBeforeWrite.get(manager) ?? new Map<number, number[]>();
  noted.set(cableId, await channelsOnCable(manager, cableId));
  channelsBeforeWrite.set(manager, noted);
}

/** Rebuilds the paths of the channels the cable reaches now and of those it reached before the write. */
export async function rebuildPathsOfCable(manager: EntityManager, cableId: number): Promise<void> {
  const noted = channelsBeforeWrite.get(manager);
  const before = noted?.get(cableId) ?? [];
  noted?.delete(cableId);
  const channels = [...new Set([...before, ...(await channelsOnCable(manager, cableId))])];
  if (channels.length > 0) await rebuildPaths(manager, channels);
}

/** A node's paths and port-sync state after its line ports or its device's port mappings change. */
export async function refreshNode(manager: EntityManager, nodeId: number | null | undefined): Promise<void> {
  if (nodeId == null) return;
  const [node] = (await manager.query('SELECT id FROM wdm_wdmnode WHERE id = $1', [nodeId])) as Array<{ id: number }>;
  if (!node) return;
  await refreshPortSync(manager, nodeId);
  const channels = (await manager.query('SELECT id FROM wdm_wdmchannel WHERE wdm_node_id = $1', [nodeId])) as Array<{ id: number }>;
  if (channels.length > 0) {
    await rebuildPaths(
      manager,
      channels.map((channel) => channel.id),
    );
  }
}

async function nodeIdOfDevice(manager: EntityManager, deviceId: unknown): Promise<number | null> {
  const [node] = (await manager.query('SELECT id FROM wdm_wdmnode WHERE device_id = $1', [deviceId])) as Array<{ id: number }>;
  return node?.id ?? null;
}

/** A port mapping written on a node's device (not through the plugin's operations): paths and sync state follow. */
export async function refreshNodeOfDevice(manager: EntityManager, deviceId: unknown): Promise<void> {
  await refreshNode(manager, await nodeIdOfDevice(manager, deviceId));
}

/** A front or rear port added, changed or removed on a node's device: whether its mappings still match is rechecked. */
export async function recheckPortSyncOfDevice(manager: EntityManager, deviceId: unknown): Promise<void> {
  const nodeId = await nodeIdOfDevice(manager, deviceId);
  if (nodeId !== null) await refreshPortSync(manager, nodeId);
}
