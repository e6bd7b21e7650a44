import type { EntityManager } from 'typeorm';
import type { ActionDocumentation, OpenApiSchema } from '../../platform/plugin-api';

/**
 * Wavelength paths: a channel's chain through its node's port mappings to the line rear ports, the
 * cables on them, and the far node's channel mapped to the far rear port at the same position
 * (reference §4.3 trace). Paths are derived: rebuilt whenever a node's mappings are written.
 */

interface ChannelRow {
  id: number;
  wdm_node_id: number;
  grid_position: number;
  label: string;
  wavelength_nm: string | null;
  status: string;
  mux_front_port_id: number | null;
  demux_front_port_id: number | null;
  wavelength_path_id: number | null;
}

/** The cable between two consecutive channels of a chain: near rear port, cable, far rear port. */
interface Hop {
  channel: ChannelRow;
  nearRearPortId: number;
  cableId: number;
  farRearPortId: number;
}

const CHANNEL_COLUMNS =
  'c.id, c.wdm_node_id, c.grid_position, c.label, c.wavelength_nm, c.status, c.mux_front_port_id, c.demux_front_port_id, c.wavelength_path_id';

async function channelById(manager: EntityManager, id: number): Promise<ChannelRow | null> {
  const [row] = (await manager.query(`SELECT ${CHANNEL_COLUMNS} FROM wdm_wdmchannel c WHERE c.id = $1`, [id])) as ChannelRow[];
  return row ?? null;
}

/** The cabled line ports of its node a channel's mux/demux ports are mapped to, with the position and the cable's far rear port. */
async function cabledLines(
  manager: EntityManager,
  channel: ChannelRow,
): Promise<Array<{ rear_port_id: number; rear_port_position: number; cable_id: number; far_rear_port_id: number }>> {
  return (await manager.query(
    `SELECT DISTINCT pm.rear_port_id, pm.rear_port_position, rear.cable_id, far.termination_id AS far_rear_port_id
       FROM dcim_portmapping pm
       JOIN dcim_rearport rear ON rear.id = pm.rear_port_id AND rear.cable_id IS NOT NULL
       JOIN wdm_wdmlineport line ON line.rear_port_id = rear.id AND line.wdm_node_id = $2
       JOIN dcim_cabletermination far ON far.cable_id = rear.cable_id AND far.cable_end <> rear.cable_end
       JOIN core_objecttype ot ON ot.id = far.termination_type_id AND ot.app_label = 'dcim' AND ot.model = 'rearport'
      WHERE pm.front_port_id = ANY($1)
      ORDER BY pm.rear_port_id`,
    [[channel.mux_front_port_id, channel.demux_front_port_id].filter((id) => id !== null), channel.wdm_node_id],
  )) as Array<{ rear_port_id: number; rear_port_position: number; cable_id: number; far_rear_port_id: number }>;
}

/** The far node's channel on a rear port at a position: the one whose mux or demux port is mapped there. */
async function channelOnRearPort(manager: EntityManager, rearPortId: number, position: number): Promise<ChannelRow | null> {
  const [row] = (await manager.query(
    `SELECT ${CHANNEL_COLUMNS}
       FROM dcim_portmapping pm
       JOIN wdm_wdmchannel c ON c.mux_front_port_id = pm.front_port_id OR c.demux_front_port_id = pm.front_port_id
       JOIN wdm_wdmlineport l ON l.wdm_node_id = c.wdm_node_id AND l.rear_port_id = pm.rear_port_id
      WHERE pm.rear_port_id = $1 AND pm.rear_port_position = $2
      ORDER BY c.id LIMIT 1`,
    [rearPortId, position],
  )) as ChannelRow[];
  return row ?? null;
}

/** Follows cables from a channel away from `arrivedOn`, one hop per node, until no cabled line port leads to an unseen channel. */
async function walk(manager: EntityManager, start: ChannelRow, arrivedOn: number | null, seen: Set<number>): Promise<Hop[]> {
  const hops: Hop[] = [];
  let current = start;
  let arrival = arrivedOn;
  for (;;) {
    let next: Hop | null = null;
    for (const line of await cabledLines(manager, current)) {
      if (line.rear_port_id === arrival) continue;
      const far = await channelOnRearPort(manager, line.far_rear_port_id, line.rear_port_position);
      if (!far || seen.has(far.id)) continue;
      next = { channel: far, nearRearPortId: line.rear_port_id, cableId: line.cable_id, farRearPortId: line.far_rear_port_id };
      break;
    }
    if (!next) return hops;
    seen.add(next.channel.id);
    hops.push(next);
    current = next.channel;
    arrival = next.farRearPortId;
  }
}

