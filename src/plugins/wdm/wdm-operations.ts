import type { EntityManager } from 'typeorm';
import { type ActionDocumentation, ConflictError, type ResourceActionContext, ResourceValidationError } from '../../platform/plugin-api';
import { generateNodeComponents } from './node-generation';
import { nodeChannels, planMappings, writeMappings } from './port-sync';
import { rebuildPaths } from './wavelength-paths';

/** The 409 of a stale editor (reference §4.3). */
export const STALE_NODE_MESSAGE = 'Node was modified since editor loaded. Please reload.';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

interface RequestedPorts {
  mux?: number | null;
  demux?: number | null;
}

/** Reads `{last_updated, mapping}`; the legacy form `"<ch>": fp` sets the mux port only. */
function readApplyMappingBody(body: unknown): { lastUpdated: string; mapping: Map<number, RequestedPorts> } {
  const problems: Record<string, string[]> = {};
  const input = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const lastUpdated = typeof input.last_updated === 'string' ? input.last_updated : null;
  if (input.last_updated === undefined) problems.last_updated = ['This field is required.'];
  else if (!lastUpdated || !ISO_DATE_TIME.test(lastUpdated) || Number.isNaN(new Date(lastUpdated).getTime()))
    problems.last_updated = ["Expected the node's last_updated as an ISO 8601 date-time string."];
  const mapping = new Map<number, RequestedPorts>();
  const raw = input.mapping;
  if (raw === undefined) problems.mapping = ['This field is required.'];
  else if (!raw || typeof raw !== 'object' || Array.isArray(raw)) problems.mapping = ['Expected an object keyed by channel id.'];
  else {
    const portId = (value: unknown): number | null | undefined =>
      value === null ? null : Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : undefined;
    for (const [channel, value] of Object.entries(raw as Record<string, unknown>)) {
      const channelId = /^[1-9]\d{0,9}$/.test(channel) ? Number(channel) : null;
      const ports: RequestedPorts | null =
        value === null || typeof value === 'number'
          ? { mux: portId(value) }
          : value && typeof value === 'object' && !Array.isArray(value)
            ? Object.fromEntries(
                (['mux', 'demux'] as const)
                  .filter((kind) => kind in value)
                  .map((kind) => [kind, portId((value as Record<string, unknown>)[kind])]),
              )
            : null;
      if (channelId === null || ports === null || Object.values(ports).some((port) => port === undefined)) {
        (problems.mapping ??= []).push(
          `Entry "${channel}": expected a channel id mapped to {"mux": port id|null, "demux": port id|null} or a port id.`,
        );
        continue;
      }
      mapping.set(channelId, ports);
    }
  }
  if (Object.keys(problems).length > 0) throw new ResourceValidationError(problems);
  return { lastUpdated: lastUpdated!, mapping };
}

/**
 * Claims the node for this write: one conditional UPDATE on `last_updated` (to the microsecond, as the
 * API shows it). Of two writers holding the same value exactly one matches; the other waits on the
 * row lock, then matches nothing and gets 409. Answers the new value as the API writes it.
 */
async function claimNode(manager: EntityManager, nodeId: number, lastUpdated: string): Promise<string> {
  const [rows] = (await manager.query(
    `UPDATE wdm_wdmnode SET last_updated = GREATEST(clock_timestamp(), last_updated + interval '1 microsecond')
      WHERE id = $1 AND last_updated = $2::timestamptz
      RETURNING to_char(last_updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS last_updated`,
    [nodeId, lastUpdated],
  )) as [Array<{ last_updated: string }>, number];
  if (rows.length === 0) throw new ConflictError(STALE_NODE_MESSAGE, 'stale');
  return rows[0].last_updated;
}

