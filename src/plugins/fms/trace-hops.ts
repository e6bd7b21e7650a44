import type { EntityManager } from 'typeorm';
import { DeviceResource, type OpenApiSchema } from '../../platform/plugin-api';
import { FMS_API_PREFIX } from './cable-types.resources';

/**
 * A circuit path as a field crew reads it: devices (with the ports the fibre enters and leaves
 * by), the cables between them (with the strand and its tube), and the splice made in a closure
 * (with its plan and tray). Built from the path's flat `{type, id}` list, as upstream's trace:
 * - a front port followed by a rear port opens a device (`ports`), or closes the device the path
 *   entered by a rear port (`egress`); a front port alone is a device with that port (an end);
 * - a rear port followed by a front port is a device entered from a cable (`ingress`);
 * - a cable takes the strand provisioned on the last front port before it;
 * - a splice entry is set on the last device.
 */

interface PathHop {
  type: string;
  id: number;
}

interface PortRow {
  id: number;
  name: string;
  device_id: number;
}

type PortPair = { front_port?: { id: number; name: string } | null; rear_port?: { id: number; name: string } | null };
type Hop = Record<string, unknown> & { type: string };

const portSchema = { type: 'object', nullable: true, properties: { id: { type: 'integer' }, name: { type: 'string' } } };
const portPairSchema = { type: 'object', properties: { front_port: portSchema, rear_port: portSchema } };

export const HOP_SCHEMA: OpenApiSchema = {
  type: 'object',
  required: ['type', 'id'],
  description:
    'type "device": {id, name, role, site, url, ports | ingress, egress, splice?}; type "cable": {id, label, fiber_type?, strand_count?, strand_position?, strand_color?, tube_name?, tube_color?, fiber_cable_id?, fiber_cable_url?}',
  properties: {
    type: { type: 'string', enum: ['device', 'cable'] },
    id: { type: 'integer' },
    name: { type: 'string' },
    role: { type: 'string', nullable: true },
    site: { type: 'string', nullable: true },
    url: { type: 'string' },
    ports: portPairSchema,
    ingress: portPairSchema,
    egress: portPairSchema,
    splice: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        plan_id: { type: 'integer' },
        plan_name: { type: 'string' },
        tray_id: { type: 'integer' },
        tray: { type: 'string', nullable: true },
        is_express: { type: 'boolean' },
      },
    },
    label: { type: 'string' },
    fiber_type: { type: 'string', nullable: true },
    strand_count: { type: 'integer', nullable: true },
    strand_position: { type: 'integer' },
    strand_color: { type: 'string' },
    tube_name: { type: 'string', nullable: true },
    tube_color: { type: 'string', nullable: true },
    fiber_cable_id: { type: 'integer' },
    fiber_cable_url: { type: 'string' },
  },
};

/** The tray's name as NetBox writes a module: "<bay>: <module type> (<id>)". */
export const MODULE_NAME_SQL = (moduleId: string) =>
  `(SELECT tray_bay.name || ': ' || tray_type.model || ' (' || tray_module.id || ')' FROM dcim_module tray_module
      JOIN dcim_modulebay tray_bay ON tray_bay.id = tray_module.module_bay_id
      JOIN dcim_moduletype tray_type ON tray_type.id = tray_module.module_type_id WHERE tray_module.id = ${moduleId})`;

async function byId<T extends { id: number }>(manager: EntityManager, sql: string, ids: number[]): Promise<Map<number, T>> {
  if (ids.length === 0) return new Map();
  const rows = (await manager.query(sql, [ids])) as T[];
  return new Map(rows.map((row) => [row.id, row]));
}