/** A channel's whole chain, from one end to the other: the channels in order and the cable hop before each but the first. */
export interface Chain {
  channels: ChannelRow[];
  /** hops[i] joins channels[i] and channels[i + 1]: near rear port on channels[i]'s node. */
  hops: Array<{ nearRearPortId: number; cableId: number; farRearPortId: number }>;
}

export async function chainOf(manager: EntityManager, channel: ChannelRow): Promise<Chain> {
  const seen = new Set([channel.id]);
  const forward = await walk(manager, channel, null, seen);
  // The other direction leaves through a line port the forward walk did not take.
  const firstLine = forward[0]?.nearRearPortId ?? null;
  const backward = await walk(manager, channel, firstLine, seen);
  const channels = [...backward.map((hop) => hop.channel).reverse(), channel, ...forward.map((hop) => hop.channel)];
  const hops = [
    ...backward.map((hop) => ({ nearRearPortId: hop.farRearPortId, cableId: hop.cableId, farRearPortId: hop.nearRearPortId })).reverse(),
    ...forward.map((hop) => ({ nearRearPortId: hop.nearRearPortId, cableId: hop.cableId, farRearPortId: hop.farRearPortId })),
  ];
  return (await againstTheLight(manager, hops)) ? reversed({ channels, hops }) : { channels, hops };
}

/** Whether a chain runs against the light: its first cable leaves through an RX line port (light goes TX → RX). */
async function againstTheLight(manager: EntityManager, hops: Chain['hops']): Promise<boolean> {
  if (hops.length === 0) return false;
  const [line] = (await manager.query('SELECT role FROM wdm_wdmlineport WHERE rear_port_id = $1 LIMIT 1', [
    hops[0].nearRearPortId,
  ])) as Array<{
    role: string;
  }>;
  return line?.role === 'rx';
}

function reversed(chain: Chain): Chain {
  return {
    channels: [...chain.channels].reverse(),
    hops: chain.hops
      .map((hop) => ({ nearRearPortId: hop.farRearPortId, cableId: hop.cableId, farRearPortId: hop.nearRearPortId }))
      .reverse(),
  };
}

function pathFlags(chain: Chain) {
  const ends = [chain.channels[0], chain.channels[chain.channels.length - 1]];
  return {
    is_complete: chain.channels.length >= 2 && ends.every((end) => end.mux_front_port_id !== null || end.demux_front_port_id !== null),
    is_active: chain.channels.every((channel) => channel.status === 'active'),
    is_valid: chain.channels.every((channel) => channel.grid_position === chain.channels[0].grid_position),
  };
}

/**
 * Rebuilds the paths of these channels (and of every channel on their chains): a chain of two or more
 * channels is one path, keeping the id of a path one of its channels already had (so circuits that
 * use it keep it); a lone channel is on no path; paths left without channels are deleted.
 */