export const APPLY_MAPPING_DOCUMENTATION: ActionDocumentation = {
  summary: "Apply a channel-to-port mapping to a ROADM node: rewrites the channels' mux/demux ports and the device's port mappings",
  request: {
    type: 'object',
    required: ['last_updated', 'mapping'],
    properties: {
      last_updated: { type: 'string', format: 'date-time', description: "The node's last_updated as read; a newer one answers 409" },
      mapping: {
        type: 'object',
        description: 'By channel id: the mux and demux front port ids (null clears; an absent key keeps), or a bare port id (mux only)',
        additionalProperties: {
          oneOf: [
            {
              type: 'object',
              properties: { mux: { type: 'integer', nullable: true }, demux: { type: 'integer', nullable: true } },
            },
            { type: 'integer', nullable: true },
          ],
        },
      },
    },
  },
  response: {
    type: 'object',
    required: ['added', 'removed', 'changed', 'last_updated'],
    properties: {
      added: { type: 'integer', description: 'Channels that had no port and now have one' },
      removed: { type: 'integer', description: 'Channels that had ports and now have none' },
      changed: { type: 'integer', description: 'Channels whose ports changed otherwise' },
      last_updated: { type: 'string', format: 'date-time', description: "The node's new last_updated, for the next write" },
    },
  },
};

/** `POST wdm-nodes/{id}/apply-mapping/` (reference §4.3). */
export async function applyMapping({ manager, row, body }: ResourceActionContext) {
  const { lastUpdated, mapping } = readApplyMappingBody(body);
  const claimed = await claimNode(manager, row.id, lastUpdated);
  const errors: string[] = [];
  if (row.node_type !== 'roadm') errors.push(`The node is a fixed ${String(row.node_type)} node: its channel mapping cannot change.`);
  const channels = await nodeChannels(manager, row.id);
  const labels = new Map(
    (
      (await manager.query('SELECT id, label, status FROM wdm_wdmchannel WHERE wdm_node_id = $1', [row.id])) as Array<{
        id: number;
        label: string;
        status: string;
      }>
    ).map((channel) => [channel.id, channel]),
  );
  const requestedPorts = [
    ...[...mapping.values()].flatMap((ports) => [ports.mux, ports.demux]),
    ...channels.flatMap((channel) => [channel.mux_front_port_id, channel.demux_front_port_id]),
  ].filter((id): id is number => typeof id === 'number');
  const ports = new Map(
    (
      (await manager.query('SELECT id, device_id, module_id FROM dcim_frontport WHERE id = ANY($1)', [requestedPorts])) as Array<{
        id: number;
        device_id: number;
        module_id: number | null;
      }>
    ).map((port) => [port.id, port]),
  );
  let added = 0;
  let removed = 0;
  let changed = 0;
  const updates: Array<{ id: number; mux: number | null; demux: number | null }> = [];
  const finalPorts = new Map<number, { mux: number | null; demux: number | null }>();
  for (const channel of channels) {
    const requested = mapping.get(channel.id);
    const next = {
      mux: requested && 'mux' in requested ? requested.mux! : channel.mux_front_port_id,
      demux: requested && 'demux' in requested ? requested.demux! : channel.demux_front_port_id,
    };
    finalPorts.set(channel.id, next);
    if (next.mux === channel.mux_front_port_id && next.demux === channel.demux_front_port_id) continue;
    const { label, status } = labels.get(channel.id)!;
    if (status !== 'available') errors.push(`Channel ${label} (${channel.id}) is ${status}: release it before remapping.`);
    const current = [channel.mux_front_port_id, channel.demux_front_port_id];
    for (const portId of [next.mux, next.demux]) {
      if (portId === null || current.includes(portId)) continue;
      const port = ports.get(portId);
      if (!port || port.device_id !== row.device_id) errors.push(`Front port ${portId} is not a port of the node's device.`);
      else if (port.module_id !== channel.module_id)
        errors.push(`Front port ${portId} is outside the module of channel ${label} (${channel.id}).`);
    }
    const had = channel.mux_front_port_id !== null || channel.demux_front_port_id !== null;
    const has = next.mux !== null || next.demux !== null;
    if (!had && has) added++;
    else if (had && !has) removed++;
    else changed++;
    updates.push({ id: channel.id, ...next });
  }
  const users = new Map<number, string[]>();
  for (const [channelId, next] of finalPorts) {
    for (const portId of new Set([next.mux, next.demux]))
      if (portId !== null) users.set(portId, [...(users.get(portId) ?? []), labels.get(channelId)!.label]);
  }
  for (const [portId, byChannels] of users) {
    if (byChannels.length > 1) errors.push(`Front port ${portId} is used by more than one channel (${byChannels.join(', ')}).`);
  }
  if (errors.length > 0) throw new ResourceValidationError({ errors: [...new Set(errors)] });
  if (updates.length > 0) {
    // Cleared first, then set: two channels may swap ports without tripping the one-port-per-channel constraint.
    const ids = updates.map((update) => update.id);
    await manager.query('UPDATE wdm_wdmchannel SET mux_front_port_id = NULL, demux_front_port_id = NULL WHERE id = ANY($1)', [ids]);
    await manager.query(
      `UPDATE wdm_wdmchannel c SET mux_front_port_id = u.mux, demux_front_port_id = u.demux, last_updated = now()
         FROM unnest($1::integer[], $2::integer[], $3::integer[]) AS u(id, mux, demux) WHERE c.id = u.id`,
      [ids, updates.map((update) => update.mux), updates.map((update) => update.demux)],
    );
  }
  await writeMappings(manager, row.id, await planMappings(manager, row.id));
  await rebuildPaths(
    manager,
    channels.map((channel) => channel.id),
  );
  return { added, removed, changed, last_updated: claimed };
}

