import type { EntityManager } from 'typeorm';
import type { ActionDocumentation, OpenApiSchema } from '../../platform/plugin-api';

/**
 * Wavelength paths. Two channels are linked when one's mux or demux port is mapped to a cabled line
 * rear port of its node and the cable's far rear port is mapped, at the same position, to a port of
 * a channel of the far node's line port (reference §4.3 trace). The links of one wavelength form a
 * graph; a channel with several links (a ROADM degree each) is where paths branch. Paths are derived
 * and stored in the through table `wdm_wdmwavelengthpathchannel` (path, channel, sequence), so a
 * channel may lie on several paths, as upstream's WdmWavelengthPathChannel.
 *
 * The graph is read set-based: one recursive statement finds every channel linked to the changed
 * ones however many hops away, one reads their links, one their rows, so a rebuild costs the same
 * number of statements for a chain of 2 nodes as for 20.
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
}

/** A cable between two linked channels, seen from the first: near rear port (on its node), cable, far rear port. */
interface Hop {
  nearRearPortId: number;
  cableId: number;
  farRearPortId: number;
}

interface Link extends Hop {
  to: number;
  nearRole: string;
}

const CHANNEL_COLUMNS =
  'c.id, c.wdm_node_id, c.grid_position, c.label, c.wavelength_nm, c.status, c.mux_front_port_id, c.demux_front_port_id';

/** From channel `c` to a linked channel `fc`: its port's mapping to a cabled line port, the cable, the far mapping at the same position. */
const LINK_JOINS = `
  JOIN dcim_portmapping pm ON pm.front_port_id IN (c.mux_front_port_id, c.demux_front_port_id)
  JOIN dcim_rearport rear ON rear.id = pm.rear_port_id AND rear.cable_id IS NOT NULL
  JOIN wdm_wdmlineport line ON line.rear_port_id = rear.id AND line.wdm_node_id = c.wdm_node_id
  JOIN dcim_cabletermination far ON far.cable_id = rear.cable_id AND far.cable_end <> rear.cable_end
   AND far.termination_type_id = (SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = 'rearport')
  JOIN dcim_portmapping fpm ON fpm.rear_port_id = far.termination_id AND fpm.rear_port_position = pm.rear_port_position
  JOIN wdm_wdmchannel fc ON fc.id <> c.id AND (fc.mux_front_port_id = fpm.front_port_id OR fc.demux_front_port_id = fpm.front_port_id)
  JOIN wdm_wdmlineport fl ON fl.wdm_node_id = fc.wdm_node_id AND fl.rear_port_id = fpm.rear_port_id`;

/** Every channel linked to these, directly or through others (one recursive statement). */
async function reachable(manager: EntityManager, seeds: readonly number[]): Promise<number[]> {
  const rows = (await manager.query(
    `WITH RECURSIVE reach(id) AS (
       SELECT c.id FROM wdm_wdmchannel c WHERE c.id = ANY($1::integer[])
       UNION
       SELECT fc.id FROM reach JOIN wdm_wdmchannel c ON c.id = reach.id ${LINK_JOINS}
     )
     SELECT id FROM reach`,
    [[...seeds]],
  )) as Array<{ id: number }>;
  return rows.map((row) => row.id);
}

/** The graph of these channels: their rows and, for each, its links in a stable order (near rear port, then channel). */
async function graphOf(manager: EntityManager, channelIds: readonly number[]) {
  const rows = (await manager.query(`SELECT ${CHANNEL_COLUMNS} FROM wdm_wdmchannel c WHERE c.id = ANY($1::integer[])`, [
    [...channelIds],
  ])) as ChannelRow[];
  const linkRows = (await manager.query(
    `SELECT DISTINCT c.id AS from_id, fc.id AS to_id, pm.rear_port_id AS near, rear.cable_id AS cable, far.termination_id AS far, line.role
       FROM wdm_wdmchannel c ${LINK_JOINS}
      WHERE c.id = ANY($1::integer[])
      ORDER BY c.id, pm.rear_port_id, fc.id`,
    [[...channelIds]],
  )) as Array<{ from_id: number; to_id: number; near: number; cable: number; far: number; role: string }>;
  const channels = new Map(rows.map((row) => [row.id, row]));
  const links = new Map<number, Link[]>(rows.map((row) => [row.id, []]));
  for (const link of linkRows) {
    const from = links.get(link.from_id);
    if (!from || !channels.has(link.to_id) || from.some((known) => known.to === link.to_id)) continue;
    from.push({ to: link.to_id, nearRearPortId: link.near, cableId: link.cable, farRearPortId: link.far, nearRole: link.role });
  }
  return { channels, links };
}

