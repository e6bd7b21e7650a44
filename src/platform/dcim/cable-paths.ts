import type { EntityManager } from 'typeorm';
import type {
  ActionDocumentation,
  ObjectSerializer,
  ResourceAction,
  ResourceActionContext,
  ResourceExtension,
  ResourceHookContext,
  ResourceRow,
} from '../framework/resource/resource-declaration';
import { CABLE_TERMINATION_TABLE } from './cable-terminations';

/** Where a cable path starts and ends (NetBox's PathEndpoint models); front/rear ports and circuit terminations pass paths through. */
export const PATH_ENDPOINT_TYPES: readonly string[] = [
  'dcim.interface',
  'dcim.consoleport',
  'dcim.consoleserverport',
  'dcim.powerport',
  'dcim.poweroutlet',
  'dcim.powerfeed',
];
export const PASS_THROUGH_TYPES: readonly string[] = ['dcim.frontport', 'dcim.rearport', 'circuits.circuittermination'];
const CABLE = 'dcim.cable';
export const CABLE_PATH_TABLE = 'dcim_cablepath';

/** A path never has more levels than this (a loop in the cabling ends it). */
const MAX_LEVELS = 3 * 64;

/** One object on a path: `[object type, id]`. */
type PathNode = readonly [string, number];

/** How the nodes of the path's last level were reached, and so which step comes next. */
type Step = 'cable' | 'through' | 'either';

interface Walk {
  levels: PathNode[][];
  /** Rear-port positions entered from front ports, innermost last (NetBox's position stack). */
  stack: number[];
  next: Step;
  active: boolean;
  split: boolean;
  done: boolean;
  /** The last level was reached across a cable. */
  endedOnCable: boolean;
}

interface LevelRow {
  k: number;
  type: string;
  id: number;
  cable_id: number | null;
  cable_status: string | null;
  far_type: string | null;
  far_id: number | null;
  fm_rear_id: number | null;
  fm_rear_pos: number | null;
  fm_front_pos: number | null;
  rear_positions: number | null;
  rm_front_id: number | null;
  peer_id: number | null;
}

export interface ComputedPath {
  levels: PathNode[][];
  destinations: PathNode[];
  is_active: boolean;
  is_complete: boolean;
  is_split: boolean;
}

const key = ([type, id]: PathNode) => `${type}:${id}`;

/**
 * Walks the cable paths from these starting objects all at once, one SQL statement per level for
 * all of them: from each object across its cable to the far ends, then through a pass-through
 * port (front port → rear port at the mapped position, rear port → the front port at the position
 * the path entered the far panel with, circuit termination → the circuit's other termination) and
 * across the next cable, until an end point, a port without a cable or a split.
 */
