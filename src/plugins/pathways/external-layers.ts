import type { EntityManager } from 'typeorm';
import {
  type FieldSpec,
  type MapLayerDeclaration,
  type MapLayerGeometrySource,
  NotFoundError,
  type PluginRoute,
  type PluginRouteContext,
  publishedMapLayer,
  type ResourceDefinition,
  type ResourceRow,
} from '../../platform/plugin-api';
import { conditional, FEATURE_COLLECTION_SCHEMA, GEOJSON, LAYER_PARAMETERS_DOC } from './geo-responses';
import { type Feature, MAX_FEATURES, readLayerQuery } from './geo-layers';
import {
  type BoundingBox,
  intersects,
  type LineStringGeometry,
  type MultiLineStringGeometry,
  type PointGeometry,
  type PolygonGeometry,
} from './geometry';

/**
 * `geo/external/<name>/`: the layers other plugins' models declare (`mapLayer`), served
 * with the geometry resolved here: a structure's point or footprint, the structure at a location, or a
 * cable's route through the pathways as a MultiLineString.
 */

type Geometry = PointGeometry | PolygonGeometry | LineStringGeometry | MultiLineStringGeometry;

const PAGE_SIZE = 1000;
const SCALAR_KINDS = new Set<FieldSpec['kind']>(['text', 'integer', 'decimal', 'boolean', 'choice', 'date', 'datetime']);

async function geometriesVia(manager: EntityManager, source: MapLayerGeometrySource, ids: number[]): Promise<Map<number, Geometry>> {
  if (ids.length === 0) return new Map();
  if (source.via === 'structure' || source.via === 'location') {
    const column = source.via === 'structure' ? 'id' : 'location_id';
    const rows = (await manager.query(
      `SELECT ${column} AS id, geometry FROM pathways_structure WHERE ${column} = ANY($1) AND geometry IS NOT NULL`,
      [ids],
    )) as Array<{ id: number; geometry: PointGeometry | PolygonGeometry }>;
    return new Map(rows.map((row) => [row.id, row.geometry]));
  }
  // A cable: the paths of its segments' pathways, in sequence order.
  const rows = (await manager.query(
    `SELECT s.cable_id AS id, p.path
       FROM pathways_cablesegment s
       JOIN pathways_pathway p ON p.id = s.pathway_id
      WHERE s.cable_id = ANY($1)
      ORDER BY s.cable_id, s.sequence`,
    [ids],
  )) as Array<{ id: number; path: LineStringGeometry | null }>;
  const lines = new Map<number, LineStringGeometry['coordinates'][]>();
  for (const row of rows) {
    if (!row.path) continue;
    lines.set(row.id, [...(lines.get(row.id) ?? []), row.path.coordinates]);
  }
  return new Map([...lines].map(([id, coordinates]) => [id, { type: 'MultiLineString', coordinates }]));
}

/** Each row's geometry: the first of the layer's sources that gives one. */
async function geometriesOf(
  manager: EntityManager,
  layer: MapLayerDeclaration,
  rows: readonly ResourceRow[],
): Promise<Map<number, Geometry>> {
  const result = new Map<number, Geometry>();
  for (const source of [layer.geometry].flat()) {
    const column = `${source.field}_id`;
    const pending = rows.filter((row) => !result.has(row.id) && row[column] !== null && row[column] !== undefined);
    const found = await geometriesVia(
      manager,
      source,
      pending.map((row) => row[column] as number),
    );
    for (const row of pending) {
      const geometry = found.get(row[column] as number);
      if (geometry) result.set(row.id, geometry);
    }
  }
  return result;
}

function meets(geometry: Geometry, box: BoundingBox): boolean {
  if (geometry.type !== 'MultiLineString') return intersects(geometry, box);
  return geometry.coordinates.some((coordinates) => intersects({ type: 'LineString', coordinates }, box));
}

/** The properties: `id`, then the declared feature fields, or every scalar field and every relation's display value (never JSON, lists or write-only fields). */
async function propertiesOf(manager: EntityManager, layer: MapLayerDeclaration, rows: readonly ResourceRow[]) {
  const definition = layer.source;
  const names = layer.featureFields ?? Object.keys(definition.fields);
  const fields = names
    .map((name) => ({ name, field: definition.fields[name] }))
    .filter(({ field }) => !field.writeOnly && (SCALAR_KINDS.has(field.kind) || field.kind === 'relation'));
  const displays = new Map<string, Map<number, string>>();
  for (const { name, field } of fields) {
    if (field.kind !== 'relation') continue;
    const target: ResourceDefinition = field.target();
    const ids = [...new Set(rows.map((row) => row[`${name}_id`]).filter((id) => id !== null && id !== undefined))];
    const related = ids.length ? ((await manager.query(`SELECT * FROM "${target.table}" WHERE id = ANY($1)`, [ids])) as ResourceRow[]) : [];
    displays.set(name, new Map(related.map((row) => [row.id, target.display(row)])));
  }
  return rows.map((row) => {
    const properties: Record<string, unknown> = { id: row.id };
    for (const { name, field } of fields) {
      if (field.kind === 'relation') properties[name] = displays.get(name)!.get(row[`${name}_id`] as number) ?? null;
      else if (field.kind === 'decimal') properties[name] = row[name] === null ? null : Number(row[name]);
      else properties[name] = row[name] === '' && field.kind === 'choice' ? null : (row[name] ?? null);
    }
    return properties;
  });
}

async function externalCollection(context: PluginRouteContext) {
  const layer = publishedMapLayer(context.params.name);
  if (!layer || !context.served(layer.source.objectType)) throw new NotFoundError('Not found.');
  const query = readLayerQuery(context.query);
  const features: Feature[] = [];
  let total = 0;
  if (layer.minZoom === undefined || query.zoom === null || query.zoom >= layer.minZoom) {
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const rows = await context.visibleRows(layer.source.objectType, query.filters, { limit: PAGE_SIZE, offset });
      const geometries = await geometriesOf(context.manager, layer, rows);
      const meeting = rows.filter((row) => {
        const geometry = geometries.get(row.id);
        return geometry && (!query.bbox || meets(geometry, query.bbox));
      });
      total += meeting.length;
      const kept = meeting.slice(0, Math.max(0, MAX_FEATURES - features.length));
      const properties = kept.length ? await propertiesOf(context.manager, layer, kept) : [];
      kept.forEach((row, index) =>
        features.push({ type: 'Feature', id: row.id, geometry: geometries.get(row.id)!, properties: properties[index] }),
      );
      if (rows.length < PAGE_SIZE) break;
    }
  }
  return { type: 'FeatureCollection', name: layer.name, features, truncated: total > features.length, total_count: total };
}

export const EXTERNAL_LAYER_ROUTE: PluginRoute = {
  method: 'GET',
  path: 'geo/external/{name}',
  permission: 'authenticated',
  openapi: {
    summary: 'A layer another plugin publishes (fms: fiber-cables), as a GeoJSON FeatureCollection; an unknown layer is a 404',
    pathParameters: { name: { description: 'The layer', schema: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' } } },
    parameters: [...LAYER_PARAMETERS_DOC],
    response: FEATURE_COLLECTION_SCHEMA,
    responseMediaType: GEOJSON,
  },
  handle: async (context) => conditional(context, await externalCollection(context), GEOJSON),
};