/** A path: its channels in order and the hop between each two consecutive ones. */
export interface Chain {
  channels: ChannelRow[];
  /** hops[i] joins channels[i] and channels[i + 1]: near rear port on channels[i]'s node. */
  hops: Hop[];
}

/** Bound the branching walk of one group of linked channels (a mesh could otherwise hold exponentially many paths). */
const MAX_PATHS_PER_GROUP = 64;
const MAX_WALK_STEPS_PER_GROUP = 100_000;

/**
 * The paths of one group of linked channels. The ends are the channels with one link (else, in a
 * mesh without them, those with three or more). From each end the walk follows every link to a
 * channel it has not passed, branching where a channel has several, and each walk that reaches
 * another end is a path; a path and its reverse are one. A group of channels with two links each
 * (a ring) is one path around it, from its lowest id. Each path runs with the light: one whose
 * first cable leaves through an RX line port is reversed.
 */
function pathsOfGroup(group: number[], graph: Awaited<ReturnType<typeof graphOf>>): number[][] {
  if (group.length < 2) return [];
  const degree = (id: number) => graph.links.get(id)!.length;
  const leaves = group.filter((id) => degree(id) === 1);
  const ends = leaves.length > 0 ? leaves : group.filter((id) => degree(id) >= 3);
  const found: number[][] = [];
  if (ends.length === 0) {
    const ring = [group[0]];
    for (;;) {
      const next = graph.links.get(ring[ring.length - 1])!.find((link) => !ring.includes(link.to));
      if (!next) break;
      ring.push(next.to);
    }
    found.push(ring);
  } else {
    const isEnd = new Set(ends);
    let steps = 0;
    for (const start of ends) {
      const walk = (trail: number[]) => {
        if (found.length >= MAX_PATHS_PER_GROUP || ++steps > MAX_WALK_STEPS_PER_GROUP) return;
        const here = trail[trail.length - 1];
        if (trail.length > 1 && isEnd.has(here)) {
          if (start < here) found.push([...trail]);
          return;
        }
        for (const link of graph.links.get(here)!) {
          if (trail.includes(link.to)) continue;
          trail.push(link.to);
          walk(trail);
          trail.pop();
        }
      };
      walk([start]);
    }
  }
  return found.map((ids) => (graph.links.get(ids[0])!.find((link) => link.to === ids[1])?.nearRole === 'rx' ? [...ids].reverse() : ids));
}

/** The groups of linked channels among these (connected components), each sorted by id, in order of their lowest id. */
function groupsOf(graph: Awaited<ReturnType<typeof graphOf>>): number[][] {
  const groupOf = new Map<number, number[]>();
  const groups: number[][] = [];
  for (const id of [...graph.channels.keys()].sort((a, b) => a - b)) {
    if (groupOf.has(id)) continue;
    const group: number[] = [];
    const stack = [id];
    groupOf.set(id, group);
    while (stack.length > 0) {
      const current = stack.pop()!;
      group.push(current);
      for (const link of graph.links.get(current)!) {
        if (groupOf.has(link.to)) continue;
        groupOf.set(link.to, group);
        stack.push(link.to);
      }
    }
    groups.push(group.sort((a, b) => a - b));
  }
  return groups;
}

function chainOf(ids: number[], graph: Awaited<ReturnType<typeof graphOf>>): Chain {
  return {
    channels: ids.map((id) => graph.channels.get(id)!),
    hops: ids.slice(1).map((to, index) => {
      const link = graph.links.get(ids[index])!.find((candidate) => candidate.to === to)!;
      return { nearRearPortId: link.nearRearPortId, cableId: link.cableId, farRearPortId: link.farRearPortId };
    }),
  };
}