export async function walkPaths(manager: EntityManager, starts: readonly PathNode[]): Promise<ComputedPath[]> {
  const walks: Walk[] = starts.map((start) => ({
    levels: [[start]],
    stack: [],
    next: PASS_THROUGH_TYPES.includes(start[0]) ? 'either' : 'cable',
    active: true,
    split: false,
    done: false,
    endedOnCable: false,
  }));
  for (let level = 0; level < MAX_LEVELS; level++) {
    const frontier = walks.flatMap((walk, k) => (walk.done ? [] : walk.levels.at(-1)!.map((node) => ({ k, node, walk }))));
    if (frontier.length === 0) break;
    const rows = (await manager.query(
      `SELECT f.k, f.type, f.id, ct.cable_id, c.status AS cable_status,
              fot.app_label || '.' || fot.model AS far_type, far.termination_id AS far_id,
              fm.rear_port_id AS fm_rear_id, fm.rear_port_position AS fm_rear_pos, fm.front_port_position AS fm_front_pos,
              rp.positions AS rear_positions, rm.front_port_id AS rm_front_id, peer.id AS peer_id
         FROM unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::text[]) AS f(k, type, id, pos, step)
         LEFT JOIN core_objecttype ot ON f.step <> 'through' AND ot.app_label || '.' || ot.model = f.type
         LEFT JOIN ${CABLE_TERMINATION_TABLE} ct ON ct.termination_type_id = ot.id AND ct.termination_id = f.id
         LEFT JOIN dcim_cable c ON c.id = ct.cable_id
         LEFT JOIN ${CABLE_TERMINATION_TABLE} far ON far.cable_id = ct.cable_id AND far.cable_end <> ct.cable_end
         LEFT JOIN core_objecttype fot ON fot.id = far.termination_type_id
         LEFT JOIN dcim_portmapping fm ON f.step <> 'cable' AND f.type = 'dcim.frontport' AND fm.front_port_id = f.id
         LEFT JOIN dcim_rearport rp ON f.step = 'through' AND f.type = 'dcim.rearport' AND rp.id = f.id
         LEFT JOIN dcim_portmapping rm ON rm.rear_port_id = rp.id
               AND (rm.rear_port_position = f.pos OR (f.pos IS NULL AND rp.positions = 1))
         LEFT JOIN circuits_circuittermination ctt ON f.step <> 'cable' AND f.type = 'circuits.circuittermination' AND ctt.id = f.id
         LEFT JOIN circuits_circuittermination peer ON peer.circuit_id = ctt.circuit_id AND peer.id <> ctt.id
        ORDER BY f.k, far.id, fm.front_port_position, rm.front_port_position`,
      [
        frontier.map((entry) => entry.k),
        frontier.map((entry) => entry.node[0]),
        frontier.map((entry) => entry.node[1]),
        frontier.map((entry) => entry.walk.stack.at(-1) ?? null),
        frontier.map((entry) => entry.walk.next),
      ],
    )) as LevelRow[];
    const byWalk = new Map<number, LevelRow[]>();
    for (const row of rows) byWalk.set(row.k, [...(byWalk.get(row.k) ?? []), row]);
    for (const [k, walk] of walks.entries()) {
      if (!walk.done) advance(walk, byWalk.get(k) ?? []);
    }
  }
  return walks.map((walk) => {
    const last = walk.levels.at(-1)!;
    const complete = walk.levels.length > 1 && walk.endedOnCable && last.every(([type]) => PATH_ENDPOINT_TYPES.includes(type));
    return {
      levels: walk.levels,
      destinations: complete ? last : [],
      is_active: walk.active,
      is_complete: complete,
      is_split: walk.split,
    };
  });
}

/** One step of one walk: across the cable, or through the pass-through ports of the last level. */
function advance(walk: Walk, rows: readonly LevelRow[]): void {
  const cabled = rows.filter((row) => row.cable_id !== null && row.far_id !== null);
  if (walk.next !== 'through' && cabled.length > 0) {
    const cables = [...new Set(cabled.map((row) => row.cable_id!))];
    const far = unique(cabled.map((row): PathNode => [row.far_type!, row.far_id!]));
    walk.active &&= cabled.every((row) => row.cable_status === 'connected');
    walk.levels.push(
      cables.map((id): PathNode => [CABLE, id]),
      far,
    );
    walk.endedOnCable = true;
    walk.next = 'through';
    walk.done = far.every(([type]) => !PASS_THROUGH_TYPES.includes(type));
    return;
  }
  if (walk.next === 'cable') {
    walk.done = true;
    return;
  }
  const next: PathNode[] = [];
  let pushed: number | undefined;
  for (const row of rows) {
    if (row.type === 'dcim.frontport' && row.fm_rear_id !== null) {
      if (pushed === undefined) {
        next.push(['dcim.rearport', row.fm_rear_id]);
        pushed = row.fm_rear_pos!;
      }
    } else if (row.type === 'dcim.rearport' && row.rm_front_id !== null) {
      next.push(['dcim.frontport', row.rm_front_id]);
    } else if (row.type === 'dcim.rearport' && row.rear_positions !== null && row.rear_positions > 1 && walk.stack.length === 0) {
      walk.split = true;
    } else if (row.type === 'circuits.circuittermination' && row.peer_id !== null) {
      next.push(['circuits.circuittermination', row.peer_id]);
    }
  }
  const nodes = unique(next);
  if (nodes.length === 0) {
    walk.done = true;
    return;
  }
  if (nodes[0][0] === 'dcim.frontport' && walk.levels.at(-1)![0][0] === 'dcim.rearport') walk.stack.pop();
  if (pushed !== undefined) walk.stack.push(pushed);
  walk.levels.push(nodes);
  walk.endedOnCable = false;
  walk.next = 'cable';
  const seen = new Set(walk.levels.slice(0, -1).flat().map(key));
  if (nodes.some((node) => seen.has(key(node)))) walk.done = true;
}

