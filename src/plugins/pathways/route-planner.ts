import type { EntityManager } from 'typeorm';
import { type CollectionActionContext, type ResourceDeclaration, ResourceValidationError } from '../../platform/plugin-api';
import { PATHWAY_TYPE_CHOICES, STRUCTURE_TYPE_CHOICES } from './pathways.choices';

/**
 * The route planner (NetBox's plugin serves it in its UI; here `POST planned-routes/find/`): the
 * shortest route over the pathways between two structures, under constraints. Nodes are structures
 * and locations (a pathway's end is its structure, else its location); edges are the pathways the
 * caller may view, except conduit banks (containers, their conduits are the routes), weighted by
 * length (`length`, else the path's geodesic length). Hard constraints drop pathways; `avoid_*`
 * drop nodes or the pathways carrying cables; `prefer_in_use` lowers the weight of pathways already
 * carrying a cable (by up to half at 100); `must_pass_through` chains shortest routes through those
 * structures in order, never revisiting a structure.
 */

type Node = string;

interface Edge {
  pathwayId: number;
  to: Node;
  weight: number;
}

const INACTIVE = ['retired', 'decommissioning'];

interface FindRequest {
  start: number;
  end: number;
  avoidPathwayTypes: string[];
  avoidStructureTypes: string[];
  avoidStructures: number[];
  avoidTenants: number[];
  tenantOnly: number | null;
  avoidCables: number[];
  avoidCircuits: number[];
  mustPassThrough: number[];
  preferInUse: number;
  includeInactive: boolean;
}

function readRequest(body: unknown): FindRequest {
  const source = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const problems: Record<string, string[]> = {};
  const id = (name: string, required: boolean): number | null => {
    const value = source[name];
    if (value === undefined || value === null) {
      if (required) problems[name] = ['This field is required.'];
      return null;
    }
    const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (!Number.isInteger(number) || (number as number) < 1 || (number as number) > 2147483647) {
      problems[name] = ['Expected a positive integer id.'];
      return null;
    }
    return number as number;
  };
  const ids = (name: string): number[] => {
    const value = source[name] ?? [];
    if (!Array.isArray(value) || !value.every((item) => Number.isInteger(item) && item > 0 && item <= 2147483647)) {
      problems[name] = ['Expected a list of positive integer ids.'];
      return [];
    }
    return value as number[];
  };
  const values = (name: string, allowed: ReadonlyArray<readonly [string, string]>): string[] => {
    const value = source[name] ?? [];
    const known = new Set(allowed.map(([choice]) => choice));
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && known.has(item))) {
      problems[name] = [`Expected a list of: ${[...known].join(', ')}.`];
      return [];
    }
    return value as string[];
  };
  const preferInUse = source.prefer_in_use ?? 0;
  if (typeof preferInUse !== 'number' || !Number.isInteger(preferInUse) || preferInUse < 0 || preferInUse > 100)
    problems.prefer_in_use = ['Expected an integer from 0 to 100.'];
  const includeInactive = source.include_inactive ?? false;
  if (typeof includeInactive !== 'boolean') problems.include_inactive = ['Expected true or false.'];
  const request: FindRequest = {
    start: id('start_structure', true)!,
    end: id('end_structure', true)!,
    avoidPathwayTypes: values('avoid_pathway_types', PATHWAY_TYPE_CHOICES),
    avoidStructureTypes: values('avoid_structure_types', STRUCTURE_TYPE_CHOICES),
    avoidStructures: ids('avoid_structures'),
    avoidTenants: ids('avoid_tenants'),
    tenantOnly: id('tenant_only', false),
    avoidCables: ids('avoid_cables'),
    avoidCircuits: ids('avoid_circuits'),
    mustPassThrough: ids('must_pass_through'),
    preferInUse: preferInUse as number,
    includeInactive: includeInactive as boolean,
  };
  if (Object.keys(problems).length > 0) throw new ResourceValidationError(problems);
  return request;
}

/** Pathways carrying any of these cables, or the cables of any of these circuits. */
async function pathwaysCarrying(manager: EntityManager, cables: number[], circuits: number[]): Promise<Set<number>> {
  if (cables.length === 0 && circuits.length === 0) return new Set();
  const rows = (await manager.query(
    `SELECT DISTINCT s.pathway_id FROM pathways_cablesegment s
      WHERE s.pathway_id IS NOT NULL AND (s.cable_id = ANY($1) OR s.cable_id IN (
        SELECT ct.cable_id FROM dcim_cabletermination ct
          JOIN core_objecttype ot ON ot.id = ct.termination_type_id AND ot.app_label = 'circuits' AND ot.model = 'circuittermination'
          JOIN circuits_circuittermination t ON t.id = ct.termination_id
         WHERE t.circuit_id = ANY($2)))`,
    [cables, circuits],
  )) as Array<{ pathway_id: number }>;
  return new Set(rows.map((row) => row.pathway_id));
}