export async function rebuildPaths(manager: EntityManager, channelIds: readonly number[]): Promise<void> {
  const done = new Set<number>();
  const touchedPaths = new Set<number>();
  // Channels a rebuilt chain leaves behind on its old paths are rebuilt in turn (they may now be alone or form another chain).
  const queue = [...channelIds];
  const leftBehind = async (pathIds: number[]) => {
    if (pathIds.length === 0) return;
    const rows = (await manager.query('SELECT id FROM wdm_wdmchannel WHERE wavelength_path_id = ANY($1) AND NOT (id = ANY($2))', [
      pathIds,
      [...done],
    ])) as Array<{ id: number }>;
    queue.push(...rows.map((row) => row.id));
  };
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (done.has(id)) continue;
    const channel = await channelById(manager, id);
    if (!channel) continue;
    const chain = await chainOf(manager, channel);
    const oldPaths = [...new Set(chain.channels.map((member) => member.wavelength_path_id).filter((pathId) => pathId !== null))];
    for (const member of chain.channels) done.add(member.id);
    for (const pathId of oldPaths) touchedPaths.add(pathId);
    if (chain.channels.length < 2) {
      await manager.query('UPDATE wdm_wdmchannel SET wavelength_path_id = NULL, path_sequence = NULL WHERE id = $1', [channel.id]);
      await leftBehind(oldPaths);
      continue;
    }
    const flags = pathFlags(chain);
    let pathId = oldPaths.length > 0 ? Math.min(...oldPaths) : null;
    if (pathId === null) {
      const [created] = (await manager.query(
        `INSERT INTO wdm_wdmwavelengthpath (grid_position, wavelength_nm, is_complete, is_active, is_valid) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [channel.grid_position, channel.wavelength_nm, flags.is_complete, flags.is_active, flags.is_valid],
      )) as Array<{ id: number }>;
      pathId = created.id;
    } else {
      await manager.query(
        `UPDATE wdm_wdmwavelengthpath SET grid_position = $2, wavelength_nm = $3, is_complete = $4, is_active = $5, is_valid = $6, last_updated = now() WHERE id = $1`,
        [pathId, channel.grid_position, channel.wavelength_nm, flags.is_complete, flags.is_active, flags.is_valid],
      );
    }
    const members = chain.channels.map((member) => member.id);
    await leftBehind(oldPaths);
    await manager.query(
      'UPDATE wdm_wdmchannel SET wavelength_path_id = NULL, path_sequence = NULL WHERE wavelength_path_id = $1 AND NOT (id = ANY($2))',
      [pathId, members],
    );
    await manager.query(
      `UPDATE wdm_wdmchannel c SET wavelength_path_id = $1, path_sequence = m.sequence - 1
         FROM unnest($2::integer[]) WITH ORDINALITY AS m(id, sequence) WHERE c.id = m.id`,
      [pathId, members],
    );
  }
  if (touchedPaths.size > 0) {
    await manager.query(
      'DELETE FROM wdm_wdmwavelengthpath p WHERE p.id = ANY($1) AND NOT EXISTS (SELECT 1 FROM wdm_wdmchannel c WHERE c.wavelength_path_id = p.id)',
      [[...touchedPaths]],
    );
  }
}

/** After a channel is deleted (also by its node's or device's deletion): the rest of its path is rebuilt, an emptied path deleted. */
export async function rebuildAfterChannelDeleted(manager: EntityManager, pathId: number | null): Promise<void> {
  if (pathId === null) return;
  const rest = (await manager.query('SELECT id FROM wdm_wdmchannel WHERE wavelength_path_id = $1', [pathId])) as Array<{ id: number }>;
  await rebuildPaths(
    manager,
    rest.map((row) => row.id),
  );
  await manager.query(
    'DELETE FROM wdm_wdmwavelengthpath p WHERE p.id = $1 AND NOT EXISTS (SELECT 1 FROM wdm_wdmchannel c WHERE c.wavelength_path_id = p.id)',
    [pathId],
  );
}

/** Recomputes `is_active` of the paths these channels lie on (after a status change). */
export async function refreshPathActivity(manager: EntityManager, channelIds: readonly number[]): Promise<void> {
  await manager.query(
    `UPDATE wdm_wdmwavelengthpath p SET is_active = NOT EXISTS (SELECT 1 FROM wdm_wdmchannel c WHERE c.wavelength_path_id = p.id AND c.status <> 'active')
      WHERE p.id IN (SELECT wavelength_path_id FROM wdm_wdmchannel WHERE id = ANY($1) AND wavelength_path_id IS NOT NULL)`,
    [[...channelIds]],
  );
}

/** Decommissioning a circuit: the channels of its paths become available again and the circuit holds no path any more. */
export async function freeCircuitChannels(manager: EntityManager, circuitId: number): Promise<void> {
  const channels = (await manager.query(
    `UPDATE wdm_wdmchannel SET status = 'available', last_updated = now()
      WHERE wavelength_path_id IN (SELECT wdmwavelengthpath_id FROM wdm_wdmcircuit_wavelength_paths WHERE wdmcircuit_id = $1)
      RETURNING id`,
    [circuitId],
  )) as [Array<{ id: number }>, number] | Array<{ id: number }>;
  const ids = (Array.isArray(channels[0]) ? (channels[0] as Array<{ id: number }>) : (channels as Array<{ id: number }>)).map(
    (row) => row.id,
  );
  await refreshPathActivity(manager, ids);
  await manager.query('DELETE FROM wdm_wdmcircuit_wavelength_paths WHERE wdmcircuit_id = $1', [circuitId]);
}

// ---- trace and stitch answers ----

interface PortLink {
  id: number;
  name: string;
  url: string;
}

/** The elements of a chain as the trace and stitch answers show them (reference §4.3). */
async function describeElements(manager: EntityManager, chain: Chain, baseUrl: string) {
  const channelIds = chain.channels.map((channel) => channel.id);
  const rows = (await manager.query(
    `SELECT c.id, n.id AS node_id, d.name AS node_name,
            mux.id AS mux_id, mux.name AS mux_name, mux.cable_id IS NOT NULL AS mux_connected,
            demux.id AS demux_id, demux.name AS demux_name, demux.cable_id IS NOT NULL AS demux_connected
       FROM wdm_wdmchannel c JOIN wdm_wdmnode n ON n.id = c.wdm_node_id JOIN dcim_device d ON d.id = n.device_id
       LEFT JOIN dcim_frontport mux ON mux.id = c.mux_front_port_id
       LEFT JOIN dcim_frontport demux ON demux.id = c.demux_front_port_id
      WHERE c.id = ANY($1)`,
    [channelIds],
  )) as Array<Record<string, unknown>>;
  const byId = new Map(rows.map((row) => [row.id as number, row]));
  const port = (id: unknown, name: unknown): PortLink | null =>
    id === null ? null : { id: id as number, name: String(name), url: `${baseUrl}/api/dcim/front-ports/${String(id)}/` };
  return chain.channels.map((channel, sequence) => {
    const row = byId.get(channel.id)!;
    return {
      sequence,
      node_id: row.node_id as number,
      node_name: (row.node_name as string | null) ?? '',
      node_url: `${baseUrl}/api/plugins/wdm/wdm-nodes/${String(row.node_id)}/`,
      channel_id: channel.id,
      channel_label: channel.label,
      channel_url: `${baseUrl}/api/plugins/wdm/wdm-channels/${channel.id}/`,
      wavelength_nm: channel.wavelength_nm === null ? null : Number(channel.wavelength_nm),
      mux_port: port(row.mux_id, row.mux_name),
      demux_port: port(row.demux_id, row.demux_name),
      mux_connected: row.mux_id === null ? false : Boolean(row.mux_connected),
      demux_connected: row.demux_id === null ? false : Boolean(row.demux_connected),
    };
  });
}

async function describeCableSegments(manager: EntityManager, chain: Chain, baseUrl: string) {
  if (chain.hops.length === 0) return [];
  const rearIds = chain.hops.flatMap((hop) => [hop.nearRearPortId, hop.farRearPortId]);
  const rears = (await manager.query(
    `SELECT r.id, r.name, r.label, r.color, d.name AS device FROM dcim_rearport r JOIN dcim_device d ON d.id = r.device_id WHERE r.id = ANY($1)`,
    [rearIds],
  )) as Array<{ id: number; name: string; label: string; color: string; device: string | null }>;
  const cables = (await manager.query('SELECT id, label, status, color FROM dcim_cable WHERE id = ANY($1)', [
    chain.hops.map((hop) => hop.cableId),
  ])) as Array<{
    id: number;
    label: string;
    status: string;
    color: string;
  }>;
  const rear = (id: number) => {
    const row = rears.find((candidate) => candidate.id === id)!;
    return {
      type: 'rear_port',
      id,
      name: row.name,
      url: `${baseUrl}/api/dcim/rear-ports/${id}/`,
      device: row.device ?? '',
      label: row.label,
      status: null,
      color: row.color,
    };
  };
  return chain.hops.map((hop, index) => {
    const cable = cables.find((candidate) => candidate.id === hop.cableId)!;
    return {
      from_sequence: index,
      to_sequence: index + 1,
      items: [
        rear(hop.nearRearPortId),
        {
          type: 'cable',
          id: cable.id,
          name: cable.label || `#${cable.id}`,
          url: `${baseUrl}/api/dcim/cables/${cable.id}/`,
          device: null,
          label: cable.label,
          status: cable.status,
          color: cable.color,
        },
        rear(hop.farRearPortId),
      ],
    };
  });
}