function unique(nodes: readonly PathNode[]): PathNode[] {
  const seen = new Set<string>();
  return nodes.filter((node) => !seen.has(key(node)) && seen.add(key(node)));
}

/**
 * Recomputes the stored paths of these origins (end points) in one walk: an origin on a cable gets
 * its path written (replacing the old one), an origin without one loses its path.
 */
export async function storePaths(manager: EntityManager, origins: readonly PathNode[]): Promise<void> {
  const endpoints = unique(origins.filter(([type]) => PATH_ENDPOINT_TYPES.includes(type)));
  if (endpoints.length === 0) return;
  const paths = await walkPaths(manager, endpoints);
  await manager.query(
    `DELETE FROM ${CABLE_PATH_TABLE} p USING unnest($1::text[], $2::int[]) AS o(type, id) WHERE p.origin_type = o.type AND p.origin_id = o.id`,
    [endpoints.map(([type]) => type), endpoints.map(([, id]) => id)],
  );
  const stored = paths.map((path, index) => ({ path, origin: endpoints[index] })).filter(({ path }) => path.levels.length > 1);
  if (stored.length === 0) return;
  await manager.query(
    `INSERT INTO ${CABLE_PATH_TABLE} (origin_type, origin_id, path, nodes, destinations, is_active, is_complete, is_split)
     SELECT o.type, o.id, o.path::jsonb, ARRAY(SELECT jsonb_array_elements_text(o.nodes::jsonb)), o.destinations::jsonb, o.active, o.complete, o.split
       FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::bool[], $7::bool[], $8::bool[])
            AS o(type, id, path, nodes, destinations, active, complete, split)`,
    [
      stored.map(({ origin }) => origin[0]),
      stored.map(({ origin }) => origin[1]),
      stored.map(({ path }) => JSON.stringify(path.levels)),
      stored.map(({ path }) => JSON.stringify(path.levels.flat().map(key))),
      stored.map(({ path }) => JSON.stringify(path.destinations)),
      stored.map(({ path }) => path.is_active),
      stored.map(({ path }) => path.is_complete),
      stored.map(({ path }) => path.is_split),
    ],
  );
}

/** The origins of the stored paths that pass any of these objects (`type:id`). */
async function originsThrough(manager: EntityManager, nodes: readonly PathNode[]): Promise<PathNode[]> {
  if (nodes.length === 0) return [];
  const rows = (await manager.query(`SELECT origin_type, origin_id FROM ${CABLE_PATH_TABLE} WHERE nodes && $1::text[]`, [
    nodes.map(key),
  ])) as Array<{ origin_type: string; origin_id: number }>;
  return rows.map((row) => [row.origin_type, row.origin_id]);
}

/** After a cable is written: the paths of its end points and every path that passed it or its ends. */
export async function recomputeForCable(manager: EntityManager, cableId: number): Promise<void> {
  const terminations = (await manager.query(
    `SELECT ot.app_label || '.' || ot.model AS type, ct.termination_id AS id
       FROM ${CABLE_TERMINATION_TABLE} ct JOIN core_objecttype ot ON ot.id = ct.termination_type_id WHERE ct.cable_id = $1`,
    [cableId],
  )) as Array<{ type: string; id: number }>;
  const ends = terminations.map((row): PathNode => [row.type, row.id]);
  await storePaths(manager, [...ends, ...(await originsThrough(manager, [[CABLE, cableId], ...ends]))]);
}