/** The live paths of the channels linked to these, as chains. */
async function livePaths(manager: EntityManager, seeds: readonly number[]) {
  const graph = await graphOf(manager, await reachable(manager, seeds));
  return { graph, paths: groupsOf(graph).flatMap((group) => pathsOfGroup(group, graph)) };
}

function pathFlags(chain: Chain) {
  const ends = [chain.channels[0], chain.channels[chain.channels.length - 1]];
  return {
    is_complete: chain.channels.length >= 2 && ends.every((end) => end.mux_front_port_id !== null || end.demux_front_port_id !== null),
    is_active: chain.channels.every((channel) => channel.status === 'active'),
    is_valid: chain.channels.every((channel) => channel.grid_position === chain.channels[0].grid_position),
  };
}

/** The stored paths (with their channels in order) that hold any of these channels. */
async function storedPathsOf(manager: EntityManager, channelIds: readonly number[]): Promise<Map<number, number[]>> {
  const rows = (await manager.query(
    `SELECT path_id, channel_id FROM wdm_wdmwavelengthpathchannel
      WHERE path_id IN (SELECT path_id FROM wdm_wdmwavelengthpathchannel WHERE channel_id = ANY($1::integer[]))
      ORDER BY path_id, sequence`,
    [[...channelIds]],
  )) as Array<{ path_id: number; channel_id: number }>;
  const paths = new Map<number, number[]>();
  for (const row of rows) paths.set(row.path_id, [...(paths.get(row.path_id) ?? []), row.channel_id]);
  return paths;
}

const sameSequence = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, index) => id === b[index]);

/**
 * Rebuilds the paths of these channels and of every channel linked to them. The stored paths they
 * were on are matched to the new ones (same channels in the same or reverse order first, then the
 * most channels in common, lowest id first), so a path keeps its id, and the circuits using it,
 * across a change that extends, shortens or reorders it; channels that a stored path held but that
 * are no longer linked are rebuilt too. Stored paths left unmatched are deleted.
 */
export async function rebuildPaths(manager: EntityManager, channelIds: readonly number[]): Promise<void> {
  if (channelIds.length === 0) return;
  let seeds = [...new Set(channelIds)];
  let members: number[];
  let stored: Map<number, number[]>;
  // Channels that shared a stored path with the linked ones belong to the rebuild as well (a cable removed splits a path).
  for (;;) {
    members = await reachable(manager, seeds);
    stored = await storedPathsOf(manager, members);
    const known = new Set(members);
    const more = [...new Set([...stored.values()].flat())].filter((id) => !known.has(id));
    if (more.length === 0) break;
    seeds = [...members, ...more];
  }
  const graph = await graphOf(manager, members);
  const fresh = groupsOf(graph)
    .flatMap((group) => pathsOfGroup(group, graph))
    .map((ids) => chainOf(ids, graph));
  const unmatched = new Map(stored);
  const ids: Array<number | null> = fresh.map((chain) => {
    const sequence = chain.channels.map((channel) => channel.id);
    for (const [pathId, held] of unmatched) {
      if (sameSequence(held, sequence) || sameSequence([...held].reverse(), sequence)) {
        unmatched.delete(pathId);
        return pathId;
      }
    }
    return null;
  });
  fresh.forEach((chain, index) => {
    if (ids[index] !== null) return;
    const sequence = new Set(chain.channels.map((channel) => channel.id));
    let best: { pathId: number; shared: number } | null = null;
    for (const [pathId, held] of [...unmatched].sort(([a], [b]) => a - b)) {
      const shared = held.filter((id) => sequence.has(id)).length;
      if (shared > 0 && (best === null || shared > best.shared)) best = { pathId, shared };
    }
    if (best) {
      unmatched.delete(best.pathId);
      ids[index] = best.pathId;
    }
  });
  const created = ids.filter((id) => id === null).length;
  const newIds =
    created === 0
      ? []
      : (
          (await manager.query(
            `SELECT nextval(pg_get_serial_sequence('wdm_wdmwavelengthpath', 'id'))::integer AS id FROM generate_series(1, $1)`,
            [created],
          )) as Array<{ id: number }>
        ).map((row) => row.id);
  const pathIds = ids.map((id) => id ?? newIds.shift()!);
  if (stored.size > 0) {
    await manager.query('DELETE FROM wdm_wdmwavelengthpathchannel WHERE path_id = ANY($1::integer[])', [[...stored.keys()]]);
  }
  if (unmatched.size > 0) await manager.query('DELETE FROM wdm_wdmwavelengthpath WHERE id = ANY($1::integer[])', [[...unmatched.keys()]]);
  if (fresh.length === 0) return;
  const flags = fresh.map(pathFlags);
  const columns = [
    pathIds,
    fresh.map((chain) => chain.channels[0].grid_position),
    fresh.map((chain) => chain.channels[0].wavelength_nm),
    flags.map((flag) => flag.is_complete),
    flags.map((flag) => flag.is_active),
    flags.map((flag) => flag.is_valid),
  ];
  await manager.query(
    `INSERT INTO wdm_wdmwavelengthpath (id, grid_position, wavelength_nm, is_complete, is_active, is_valid)
     SELECT * FROM unnest($1::integer[], $2::integer[], $3::numeric[], $4::boolean[], $5::boolean[], $6::boolean[])
     ON CONFLICT (id) DO UPDATE SET grid_position = EXCLUDED.grid_position, wavelength_nm = EXCLUDED.wavelength_nm,
       is_complete = EXCLUDED.is_complete, is_active = EXCLUDED.is_active, is_valid = EXCLUDED.is_valid, last_updated = now()`,
    columns,
  );
  const entries = fresh.flatMap((chain, index) => chain.channels.map((channel, sequence) => [pathIds[index], channel.id, sequence]));
  await manager.query(
    `INSERT INTO wdm_wdmwavelengthpathchannel (path_id, channel_id, sequence)
     SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[])`,
    [entries.map((entry) => entry[0]), entries.map((entry) => entry[1]), entries.map((entry) => entry[2])],
  );
}