/** Dijkstra from `from` to `to` over the graph without the `removed` nodes: [cost, pathway ids, nodes] or null. */
function shortestPath(graph: Map<Node, Edge[]>, from: Node, to: Node, removed: ReadonlySet<Node>) {
  const best = new Map<Node, number>([[from, 0]]);
  const previous = new Map<Node, { node: Node; pathwayId: number }>();
  const queue: Array<[number, Node]> = [[0, from]];
  const done = new Set<Node>();
  while (queue.length > 0) {
    // A binary heap would be faster on very large plants; a sorted insert keeps this readable at thousands of edges.
    const [cost, node] = queue.shift()!;
    if (done.has(node)) continue;
    done.add(node);
    if (node === to) break;
    for (const edge of graph.get(node) ?? []) {
      if (removed.has(edge.to) || done.has(edge.to)) continue;
      const next = cost + edge.weight;
      if (next < (best.get(edge.to) ?? Infinity)) {
        best.set(edge.to, next);
        previous.set(edge.to, { node, pathwayId: edge.pathwayId });
        const at = queue.findIndex(([queued]) => queued > next);
        queue.splice(at < 0 ? queue.length : at, 0, [next, edge.to]);
      }
    }
  }
  if (!done.has(to)) return null;
  const pathwayIds: number[] = [];
  const nodes: Node[] = [to];
  for (let node = to; node !== from;) {
    const step = previous.get(node)!;
    pathwayIds.unshift(step.pathwayId);
    nodes.unshift(step.node);
    node = step.node;
  }
  return { cost: best.get(to)!, pathwayIds, nodes };
}

async function findRoute(context: CollectionActionContext) {
  const request = readRequest(context.body);
  const { manager, visibleRows } = context;
  const pathways = await visibleRows('pathways.pathway', {}, { limit: 1000000, offset: 0 }, [
    'label',
    'pathway_type',
    'status',
    'length',
    'geo_length',
    'start_structure_id',
    'end_structure_id',
    'start_location_id',
    'end_location_id',
    'tenant_id',
  ]);
  const structures = await visibleRows('pathways.structure', {}, { limit: 1000000, offset: 0 }, ['name', 'status', 'structure_type']);
  const structureById = new Map(structures.map((structure) => [structure.id, structure]));
  for (const [name, id] of [
    ['start_structure', request.start],
    ['end_structure', request.end],
  ] as const)
    if (!structureById.has(id)) throw new ResourceValidationError({ [name]: [`Structure ${id} does not exist.`] });
  const avoided = await pathwaysCarrying(manager, request.avoidCables, request.avoidCircuits);
  const inUse =
    request.preferInUse > 0
      ? new Set(
          (
            (await manager.query('SELECT DISTINCT pathway_id FROM pathways_cablesegment WHERE pathway_id IS NOT NULL')) as Array<{
              pathway_id: number;
            }>
          ).map((row) => row.pathway_id),
        )
      : new Set<number>();
  const structureUsable = (id: unknown) => {
    if (id === null) return true;
    const structure = structureById.get(id as number);
    if (!structure) return false;
    if (!request.includeInactive && INACTIVE.includes(structure.status as string)) return false;
    return !request.avoidStructureTypes.includes(structure.structure_type as string);
  };
  const graph = new Map<Node, Edge[]>();
  const byId = new Map(pathways.map((pathway) => [pathway.id, pathway]));
  for (const pathway of pathways) {
    if (pathway.pathway_type === 'conduit_bank' || avoided.has(pathway.id)) continue;
    if (!request.includeInactive && INACTIVE.includes(pathway.status as string)) continue;
    if (request.avoidPathwayTypes.includes(pathway.pathway_type as string)) continue;
    if (request.avoidTenants.includes(pathway.tenant_id as number)) continue;
    if (request.tenantOnly !== null && pathway.tenant_id !== null && pathway.tenant_id !== request.tenantOnly) continue;
    if (!structureUsable(pathway.start_structure_id) || !structureUsable(pathway.end_structure_id)) continue;
    const start =
      pathway.start_structure_id !== null
        ? `structure:${pathway.start_structure_id as number}`
        : pathway.start_location_id !== null
          ? `location:${pathway.start_location_id as number}`
          : null;
    const end =
      pathway.end_structure_id !== null
        ? `structure:${pathway.end_structure_id as number}`
        : pathway.end_location_id !== null
          ? `location:${pathway.end_location_id as number}`
          : null;
    if (!start || !end || start === end) continue;
    const length = Number(pathway.length ?? pathway.geo_length ?? 0);
    const weight = inUse.has(pathway.id) ? length * (1 - request.preferInUse / 200) : length;
    for (const [from, to] of [
      [start, end],
      [end, start],
    ]) {
      if (!graph.has(from)) graph.set(from, []);
      graph.get(from)!.push({ pathwayId: pathway.id, to, weight });
    }
  }
  const removed = new Set(request.avoidStructures.map((id) => `structure:${id}`));
  const stops = [request.start, ...request.mustPassThrough, request.end].map((id) => `structure:${id}`);
  let cost = 0;
  const pathwayIds: number[] = [];
  const visited: Node[] = [stops[0]];
  for (let leg = 0; leg < stops.length - 1; leg++) {
    const found = shortestPath(graph, stops[leg], stops[leg + 1], removed);
    if (!found) return { found: false, cost: null, hop_count: 0, pathway_ids: [], hops: [] };
    cost += found.cost;
    pathwayIds.push(...found.pathwayIds);
    visited.push(...found.nodes.slice(1));
    // A route never crosses a structure twice: later legs avoid what this one went through.
    for (const node of found.nodes.slice(0, -1)) removed.add(node);
  }
  const hops: Array<Record<string, unknown>> = [];
  const names = new Map(
    (
      (await manager.query('SELECT id, name FROM dcim_location WHERE id = ANY($1)', [
        visited.filter((node) => node.startsWith('location:')).map((node) => Number(node.split(':')[1])),
      ])) as Array<{ id: number; name: string }>
    ).map((row) => [`location:${row.id}`, row.name]),
  );
  for (const [index, node] of visited.entries()) {
    const [kind, id] = node.split(':');
    const structure = kind === 'structure' ? structureById.get(Number(id)) : undefined;
    hops.push({
      kind,
      id: Number(id),
      name: structure ? structure.name : (names.get(node) ?? null),
      structure_type: structure ? structure.structure_type || null : null,
      role: index === 0 ? 'start' : index === visited.length - 1 ? 'end' : 'mid',
    });
    if (index < pathwayIds.length) {
      const pathway = byId.get(pathwayIds[index])!;
      hops.push({
        kind: 'pathway',
        id: pathway.id,
        label: pathway.label || `#${pathway.id}`,
        pathway_type: pathway.pathway_type || null,
        length: pathway.length === null ? null : Number(pathway.length),
      });
    }
  }
  return { found: true, cost: Math.round(cost * 100) / 100, hop_count: pathwayIds.length, pathway_ids: pathwayIds, hops };
}

