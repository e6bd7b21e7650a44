import {
  CableResource,
  defineResource,
  genericRelation,
  integer,
  longText,
  type PluginRoute,
  relation,
  RouteResponse,
} from '../../platform/plugin-api';
import { PATHWAY_KINDS } from './pathways.resources';
import { PATHWAYS_API_PREFIX } from './structures.resources';

/** One stretch of a cable through one pathway; a cable's segments in `sequence` order are its route. */
export const CableSegmentResource = defineResource({
  appLabel: 'pathways',
  model: 'cablesegment',
  path: 'cable-segments',
  apiPrefix: PATHWAYS_API_PREFIX,
  verboseName: 'cable segment',
  graphqlName: 'cable_segment',
  graphql: { deprecatedNames: ['pathways_cable_segment'] },
  table: 'pathways_cablesegment',
  fields: {
    cable: relation(() => CableResource, { onDelete: 'CASCADE', required: true }),
    pathway: genericRelation({ required: true, onDelete: 'CASCADE', allowedTypes: PATHWAY_KINDS.map((kind) => `pathways.${kind.model}`) }),
    // Blank on create: one more than the cable's last segment.
    sequence: integer({ min: 1, max: 100000, nullable: true }),
    comments: longText({ search: true }),
  },
  display: (row) => `Cable ${String(row.cable_id)} segment ${String(row.sequence)}`,
  brief: ['cable', 'sequence'],
  ordering: ['cable', 'sequence'],
  uniqueTogether: [['cable', 'sequence']],
  relatedObject: 'cable',
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    const ends = (await manager.query('SELECT DISTINCT cable_end FROM dcim_cabletermination WHERE cable_id = $1', [
      values.cable_id,
    ])) as Array<{
      cable_end: string;
    }>;
    const terminated = new Set(ends.map((end) => end.cable_end));
    return terminated.has('A') && terminated.has('B') ? {} : { cable: ['Both ends of the cable must be terminated before it is routed.'] };
  },
  afterCreate: async ({ manager }, row) => {
    if (row.sequence !== null) return;
    const [next] = (await manager.query(
      'SELECT coalesce(max(sequence), 0) + 1 AS sequence FROM pathways_cablesegment WHERE cable_id = $1',
      [row.cable_id],
    )) as Array<{ sequence: number }>;
    await manager.query('UPDATE pathways_cablesegment SET sequence = $2 WHERE id = $1', [row.id, next.sequence]);
    row.sequence = next.sequence;
  },
});

const KIND_TABLES = Object.fromEntries(PATHWAY_KINDS.map((kind) => [`pathways.${kind.model}`, kind]));

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
        segments: { type: 'array', items: { type: 'object' } },
      },
    },
  },
  handle: async ({ query, visibleRows, manager }) => {
    const raw = query.cable_id;
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (typeof value !== 'string' || !/^\d{1,9}$/.test(value))
      return RouteResponse.json({ error: 'cable_id is required and must be an integer.' }, 'application/json', 400);
    const cableId = Number(value);
    const segments = await visibleRows('pathways.cablesegment', { cable_id: [value] }, { limit: 100000, offset: 0 });
    const types = (await manager.query('SELECT id, app_label, model FROM core_objecttype WHERE id = ANY($1)', [
      [...new Set(segments.map((segment) => segment.pathway_type_id))],
    ])) as Array<{ id: number; app_label: string; model: string }>;
    const typeNames = new Map(types.map((type) => [type.id, `${type.app_label}.${type.model}`]));
    const answer = [];
    let total = 0;
    for (const segment of segments) {
      const objectType = typeNames.get(segment.pathway_type_id as number)!;
      const kind = KIND_TABLES[objectType];
      const [pathway] = (await manager.query(`SELECT id, label, length::float AS length FROM "${kind.table}" WHERE id = $1`, [
        segment.pathway_id,
      ])) as Array<{ id: number; label: string; length: number | null }>;
      total += pathway?.length ?? 0;
      answer.push({
        id: segment.id,
        sequence: segment.sequence,
        pathway_type: objectType,
        pathway_id: segment.pathway_id,
        pathway_label: pathway?.label ?? null,
        length: pathway?.length ?? null,
      });
    }
    return { cable_id: cableId, segment_count: answer.length, total_length: Math.round(total * 100) / 100, segments: answer };
  },
};