/** Channels sharing a path with channels about to be deleted, noted before the deletion (the through rows go with the channels). */
const pathsBeforeDelete = new WeakMap<EntityManager, { channels: Set<number>; paths: Set<number> }>();

export async function noteChannelPathsBeforeDelete(manager: EntityManager, channelIds: readonly number[]): Promise<void> {
  const stored = await storedPathsOf(manager, channelIds);
  const noted = pathsBeforeDelete.get(manager) ?? { channels: new Set<number>(), paths: new Set<number>() };
  const deleted = new Set(channelIds);
  for (const [pathId, held] of stored) {
    noted.paths.add(pathId);
    for (const id of held) if (!deleted.has(id)) noted.channels.add(id);
  }
  for (const id of deleted) noted.channels.delete(id);
  pathsBeforeDelete.set(manager, noted);
}

/** After channels are deleted (also with their node or device): the rest of their paths is rebuilt, an emptied path deleted. */
export async function rebuildAfterChannelsDeleted(manager: EntityManager): Promise<void> {
  const noted = pathsBeforeDelete.get(manager);
  if (!noted) return;
  pathsBeforeDelete.delete(manager);
  const survivors = (await manager.query('SELECT id FROM wdm_wdmchannel WHERE id = ANY($1::integer[])', [[...noted.channels]])) as Array<{
    id: number;
  }>;
  await rebuildPaths(
    manager,
    survivors.map((row) => row.id),
  );
  await manager.query(
    `DELETE FROM wdm_wdmwavelengthpath p WHERE p.id = ANY($1::integer[])
        AND NOT EXISTS (SELECT 1 FROM wdm_wdmwavelengthpathchannel t WHERE t.path_id = p.id)`,
    [[...noted.paths]],
  );
}

/** Recomputes `is_active` of the paths these channels lie on (after a status change). */
export async function refreshPathActivity(manager: EntityManager, channelIds: readonly number[]): Promise<void> {
  await manager.query(
    `UPDATE wdm_wdmwavelengthpath p SET is_active = NOT EXISTS (
        SELECT 1 FROM wdm_wdmwavelengthpathchannel t JOIN wdm_wdmchannel c ON c.id = t.channel_id WHERE t.path_id = p.id AND c.status <> 'active')
      WHERE p.id IN (SELECT path_id FROM wdm_wdmwavelengthpathchannel WHERE channel_id = ANY($1::integer[]))`,
    [[...channelIds]],
  );
}