/** The hops of one path, read with one statement per kind of object. */
export async function buildHops(manager: EntityManager, path: readonly PathHop[], baseUrl: string): Promise<Hop[]> {
  const idsOf = (type: string) => [...new Set(path.filter((hop) => hop.type === type).map((hop) => hop.id))];
  const frontIds = idsOf('front_port');
  const frontPorts = await byId<PortRow>(manager, 'SELECT id, name, device_id FROM dcim_frontport WHERE id = ANY($1)', frontIds);
  const rearPorts = await byId<PortRow>(manager, 'SELECT id, name, device_id FROM dcim_rearport WHERE id = ANY($1)', idsOf('rear_port'));
  const devices = await byId<{ id: number; name: string | null; role: string | null; site: string | null }>(
    manager,
    `SELECT d.id, d.name, r.name AS role, s.name AS site FROM dcim_device d
       LEFT JOIN dcim_devicerole r ON r.id = d.role_id LEFT JOIN dcim_site s ON s.id = d.site_id WHERE d.id = ANY($1)`,
    [...new Set([...frontPorts.values(), ...rearPorts.values()].map((port) => port.device_id))],
  );
  const cables = await byId<{ id: number; label: string; type: string }>(
    manager,
    'SELECT id, label, type FROM dcim_cable WHERE id = ANY($1)',
    idsOf('cable'),
  );
  const splices = await byId<{ id: number; plan_id: number; plan_name: string; tray_id: number; tray: string | null; is_express: boolean }>(
    manager,
    `SELECT e.id, e.plan_id, p.name AS plan_name, e.tray_id, ${MODULE_NAME_SQL('e.tray_id')} AS tray, e.is_express
       FROM fms_spliceplanentry e JOIN fms_spliceplan p ON p.id = e.plan_id WHERE e.id = ANY($1)`,
    idsOf('splice_entry'),
  );
  const strandRows = frontIds.length
    ? ((await manager.query(
        `SELECT s.front_port_a_id, s.front_port_b_id, s.position, s.color, t.name AS tube_name, t.color AS tube_color,
                s.fiber_cable_id, ct.strand_count
           FROM fms_fiberstrand s LEFT JOIN fms_buffertube t ON t.id = s.buffer_tube_id
           JOIN fms_fibercable f ON f.id = s.fiber_cable_id JOIN fms_fibercabletype ct ON ct.id = f.fiber_cable_type_id
          WHERE s.front_port_a_id = ANY($1) OR s.front_port_b_id = ANY($1)`,
        [frontIds],
      )) as Array<{
        front_port_a_id: number | null;
        front_port_b_id: number | null;
        position: number;
        color: string;
        tube_name: string | null;
        tube_color: string | null;
        fiber_cable_id: number;
        strand_count: number;
      }>)
    : [];
  const strandByPort = new Map<number, (typeof strandRows)[number]>();
  for (const strand of strandRows) {
    if (strand.front_port_a_id !== null) strandByPort.set(strand.front_port_a_id, strand);
    if (strand.front_port_b_id !== null) strandByPort.set(strand.front_port_b_id, strand);
  }

  const brief = (port: PortRow | undefined) => (port ? { id: port.id, name: port.name } : null);
  const deviceHop = (deviceId: number): Hop => {
    const device = devices.get(deviceId);
    return {
      type: 'device',
      id: deviceId,
      name: device?.name ?? null,
      role: device?.role ?? null,
      site: device?.site ?? null,
      url: `${baseUrl}${DeviceResource.listPath}${deviceId}/`,
    };
  };
  const lastFrontPort = (hops: Hop[]): number | undefined => {
    for (const hop of [...hops].reverse()) {
      if (hop.type !== 'device') continue;
      for (const side of ['egress', 'ingress', 'ports'] as const) {
        const pair = hop[side] as PortPair | undefined;
        if (pair?.front_port) return pair.front_port.id;
      }
    }
    return undefined;
  };

  const hops: Hop[] = [];
  // The device entered by a rear port, waiting for the front port it is left by.
  let open: { hop: Hop; deviceId: number } | null = null;
  for (let index = 0; index < path.length; index += 1) {
    const entry = path[index];
    const next = path[index + 1];
    if (entry.type === 'front_port') {
      const port = frontPorts.get(entry.id);
      if (!port) continue;
      if (next?.type === 'rear_port') {
        const rear = rearPorts.get(next.id);
        index += 1;
        if (open && open.deviceId === port.device_id) {
          open.hop.egress = { front_port: brief(port), rear_port: brief(rear) };
          open = null;
          continue;
        }
        const hop = { ...deviceHop(port.device_id), ports: { front_port: brief(port), rear_port: brief(rear) } };
        hops.push(hop);
        open = { hop, deviceId: port.device_id };
      } else {
        hops.push({ ...deviceHop(port.device_id), ports: { front_port: brief(port) } });
        open = null;
      }
    } else if (entry.type === 'rear_port') {
      const rear = rearPorts.get(entry.id);
      if (!rear || next?.type !== 'front_port') continue;
      index += 1;
      const hop = { ...deviceHop(rear.device_id), ingress: { rear_port: brief(rear), front_port: brief(frontPorts.get(next.id)) } };
      hops.push(hop);
      open = { hop, deviceId: rear.device_id };
    } else if (entry.type === 'cable') {
      const cable = cables.get(entry.id);
      const hop: Hop = { type: 'cable', id: entry.id, label: cable?.label || `Cable #${entry.id}` };
      const port = lastFrontPort(hops);
      const strand = port === undefined ? undefined : strandByPort.get(port);
      if (strand) {
        Object.assign(hop, {
          fiber_type: cable?.type || null,
          strand_count: strand.strand_count,
          strand_position: strand.position,
          strand_color: strand.color,
          tube_name: strand.tube_name,
          tube_color: strand.tube_color,
          fiber_cable_id: strand.fiber_cable_id,
          fiber_cable_url: `${baseUrl}${FMS_API_PREFIX}fiber-cables/${strand.fiber_cable_id}/`,
        });
      }
      hops.push(hop);
      open = null;
    } else if (entry.type === 'splice_entry') {
      const splice = splices.get(entry.id);
      const device = [...hops].reverse().find((hop) => hop.type === 'device');
      if (splice && device) device.splice = { ...splice };
    }
  }
  return hops;
}