/** `GET wdm-channels/{id}/trace/`: the channel's path end to end; a channel on no path answers empty lists. */
export async function traceChannel(manager: EntityManager, channelId: number, baseUrl: string) {
  const channel = (await channelById(manager, channelId))!;
  const chain = await chainOf(manager, channel);
  const flags = pathFlags(chain);
  const onPath = chain.channels.length >= 2;
  return {
    channel_id: channel.id,
    wavelength_path_id: onPath ? channel.wavelength_path_id : null,
    wavelength_nm: onPath && channel.wavelength_nm !== null ? Number(channel.wavelength_nm) : null,
    grid_position: channel.grid_position,
    is_complete: onPath && flags.is_complete,
    is_active: onPath && flags.is_active,
    is_valid: !onPath || flags.is_valid,
    elements: onPath ? await describeElements(manager, chain, baseUrl) : [],
    cable_segments: onPath ? await describeCableSegments(manager, chain, baseUrl) : [],
  };
}

/** `GET wdm-circuits/{id}/stitch/`: the circuit's paths, each with its elements from end to end. */
export async function stitchCircuit(manager: EntityManager, circuit: { id: number; [column: string]: unknown }, baseUrl: string) {
  const paths = (await manager.query(
    `SELECT p.id, p.wavelength_nm, p.is_complete, p.is_active,
            (SELECT c.id FROM wdm_wdmchannel c WHERE c.wavelength_path_id = p.id ORDER BY c.path_sequence LIMIT 1) AS first_channel_id
       FROM wdm_wdmcircuit_wavelength_paths link JOIN wdm_wdmwavelengthpath p ON p.id = link.wdmwavelengthpath_id
      WHERE link.wdmcircuit_id = $1 ORDER BY p.id`,
    [circuit.id],
  )) as Array<{ id: number; wavelength_nm: string | null; is_complete: boolean; is_active: boolean; first_channel_id: number | null }>;
  const described = [];
  for (const path of paths) {
    const first = path.first_channel_id === null ? null : await channelById(manager, path.first_channel_id);
    described.push({
      wavelength_path_id: path.id,
      wavelength_nm: path.wavelength_nm === null ? null : Number(path.wavelength_nm),
      is_complete: path.is_complete,
      is_active: path.is_active,
      elements: first ? await describeElements(manager, await chainOf(manager, first), baseUrl) : [],
    });
  }
  return { service_id: circuit.id, service_name: String(circuit.name), status: String(circuit.status), paths: described };
}

