import type { EntityManager } from 'typeorm';
import { gridChannels } from './wdm.choices';
import { refreshPortSync } from './port-sync';

/** The profiles a node is built from: its device type's (on the device itself) and each installed module's (on that module). */
async function nodeProfiles(manager: EntityManager, nodeId: number): Promise<Array<{ profile_id: number; module_id: number | null }>> {
  return (await manager.query(
    `SELECT p.id AS profile_id, NULL::integer AS module_id
       FROM wdm_wdmnode n JOIN dcim_device d ON d.id = n.device_id JOIN wdm_wdmprofile p ON p.device_type_id = d.device_type_id
      WHERE n.id = $1
     UNION ALL
     SELECT p.id, m.id
       FROM wdm_wdmnode n JOIN dcim_module m ON m.device_id = n.device_id JOIN wdm_wdmprofile p ON p.module_type_id = m.module_type_id
      WHERE n.id = $1
     ORDER BY 2 NULLS FIRST, 1`,
    [nodeId],
  )) as Array<{ profile_id: number; module_id: number | null }>;
}

/** Creates objects of a served model through the API's rules and change log (a hook's `createChildren`). */
export type ComponentCreator = (objectType: string, items: Array<Record<string, unknown>>) => Promise<unknown>;

/** A profile's channel plans the node lacks, with the ports matched by their template's name on the device (or module). */
const MISSING_CHANNELS = `
  SELECT $1::integer AS wdm_node_id, $2::integer AS module_id, plan.grid_position, g.label, g.wavelength_nm,
         mux.id AS mux_front_port_id, demux.id AS demux_front_port_id, 'available' AS status
    FROM wdm_wdmchannelplan plan
    JOIN unnest($4::integer[], $5::text[], $6::numeric[]) AS g(position, label, wavelength_nm) ON g.position = plan.grid_position
    LEFT JOIN dcim_frontporttemplate mux_t ON mux_t.id = plan.mux_front_port_template_id
    LEFT JOIN dcim_frontport mux ON mux.device_id = $3 AND mux.module_id IS NOT DISTINCT FROM $2::integer AND mux.name = mux_t.name
    LEFT JOIN dcim_frontporttemplate demux_t ON demux_t.id = plan.demux_front_port_template_id
    LEFT JOIN dcim_frontport demux ON demux.device_id = $3 AND demux.module_id IS NOT DISTINCT FROM $2::integer AND demux.name = demux_t.name
   WHERE plan.profile_id = $7
     AND NOT EXISTS (SELECT 1 FROM wdm_wdmchannel c
                      WHERE c.wdm_node_id = $1 AND c.module_id IS NOT DISTINCT FROM $2::integer AND c.grid_position = plan.grid_position)
   ORDER BY plan.grid_position`;

/** A profile's line-port plans the node lacks, on the rear ports named as their templates. */
const MISSING_LINE_PORTS = `
  SELECT $1::integer AS wdm_node_id, $2::integer AS module_id, rear.id AS rear_port_id, plan.direction, plan.role
    FROM wdm_wdmlineportplan plan
    JOIN dcim_rearporttemplate t ON t.id = plan.rear_port_template_id
    JOIN dcim_rearport rear ON rear.device_id = $3 AND rear.module_id IS NOT DISTINCT FROM $2::integer AND rear.name = t.name
   WHERE plan.profile_id = $4
     AND NOT EXISTS (SELECT 1 FROM wdm_wdmlineport l WHERE l.wdm_node_id = $1 AND l.rear_port_id = rear.id)
   ORDER BY plan.id`;

/**
 * Builds a node's channels from its profiles' channel plans and its line ports from their line-port
 * plans (reference §4.2): ports are matched by their template's name on the device (or module),
 * label and wavelength come from the node's grid. Idempotent: what exists is kept, only what is
 * missing is added. Amplifiers carry no channels, only their line ports (as upstream).
 * With `create`, the rows are created through the API's rules and recorded in the change log (a
 * module installed later); without, two statements per profile whatever the channel count (the
 * node's own creation).
 */
export async function generateNodeComponents(manager: EntityManager, nodeId: number, create?: ComponentCreator): Promise<void> {
  const [node] = (await manager.query('SELECT device_id, node_type, grid FROM wdm_wdmnode WHERE id = $1', [nodeId])) as Array<{
    device_id: number;
    node_type: string;
    grid: string;
  }>;
  if (!node) return;
  const grid = gridChannels(node.grid);
  for (const { profile_id: profileId, module_id: moduleId } of await nodeProfiles(manager, nodeId)) {
    if (node.node_type !== 'amplifier') {
      const parameters = [
        nodeId,
        moduleId,
        node.device_id,
        grid.map((channel) => channel.grid_position),
        grid.map((channel) => channel.label),
        grid.map((channel) => channel.wavelength_nm),
        profileId,
      ];
      if (create) {
        const rows = (await manager.query(MISSING_CHANNELS, parameters)) as Array<Record<string, unknown>>;
        if (rows.length > 0) {
          await create(
            'wdm.wdmchannel',
            rows.map((row) => ({
              wdm_node: nodeId,
              module: moduleId,
              grid_position: row.grid_position,
              mux_front_port: row.mux_front_port_id,
              demux_front_port: row.demux_front_port_id,
            })),
          );
        }
      } else {
        await manager.query(
          `INSERT INTO wdm_wdmchannel (wdm_node_id, module_id, grid_position, label, wavelength_nm, mux_front_port_id, demux_front_port_id, status)
           ${MISSING_CHANNELS} ON CONFLICT DO NOTHING`,
          parameters,
        );
      }
      // Channels made before their ports existed get them once they do (sync-ports creates missing ports).
      for (const kind of ['mux', 'demux'] as const) {
        await manager.query(
          `UPDATE wdm_wdmchannel c SET ${kind}_front_port_id = port.id
             FROM wdm_wdmchannelplan plan
             JOIN dcim_frontporttemplate t ON t.id = plan.${kind}_front_port_template_id
             JOIN dcim_frontport port ON port.device_id = $3 AND port.module_id IS NOT DISTINCT FROM $2::integer AND port.name = t.name
            WHERE plan.profile_id = $4 AND c.wdm_node_id = $1 AND c.module_id IS NOT DISTINCT FROM $2::integer
              AND c.grid_position = plan.grid_position AND c.${kind}_front_port_id IS NULL
              AND NOT EXISTS (SELECT 1 FROM wdm_wdmchannel other
                               WHERE other.wdm_node_id = $1 AND (other.mux_front_port_id = port.id OR other.demux_front_port_id = port.id))`,
          [nodeId, moduleId, node.device_id, profileId],
        );
      }
    }
    const lineParameters = [nodeId, moduleId, node.device_id, profileId];
    if (create) {
      const rows = (await manager.query(MISSING_LINE_PORTS, lineParameters)) as Array<Record<string, unknown>>;
      if (rows.length > 0) {
        await create(
          'wdm.wdmlineport',
          rows.map((row) => ({
            wdm_node: nodeId,
            module: moduleId,
            rear_port: row.rear_port_id,
            direction: row.direction,
            role: row.role,
          })),
        );
      }
    } else {
      await manager.query(
        `INSERT INTO wdm_wdmlineport (wdm_node_id, module_id, rear_port_id, direction, role) ${MISSING_LINE_PORTS} ON CONFLICT DO NOTHING`,
        lineParameters,
      );
    }
  }
  await refreshPortSync(manager, nodeId);
}