/** After objects on paths changed or went (a port, a mapping): every path through them, and theirs. */
export async function recomputeThrough(manager: EntityManager, nodes: readonly PathNode[]): Promise<void> {
  const origins = await originsThrough(manager, nodes);
  await manager.query(
    `DELETE FROM ${CABLE_PATH_TABLE} p USING unnest($1::text[], $2::int[]) AS o(type, id) WHERE p.origin_type = o.type AND p.origin_id = o.id`,
    [nodes.map(([type]) => type), nodes.map(([, id]) => id)],
  );
  await storePaths(
    manager,
    origins.filter((origin) => !nodes.some((node) => key(node) === key(origin))),
  );
}

/** Hooks that keep stored paths current when a cabled object or a port mapping is deleted. */
export function pathHooks(objectType: string) {
  return {
    afterDelete: (context: ResourceHookContext, row: ResourceRow) => recomputeThrough(context.manager, [[objectType, row.id]]),
  };
}

interface StoredPath {
  id: number;
  origin_type: string;
  origin_id: number;
  path: PathNode[][];
  destinations: PathNode[];
  is_active: boolean;
  is_complete: boolean;
  is_split: boolean;
}

/**
 * Brief representations of every node of these paths, by `type:id`: each object type's rows and
 * their references read at once with the others' (a GET reads on pooled connections), so the path
 * costs two round trips after it is read, not two per type.
 */
async function representNodes(
  manager: EntityManager,
  serializer: ObjectSerializer,
  baseUrl: string,
  levels: ReadonlyArray<readonly PathNode[]>,
): Promise<Map<string, Record<string, unknown>>> {
  const byType = new Map<string, Set<number>>();
  for (const [type, id] of levels.flat()) byType.set(type, (byType.get(type) ?? new Set()).add(id));
  const shown = new Map<string, Record<string, unknown>>();
  const types = [...byType];
  const objects = await Promise.all(types.map(([type, ids]) => serializer.briefByIds(manager, type, [...ids], baseUrl)));
  types.forEach(([type], index) => {
    for (const [id, object] of objects[index]) shown.set(`${type}:${id}`, object);
  });
  return shown;
}

/**
 * NetBox's trace: one `[near ends, cable, far ends]` segment per cable the path crosses; with
 * `padEnd`, a path ending on a pass-through port without a cable ends with `[[that port], [], []]`,
 * as NetBox pads an end point's stored path.
 */
async function segments(
  { manager, serializer, scope, permittedIds }: ResourceActionContext,
  levels: PathNode[][],
  padEnd: boolean,
): Promise<unknown[]> {
  const shown = await viewableNodes(await representNodes(manager, serializer, scope.baseUrl, levels), permittedIds);
  const objects = (nodes: readonly PathNode[] | undefined) => (nodes ?? []).map((node) => shown.get(key(node)) ?? null);
  const result: unknown[] = [];
  let lastFar = 0;
  levels.forEach((nodes, index) => {
    if (nodes[0]?.[0] !== CABLE || index === 0) return;
    result.push([objects(levels[index - 1]), objects(nodes)[0] ?? null, objects(levels[index + 1])]);
    lastFar = index + 1;
  });
  if (padEnd && result.length > 0 && levels.length - 1 > lastFar) result.push([objects(levels.at(-1)), [], []]);
  return result;
}

/**
 * The nodes the caller may view, the others left out (so shown as null): a trace or path list reaches
 * objects beyond the one it was asked on, and each is checked as its own detail would be.
 */
