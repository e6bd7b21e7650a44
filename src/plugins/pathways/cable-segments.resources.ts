import type { EntityManager } from 'typeorm';
import {
  CableResource,
  defineResource,
  type ExtraFilter,
  idFilterProblem,
  integer,
  longText,
  many,
  type PluginRoute,
  relation,
  type ResourceDefinition,
  type ResourceRow,
  RouteResponse,
} from '../../platform/plugin-api';
import type { LineStringGeometry } from './geometry';
import { PathwayResource } from './pathways.resources';
import { PATHWAYS_API_PREFIX } from './structures.resources';

const LASHED_TABLE = 'pathways_cablesegment_lashed_with';

/** `lashed_with` is symmetrical: after a write, the segments it names name this one, and no other segment does. */
async function mirrorLashing(manager: EntityManager, row: ResourceRow): Promise<void> {
  await manager.query(
    `DELETE FROM ${LASHED_TABLE} WHERE to_cablesegment_id = $1
       AND cablesegment_id NOT IN (SELECT to_cablesegment_id FROM ${LASHED_TABLE} WHERE cablesegment_id = $1)`,
    [row.id],
  );
  await manager.query(
    `INSERT INTO ${LASHED_TABLE} (cablesegment_id, to_cablesegment_id)
       SELECT to_cablesegment_id, cablesegment_id FROM ${LASHED_TABLE} WHERE cablesegment_id = $1 ON CONFLICT DO NOTHING`,
    [row.id],
  );
}

/** `lashed_with_id=<id>`: segments lashed with any of those segments. */
const lashedWithFilter: ExtraFilter = (values, alias, prefix) => {
  const problem = idFilterProblem(values);
  if (problem) return { problem };
  return {
    where: `${alias}.id IN (SELECT cablesegment_id FROM ${LASHED_TABLE} WHERE to_cablesegment_id IN (:...${prefix}))`,
    params: { [prefix]: values.map(Number) },
  };
};

/** One stretch of a cable through one pathway; a cable's segments in `sequence` order are its route. */
export const CableSegmentResource: ResourceDefinition = defineResource({
  appLabel: 'pathways',
  model: 'cablesegment',
  path: 'cable-segments',
  apiPrefix: PATHWAYS_API_PREFIX,
  verboseName: 'cable segment',
  graphqlName: 'cable_segment',
  graphql: { deprecatedNames: ['pathways_cable_segment'] },
  table: 'pathways_cablesegment',
  fields: {
    cable: relation(() => CableResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    pathway: relation(() => PathwayResource, { onDelete: 'SET NULL', filterById: true }),
    // Blank on create: one more than the cable's last segment.
    sequence: integer({ min: 1, max: 100000, nullable: true }),
    // Other segments lashed together with this one in aerial plant (symmetrical).
    lashed_with: many(() => CableSegmentResource),
    comments: longText({ search: true }),
  },
  display: (row) => `Cable ${String(row.cable_id)} segment ${String(row.sequence)}`,
  brief: ['cable', 'pathway', 'sequence'],
  ordering: ['cable', 'sequence'],
  uniqueTogether: [['cable', 'sequence']],
  relatedObject: 'cable',
  extraFilters: { lashed_with_id: lashedWithFilter },
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    const ends = (await manager.query('SELECT DISTINCT cable_end FROM dcim_cabletermination WHERE cable_id = $1', [
      values.cable_id,
    ])) as Array<{
      cable_end: string;
    }>;
    const terminated = new Set(ends.map((end) => end.cable_end));
    return terminated.has('A') && terminated.has('B') ? {} : { cable: ['Both ends of the cable must be terminated before it is routed.'] };
  },
  afterUpdate: async ({ manager }, _before, row) => mirrorLashing(manager, row),
  afterCreate: async ({ manager }, row) => {
    await mirrorLashing(manager, row);
    if (row.sequence !== null) return;
    const [next] = (await manager.query(
      'SELECT coalesce(max(sequence), 0) + 1 AS sequence FROM pathways_cablesegment WHERE cable_id = $1',
      [row.cable_id],
    )) as Array<{ sequence: number }>;
    await manager.query('UPDATE pathways_cablesegment SET sequence = $2 WHERE id = $1', [row.id, next.sequence]);
    row.sequence = next.sequence;
  },
});