export const SYNC_PORTS_DOCUMENTATION: ActionDocumentation = {
  summary: "Compare the node's port mappings with those its channels and line ports call for (by hash); repair them unless dry_run",
  parameters: [{ name: 'dry_run', description: 'Only report the plan (default true)', schema: { type: 'boolean', default: true } }],
  response: {
    type: 'object',
    required: ['port_sync_valid', 'dry_run', 'warnings', 'changes'],
    properties: {
      port_sync_valid: { type: 'boolean' },
      dry_run: { type: 'boolean' },
      warnings: {
        type: 'object',
        properties: {
          cable_paths_affected: { type: 'integer' },
          wavelength_services: {
            type: 'array',
            items: { type: 'object', properties: { id: { type: 'integer' }, display: { type: 'string' } } },
          },
        },
      },
      changes: {
        type: 'object',
        properties: {
          rear_ports: {
            type: 'object',
            properties: {
              create: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { name: { type: 'string' }, type: { type: 'string' }, positions: { type: 'integer' } },
                },
              },
            },
          },
          front_ports: {
            type: 'object',
            properties: {
              create: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, type: { type: 'string' } } } },
            },
          },
          port_mappings: { type: 'object', properties: { delete: { type: 'integer' }, create: { type: 'integer' } } },
        },
      },
    },
  },
};

function readDryRun(value: string | string[] | undefined): boolean {
  const raw = Array.isArray(value) ? value[value.length - 1] : value;
  if (raw === undefined || raw === '') return true;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ResourceValidationError({ dry_run: ['Expected true or false.'] });
}