async function viewableNodes(
  shown: Map<string, Record<string, unknown>>,
  permittedIds: ResourceActionContext['permittedIds'],
): Promise<Map<string, Record<string, unknown>>> {
  const byType = new Map<string, number[]>();
  for (const node of shown.keys()) {
    const [type, id] = splitKey(node);
    byType.set(type, [...(byType.get(type) ?? []), id]);
  }
  const permitted = await Promise.all(
    [...byType].map(async ([type, ids]) => [type, await permittedIds(type, 'view', ids, { existing: true })] as const),
  );
  const allowed = new Map(permitted);
  return new Map(
    [...shown].filter(([node]) => {
      const [type, id] = splitKey(node);
      return allowed.get(type)?.has(id) ?? false;
    }),
  );
}

function splitKey(node: string): [string, number] {
  const separator = node.lastIndexOf(':');
  return [node.slice(0, separator), Number(node.slice(separator + 1))];
}

const TRACE_OPENAPI: ActionDocumentation = {
  summary: 'The cable path from this object: one [near ends, cable, far ends] segment per cable crossed',
  response: {
    type: 'array',
    items: {
      type: 'array',
      minItems: 3,
      maxItems: 3,
      description: '[near-end objects (brief), the cable (brief; [] on a last pass-through port without one), far-end objects (brief)]',
      items: {
        oneOf: [
          { type: 'array', items: { type: 'object' } },
          { type: 'object', nullable: true },
        ],
      },
    },
  },
};

/**
 * `GET {id}/trace/`: an end point's stored path; a pass-through port's (front or rear port, circuit
 * termination) walked from it on request, first across its own cable or, without one, through it.
 */
export function traceAction(objectType: string): ResourceAction {
  return {
    name: 'trace',
    method: 'GET',
    permission: 'view',
    openapi: TRACE_OPENAPI,
    handle: async (context) => {
      const { manager, row } = context;
      if (PATH_ENDPOINT_TYPES.includes(objectType)) {
        const [stored] = (await manager.query(`SELECT path FROM ${CABLE_PATH_TABLE} WHERE origin_type = $1 AND origin_id = $2`, [
          objectType,
          row.id,
        ])) as Array<Pick<StoredPath, 'path'>>;
        return segments(context, stored?.path ?? [[[objectType, row.id]]], true);
      }
      const [walked] = await walkPaths(manager, [[objectType, row.id]]);
      return segments(context, walked.levels, false);
    },
  };
}

/** `GET {id}/paths/` on a pass-through port: the stored paths that pass it (NetBox's CablePath list). */
export function pathsAction(objectType: string): ResourceAction {
  return {
    name: 'paths',
    method: 'GET',
    permission: 'view',
    openapi: {
      summary: 'The cable paths that pass through this object',
      response: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'path', 'is_active', 'is_complete', 'is_split'],
          properties: {
            id: { type: 'integer' },
            path: { type: 'array', items: { type: 'array', items: { type: 'object' } } },
            is_active: { type: 'boolean' },
            is_complete: { type: 'boolean' },
            is_split: { type: 'boolean' },
          },
        },
      },
    },
    handle: async ({ manager, row, scope, serializer, permittedIds }) => {
      const paths = (await manager.query(
        `SELECT id, path, is_active, is_complete, is_split FROM ${CABLE_PATH_TABLE} WHERE nodes @> ARRAY[$1::text] ORDER BY id`,
        [`${objectType}:${row.id}`],
      )) as StoredPath[];
      const shown = await viewableNodes(
        await representNodes(
          manager,
          serializer,
          scope.baseUrl,
          paths.flatMap((path) => path.path),
        ),
        permittedIds,
      );
      return paths.map((path) => ({
        id: path.id,
        path: path.path.map((nodes) => nodes.map((node) => shown.get(key(node)) ?? null)),
        is_active: path.is_active,
        is_complete: path.is_complete,
        is_split: path.is_split,
      }));
    },
  };
}

/**
 * What an end point shows of its cabling (NetBox's CabledObjectSerializer and
 * ConnectedEndpointsSerializer): `link_peers` (the cable's far ends), `connected_endpoints` (its
 * path's destinations), their types, whether the path is active, and `_occupied`. One query each
 * per page, plus one per object type shown.
 */