/** `GET traversal/cable-trace/?cable_id=`: the pathways a cable runs through, in order, and their total length. */
export const CABLE_TRACE_ROUTE: PluginRoute = {
  method: 'GET',
  path: 'traversal/cable-trace',
  permission: { objectType: 'pathways.cablesegment', action: 'view' },
  openapi: {
    summary:
      "A cable's route through the pathways: its segments in order and the total length (a segment's pathway without a length counts 0)",
    parameters: [{ name: 'cable_id', description: 'The cable', schema: { type: 'integer', minimum: 1 } }],
    response: {
      type: 'object',
      required: ['cable_id', 'segment_count', 'total_length', 'segments'],
      properties: {
        cable_id: { type: 'integer' },
        segment_count: { type: 'integer' },
        total_length: { type: 'number' },
        segments: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              segment_id: { type: 'integer' },
              sequence: { type: 'integer', nullable: true },
              pathway_id: { type: 'integer', nullable: true },
              pathway_name: { type: 'string', nullable: true },
              pathway_type: { type: 'string', nullable: true },
              pathway_url: { type: 'string', nullable: true },
              length: { type: 'number', nullable: true },
              coords: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
              start_name: { type: 'string', nullable: true },
              end_name: { type: 'string', nullable: true },
            },
          },
        },
      },
    },
  },
  handle: async ({ query, visibleRows, manager, scope }) => {
    const raw = query.cable_id;
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (typeof value !== 'string' || value === '') return RouteResponse.json({ error: 'cable_id is required' }, 'application/json', 400);
    if (!/^\d{1,9}$/.test(value)) return RouteResponse.json({ error: 'cable_id must be an integer' }, 'application/json', 400);
    const cableId = Number(value);
    const segments = await visibleRows('pathways.cablesegment', { cable_id: [value] }, { limit: 100000, offset: 0 });
    const pathwayIds = [...new Set(segments.map((segment) => segment.pathway_id).filter((id) => id !== null))];
    const pathways = (await manager.query(
      `SELECT p.id, p.label, p.pathway_type, p.length::float AS length, p.path,
              COALESCE(ss.name, sl.name) AS start_name, COALESCE(es.name, el.name) AS end_name
         FROM pathways_pathway p
         LEFT JOIN pathways_structure ss ON ss.id = p.start_structure_id
         LEFT JOIN pathways_structure es ON es.id = p.end_structure_id
         LEFT JOIN dcim_location sl ON sl.id = p.start_location_id
         LEFT JOIN dcim_location el ON el.id = p.end_location_id
        WHERE p.id = ANY($1)`,
      [pathwayIds],
    )) as Array<{
      id: number;
      label: string;
      pathway_type: string;
      length: number | null;
      path: LineStringGeometry | null;
      start_name: string | null;
      end_name: string | null;
    }>;
    const byId = new Map(pathways.map((pathway) => [pathway.id, pathway]));
    const answer = [];
    let total = 0;
    for (const segment of segments) {
      const pathway = byId.get(segment.pathway_id as number);
      total += pathway?.length ?? 0;
      answer.push({
        segment_id: segment.id,
        sequence: segment.sequence,
        pathway_id: pathway?.id ?? null,
        pathway_name: pathway ? pathway.label || `#${pathway.id}` : null,
        pathway_type: pathway?.pathway_type || null,
        pathway_url: pathway ? `${scope.baseUrl}${PATHWAYS_API_PREFIX}pathways/${pathway.id}/` : null,
        length: pathway?.length ?? null,
        coords: pathway?.path?.coordinates.map((position) => [position[0], position[1]]) ?? [],
        start_name: pathway?.start_name ?? null,
        end_name: pathway?.end_name ?? null,
      });
    }
    return { cable_id: cableId, segment_count: answer.length, total_length: Math.round(total * 100) / 100, segments: answer };
  },
};