const idList = (description: string) => ({ type: 'array', items: { type: 'integer' }, description });

/** `POST planned-routes/find/`: the route planner. */
export const ROUTE_FINDER_ACTION: NonNullable<ResourceDeclaration['collectionActions']>[number] = {
  name: 'find',
  method: 'POST',
  permission: 'view',
  safePost: true,
  openapi: {
    summary:
      'The shortest route over the pathways between two structures under constraints (the route planner); save it by POSTing its pathway_ids to planned-routes/',
    request: {
      type: 'object',
      required: ['start_structure', 'end_structure'],
      properties: {
        start_structure: { type: 'integer' },
        end_structure: { type: 'integer' },
        avoid_pathway_types: { type: 'array', items: { type: 'string', enum: PATHWAY_TYPE_CHOICES.map(([value]) => value) } },
        avoid_structure_types: { type: 'array', items: { type: 'string', enum: STRUCTURE_TYPE_CHOICES.map(([value]) => value) } },
        avoid_structures: idList('Structures the route must not pass through'),
        avoid_tenants: idList('Tenants whose pathways the route must not use'),
        tenant_only: { type: 'integer', nullable: true, description: "Only this tenant's pathways and unassigned ones" },
        avoid_cables: idList('Pathways carrying these cables are left out'),
        avoid_circuits: idList("Pathways carrying these circuits' cables are left out"),
        must_pass_through: idList('Structures the route passes through, in order'),
        prefer_in_use: {
          type: 'integer',
          minimum: 0,
          maximum: 100,
          description: 'How strongly to prefer pathways already carrying cables',
        },
        include_inactive: { type: 'boolean', description: 'Also use retired and decommissioning pathways and structures' },
      },
    },
    response: {
      type: 'object',
      required: ['found', 'cost', 'hop_count', 'pathway_ids', 'hops'],
      properties: {
        found: { type: 'boolean' },
        cost: { type: 'number', nullable: true },
        hop_count: { type: 'integer' },
        pathway_ids: { type: 'array', items: { type: 'integer' } },
        hops: { type: 'array', items: { type: 'object' } },
      },
    },
  },
  handle: findRoute,
};