/** Ports the node's profiles name (by template) that its device (or module) lacks. */
async function missingPorts(manager: EntityManager, nodeId: number) {
  const profiles = `
    SELECT p.id AS profile_id, NULL::integer AS module_id FROM wdm_wdmnode n JOIN dcim_device d ON d.id = n.device_id
      JOIN wdm_wdmprofile p ON p.device_type_id = d.device_type_id WHERE n.id = $1
    UNION ALL
    SELECT p.id, m.id FROM wdm_wdmnode n JOIN dcim_module m ON m.device_id = n.device_id
      JOIN wdm_wdmprofile p ON p.module_type_id = m.module_type_id WHERE n.id = $1`;
  const rear = (await manager.query(
    `SELECT DISTINCT t.name, t.type, t.positions, pr.module_id
       FROM (${profiles}) pr JOIN wdm_wdmlineportplan plan ON plan.profile_id = pr.profile_id
       JOIN dcim_rearporttemplate t ON t.id = plan.rear_port_template_id
      WHERE NOT EXISTS (SELECT 1 FROM dcim_rearport r JOIN wdm_wdmnode n ON n.device_id = r.device_id WHERE n.id = $1 AND r.name = t.name)
      ORDER BY t.name`,
    [nodeId],
  )) as Array<{ name: string; type: string; positions: number; module_id: number | null }>;
  const front = (await manager.query(
    `SELECT DISTINCT t.name, t.type, pr.module_id
       FROM (${profiles}) pr JOIN wdm_wdmchannelplan plan ON plan.profile_id = pr.profile_id
       JOIN dcim_frontporttemplate t ON t.id IN (plan.mux_front_port_template_id, plan.demux_front_port_template_id)
      WHERE NOT EXISTS (SELECT 1 FROM dcim_frontport f JOIN wdm_wdmnode n ON n.device_id = f.device_id WHERE n.id = $1 AND f.name = t.name)
      ORDER BY t.name`,
    [nodeId],
  )) as Array<{ name: string; type: string; module_id: number | null }>;
  return { rear, front };
}

/** `POST wdm-nodes/{id}/sync-ports/?dry_run=` (reference §4.3). */
export async function syncPorts({ manager, row, query, create }: ResourceActionContext) {
  const dryRun = readDryRun(query.dry_run);
  const missing = await missingPorts(manager, row.id);
  const plan = await planMappings(manager, row.id);
  const changes = plan.remove.length + plan.create.length + missing.rear.length + missing.front.length;
  const services =
    changes === 0
      ? []
      : ((await manager.query(
          `SELECT DISTINCT ci.id, ci.name AS display FROM wdm_wdmcircuit ci
             JOIN wdm_wdmcircuit_wavelength_paths link ON link.wdmcircuit_id = ci.id
             JOIN wdm_wdmwavelengthpathchannel t ON t.path_id = link.wdmwavelengthpath_id
             JOIN wdm_wdmchannel c ON c.id = t.channel_id
            WHERE c.wdm_node_id = $1 ORDER BY ci.id`,
          [row.id],
        )) as Array<{ id: number; display: string }>);
  const answer = {
    port_sync_valid: plan.inSync && missing.rear.length === 0 && missing.front.length === 0,
    dry_run: dryRun,
    warnings: { cable_paths_affected: plan.cabledRearPortsAffected, wavelength_services: services },
    changes: {
      rear_ports: { create: missing.rear.map(({ name, type, positions }) => ({ name, type, positions })) },
      front_ports: { create: missing.front.map(({ name, type }) => ({ name, type })) },
      port_mappings: { delete: plan.remove.length, create: plan.create.length },
    },
  };
  if (dryRun) return answer;
  // Through the platform, as the API creates ports: validated and in the change log.
  const ownedBy = (port: { module_id: number | null; name: string; type: string }) => ({
    device: row.device_id,
    ...(port.module_id !== null ? { module: port.module_id } : {}),
    name: port.name,
    type: port.type,
  });
  if (missing.rear.length > 0)
    await create(
      'dcim.rearport',
      missing.rear.map((port) => ({ ...ownedBy(port), positions: port.positions })),
    );
  if (missing.front.length > 0) await create('dcim.frontport', missing.front.map(ownedBy));
  // New ports may complete channels and line ports the node lacked; generation only adds what is missing.
  if (missing.rear.length + missing.front.length > 0) await generateNodeComponents(manager, row.id);
  const applied = await planMappings(manager, row.id);
  await writeMappings(manager, row.id, applied);
  await manager.query('UPDATE wdm_wdmnode SET last_updated = now() WHERE id = $1', [row.id]);
  await rebuildPaths(
    manager,
    (await nodeChannels(manager, row.id)).map((channel) => channel.id),
  );
  return { ...answer, port_sync_valid: true };
}