/** Decommissioning a circuit: the channels of its paths become available again and the circuit holds no path any more. */
export async function freeCircuitChannels(manager: EntityManager, circuitId: number): Promise<void> {
  const channels = (await manager.query(
    `UPDATE wdm_wdmchannel SET status = 'available', last_updated = now()
      WHERE id IN (SELECT t.channel_id FROM wdm_wdmwavelengthpathchannel t
                     JOIN wdm_wdmcircuit_wavelength_paths link ON link.wdmwavelengthpath_id = t.path_id WHERE link.wdmcircuit_id = $1)
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

/**
 * `GET wdm-channels/{id}/trace/`: the channel's path followed live through the cables. A channel on
 * several paths answers the first of them (lowest id); one on no path answers empty lists.
 */
export async function traceChannel(manager: EntityManager, channelId: number, baseUrl: string) {
  const { graph, paths } = await livePaths(manager, [channelId]);
  const channel = graph.channels.get(channelId)!;
  const through = paths.filter((ids) => ids.includes(channelId));
  const stored = [...(await storedPathsOf(manager, [channelId]))].sort(([a], [b]) => a - b);
  let chosen: { pathId: number | null; ids: number[] } | null = null;
  for (const [pathId, held] of stored) {
    const live = through.find((ids) => sameSequence(ids, held));
    if (live) {
      chosen = { pathId, ids: live };
      break;
    }
  }
  if (!chosen && through.length > 0) chosen = { pathId: null, ids: through[0] };
  if (!chosen) {
    return {
      channel_id: channel.id,
      wavelength_path_id: null,
      wavelength_nm: null,
      grid_position: channel.grid_position,
      is_complete: false,
      is_active: false,
      is_valid: true,
      elements: [],
      cable_segments: [],
    };
  }
  const chain = chainOf(chosen.ids, graph);
  const flags = pathFlags(chain);
  return {
    channel_id: channel.id,
    wavelength_path_id: chosen.pathId,
    wavelength_nm: channel.wavelength_nm !== null ? Number(channel.wavelength_nm) : null,
    grid_position: channel.grid_position,
    is_complete: flags.is_complete,
    is_active: flags.is_active,
    is_valid: flags.is_valid,
    elements: await describeElements(manager, chain, baseUrl),
    cable_segments: await describeCableSegments(manager, chain, baseUrl),
  };
}

/** `GET wdm-circuits/{id}/stitch/`: the circuit's paths, each with its stored channels from end to end. */
export async function stitchCircuit(manager: EntityManager, circuit: { id: number; [column: string]: unknown }, baseUrl: string) {
  const paths = (await manager.query(
    `SELECT p.id, p.wavelength_nm, p.is_complete, p.is_active
       FROM wdm_wdmcircuit_wavelength_paths link JOIN wdm_wdmwavelengthpath p ON p.id = link.wdmwavelengthpath_id
      WHERE link.wdmcircuit_id = $1 ORDER BY p.id`,
    [circuit.id],
  )) as Array<{ id: number; wavelength_nm: string | null; is_complete: boolean; is_active: boolean }>;
  const entries = (await manager.query(
    `SELECT t.path_id, ${CHANNEL_COLUMNS} FROM wdm_wdmwavelengthpathchannel t JOIN wdm_wdmchannel c ON c.id = t.channel_id
      WHERE t.path_id = ANY($1::integer[]) ORDER BY t.path_id, t.sequence`,
    [paths.map((path) => path.id)],
  )) as Array<ChannelRow & { path_id: number }>;
  const described = [];
  for (const path of paths) {
    const channels = entries.filter((entry) => entry.path_id === path.id);
    described.push({
      wavelength_path_id: path.id,
      wavelength_nm: path.wavelength_nm === null ? null : Number(path.wavelength_nm),
      is_complete: path.is_complete,
      is_active: path.is_active,
      elements: channels.length > 0 ? await describeElements(manager, { channels, hops: [] }, baseUrl) : [],
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