export function pathEndpointExtension(objectType: string): ResourceExtension {
  return cablingExtension(objectType, true);
}

/** `link_peers`, `link_peers_type` and `_occupied` of a pass-through port. */
export function linkPeersExtension(objectType: string): ResourceExtension {
  return cablingExtension(objectType, false);
}

function cablingExtension(objectType: string, withPaths: boolean): ResourceExtension {
  const keys = [
    'link_peers',
    'link_peers_type',
    ...(withPaths ? ['connected_endpoints', 'connected_endpoints_type', 'connected_endpoints_reachable'] : []),
    '_occupied',
  ];
  const objects = { type: 'array', nullable: true, readOnly: true, items: { type: 'object', description: 'brief object' } } as const;
  const type = { type: 'string', nullable: true, readOnly: true, description: '"app_label.model"' } as const;
  return {
    keys,
    readSchema: {
      link_peers: objects,
      link_peers_type: type,
      connected_endpoints: objects,
      connected_endpoints_type: type,
      connected_endpoints_reachable: { type: 'boolean', nullable: true, readOnly: true },
      _occupied: { type: 'boolean', readOnly: true },
    },
    represent: (manager, rows, baseUrl, serializer) => representCabling(manager, serializer, baseUrl, objectType, rows, withPaths),
    snapshot: async () => new Map(),
    validate: async () => ({}),
    apply: async () => undefined,
  };
}

async function representCabling(
  manager: EntityManager,
  serializer: ObjectSerializer,
  baseUrl: string,
  objectType: string,
  rows: readonly ResourceRow[],
  withPaths: boolean,
): Promise<Map<number, Record<string, unknown>>> {
  const ids = rows.map((row) => row.id);
  const peers = (await manager.query(
    `SELECT ct.termination_id AS id, fot.app_label || '.' || fot.model AS type, far.termination_id AS far_id
       FROM ${CABLE_TERMINATION_TABLE} ct
       JOIN core_objecttype ot ON ot.id = ct.termination_type_id AND ot.app_label || '.' || ot.model = $1
       JOIN ${CABLE_TERMINATION_TABLE} far ON far.cable_id = ct.cable_id AND far.cable_end <> ct.cable_end
       JOIN core_objecttype fot ON fot.id = far.termination_type_id
      WHERE ct.termination_id = ANY($2) ORDER BY far.id`,
    [objectType, ids],
  )) as Array<{ id: number; type: string; far_id: number }>;
  const paths = withPaths
    ? ((await manager.query(
        `SELECT origin_id, destinations, is_active FROM ${CABLE_PATH_TABLE} WHERE origin_type = $1 AND origin_id = ANY($2)`,
        [objectType, ids],
      )) as Array<{ origin_id: number; destinations: PathNode[]; is_active: boolean }>)
    : [];
  const shown = await representNodes(manager, serializer, baseUrl, [
    peers.map((peer): PathNode => [peer.type, peer.far_id]),
    ...paths.map((path) => path.destinations),
  ]);
  return new Map(
    rows.map((row) => {
      const own = peers.filter((peer) => peer.id === row.id);
      const path = paths.find((candidate) => candidate.origin_id === row.id);
      const values: Record<string, unknown> = {
        link_peers: own.map((peer) => shown.get(`${peer.type}:${peer.far_id}`) ?? null),
        link_peers_type: own[0]?.type ?? null,
        _occupied: row.cable_id != null || row.mark_connected === true,
      };
      if (withPaths) {
        const destinations = path?.destinations ?? [];
        values.connected_endpoints = destinations.length > 0 ? destinations.map((node) => shown.get(key(node)) ?? null) : null;
        values.connected_endpoints_type = destinations[0]?.[0] ?? null;
        values.connected_endpoints_reachable = destinations.length > 0 ? path!.is_active : null;
      }
      return [row.id, values];
    }),
  );
}