const PORT_LINK: OpenApiSchema = {
  type: 'object',
  nullable: true,
  required: ['id', 'name', 'url'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, url: { type: 'string', format: 'uri' } },
};

const ELEMENT: OpenApiSchema = {
  type: 'object',
  required: [
    'sequence',
    'node_id',
    'node_name',
    'node_url',
    'channel_id',
    'channel_label',
    'channel_url',
    'wavelength_nm',
    'mux_port',
    'demux_port',
    'mux_connected',
    'demux_connected',
  ],
  properties: {
    sequence: { type: 'integer', description: 'From 0, along the path' },
    node_id: { type: 'integer' },
    node_name: { type: 'string', description: "The node's device name" },
    node_url: { type: 'string', format: 'uri' },
    channel_id: { type: 'integer' },
    channel_label: { type: 'string' },
    channel_url: { type: 'string', format: 'uri' },
    wavelength_nm: { type: 'number', nullable: true },
    mux_port: PORT_LINK,
    demux_port: PORT_LINK,
    mux_connected: { type: 'boolean', description: 'The mux front port carries a cable' },
    demux_connected: { type: 'boolean', description: 'The demux front port carries a cable' },
  },
};

export const TRACE_DOCUMENTATION: ActionDocumentation = {
  summary: "Trace the channel's wavelength path through mux/demux ports, line ports, cables and the far nodes' channels",
  response: {
    type: 'object',
    required: [
      'channel_id',
      'wavelength_path_id',
      'wavelength_nm',
      'grid_position',
      'is_complete',
      'is_active',
      'is_valid',
      'elements',
      'cable_segments',
    ],
    properties: {
      channel_id: { type: 'integer' },
      wavelength_path_id: { type: 'integer', nullable: true },
      wavelength_nm: { type: 'number', nullable: true },
      grid_position: { type: 'integer' },
      is_complete: { type: 'boolean' },
      is_active: { type: 'boolean' },
      is_valid: { type: 'boolean' },
      elements: { type: 'array', items: ELEMENT },
      cable_segments: {
        type: 'array',
        items: {
          type: 'object',
          required: ['from_sequence', 'to_sequence', 'items'],
          properties: {
            from_sequence: { type: 'integer' },
            to_sequence: { type: 'integer' },
            items: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  type: { type: 'string', enum: ['rear_port', 'front_port', 'cable', 'circuit_termination'] },
                  id: { type: 'integer' },
                  name: { type: 'string' },
                  url: { type: 'string', format: 'uri' },
                  device: { type: 'string', nullable: true },
                  label: { type: 'string' },
                  status: { type: 'string', nullable: true },
                  color: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
  },
};

export const STITCH_DOCUMENTATION: ActionDocumentation = {
  summary: "The circuit's wavelength paths, each with its elements from end to end",
  response: {
    type: 'object',
    required: ['service_id', 'service_name', 'status', 'paths'],
    properties: {
      service_id: { type: 'integer' },
      service_name: { type: 'string' },
      status: { type: 'string' },
      paths: {
        type: 'array',
        items: {
          type: 'object',
          required: ['wavelength_path_id', 'wavelength_nm', 'is_complete', 'is_active', 'elements'],
          properties: {
            wavelength_path_id: { type: 'integer' },
            wavelength_nm: { type: 'number', nullable: true },
            is_complete: { type: 'boolean' },
            is_active: { type: 'boolean' },
            elements: { type: 'array', items: ELEMENT },
          },
        },
      },
    },
  },
};
