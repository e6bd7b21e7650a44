import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { QueryParameters } from '../../platform/framework/query/filter-parser';
import type { ChoiceField } from '../../platform/framework/resource/fields';
import type { CollectionActionContext, ResourceDefinition, ResourceRow } from '../../platform/framework/resource/resource-declaration';
import { ResourceValidationError } from '../../platform/framework/resource/resource-errors';
import {
  type BoundingBox,
  geodesicLength,
  type Geometry,
  intersects,
  type LineStringGeometry,
  type MultiLineStringGeometry,
  parseBoundingBox,
} from './geometry';
import { LIFECYCLE_STATUSES } from './pathways.choices';
import { AerialSpanResource, ConduitBankResource, ConduitResource, DirectBuriedResource, PATHWAY_KINDS } from './pathways.resources';
import { StructureResource } from './structures.resources';
import { CircuitGeometryResource } from './circuit-geometries.resources';

/**
 * The GeoJSON layers under `geo/`: which rows each layer holds, the properties of its features, and
 * the reading every layer shares: the caller's view permission and the models' own list filters
 * (through `visibleRows`), `bbox` (`&&` on the GiST index, then an exact intersection for lines),
 * `exclude_status`, at most {@link MAX_FEATURES} features with `truncated` and `total_count` when
 * more match, read page by page so memory stays bounded whatever the number of rows.
 */

export const MAX_FEATURES = 2000;
/** Rows read per query past the kept features, only to count them. */
const COUNT_PAGE_SIZE = 2000;
/** Parameters of the layers themselves, not filters of the models. */
const LAYER_PARAMETERS = new Set(['bbox', 'format', 'zoom', 'exclude_status', 'limit', 'offset', 'ordering', 'brief']);

type Properties = Record<string, unknown>;
export interface Feature {
  type: 'Feature';
  id: number | string;
  geometry: Geometry | MultiLineStringGeometry;
  properties: Properties;
}

/** One model's rows in a layer: which rows (extra filters), and how a page of them becomes properties. */
interface LayerSource {
  definition: ResourceDefinition;
  geometryColumn: string;
  /** The columns `properties` reads (those the model has are selected, with the geometry): a layer reads thousands of rows. */
  columns: readonly string[];
  filters?: QueryParameters;
  /** Feature ids unique within a layer that mixes models. */
  featureId?: (row: ResourceRow) => string;
  properties(manager: EntityManager, rows: readonly ResourceRow[]): Promise<Properties[]>;
}

export interface GeoLayer {
  /** URL segment under `geo/` and key of the `info/` counts (hyphens as underscores). */
  name: string;
  sources: readonly LayerSource[];
  /** Whether `exclude_status` applies (not to circuits). */
  lifecycle: boolean;
}

const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function lifecycleStatus(value: unknown) {
  return LIFECYCLE_STATUSES.find((status) => status.value === value) ?? { value, label: String(value), color: 'gray' };
}

function choiceValue(definition: ResourceDefinition, field: string, value: unknown): string | null {
  const spec = definition.fields[field] as ChoiceField;
  if (value === '' || value === null || value === undefined) return null;
  return spec.choices.find((choice) => choice.value === value)?.value ?? String(value);
}

/** `{id: name}` of the rows of a table, for the names that stand for related objects in properties. */
async function namesOf(manager: EntityManager, table: string, column: string, ids: unknown[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id) => id !== null && id !== undefined))];
  if (wanted.length === 0) return new Map();
  const rows = (await manager.query(`SELECT id, "${column}" AS name FROM "${table}" WHERE id = ANY($1)`, [wanted])) as Array<{
    id: number;
    name: string;
  }>;
  return new Map(rows.map((row) => [row.id, row.name]));
}

const structureSource: LayerSource = {
  definition: StructureResource,
  geometryColumn: 'geometry',
  columns: ['name', 'structure_type', 'status', 'site_id', 'elevation', 'installation_date'],
  properties: async (manager, rows) => {
    const sites = await namesOf(
      manager,
      'dcim_site',
      'name',
      rows.map((row) => row.site_id),
    );
    return rows.map((row) => {
      const site = sites.get(row.site_id as number) ?? null;
      return {
        id: row.id,
        name: row.name,
        structure_type: choiceValue(StructureResource, 'structure_type', row.structure_type),
        status: lifecycleStatus(row.status),
        site,
        site_name: site,
        elevation: number(row.elevation),
        installation_date: row.installation_date ?? null,
      };
    });
  },
};

function pathwaySource(definition: ResourceDefinition, pathwayType: string, filters?: QueryParameters): LayerSource {
  return {
    definition,
    geometryColumn: 'path',
    columns: [
      'label',
      'status',
      'start_structure_id',
      'end_structure_id',
      'length',
      'material',
      'inner_diameter',
      'outer_diameter',
      'depth',
      'configuration',
    ],
    filters,
    featureId: (row) => `${pathwayType}.${row.id}`,
    properties: async (manager, rows) => {
      const structures = await namesOf(
        manager,
        'pathways_structure',
        'name',
        rows.flatMap((row) => [row.start_structure_id, row.end_structure_id]),
      );
      const conduitCounts =
        definition === ConduitBankResource
          ? new Map(
              (
                (await manager.query(
                  'SELECT conduit_bank_id AS id, count(*)::int AS n FROM pathways_conduit WHERE conduit_bank_id = ANY($1) GROUP BY conduit_bank_id',
                  [rows.map((row) => row.id)],
                )) as Array<{ id: number; n: number }>
              ).map((entry) => [entry.id, entry.n]),
            )
          : null;
      return rows.map((row) => {
        const geoLength = geodesicLength(row.path as LineStringGeometry);
        const properties: Properties = {
          id: row.id,
          name: row.label || null,
          label: row.label || null,
          pathway_type: pathwayType,
          status: lifecycleStatus(row.status),
          start_structure: structures.get(row.start_structure_id as number) ?? null,
          end_structure: structures.get(row.end_structure_id as number) ?? null,
          length: number(row.length) ?? geoLength,
          geo_length: geoLength,
        };
        if (definition === ConduitResource)
          Object.assign(properties, {
            material: choiceValue(definition, 'material', row.material),
            inner_diameter: number(row.inner_diameter),
            outer_diameter: number(row.outer_diameter),
            depth: number(row.depth),
          });
        if (conduitCounts)
          Object.assign(properties, {
            configuration: choiceValue(definition, 'configuration', row.configuration),
            conduit_count: conduitCounts.get(row.id) ?? 0,
          });
        return properties;
      });
    },
  };
}

const PATHWAY_TYPES: ReadonlyMap<ResourceDefinition, string> = new Map([
  [ConduitBankResource, 'conduit_bank'],
  [ConduitResource, 'conduit'],
  [AerialSpanResource, 'aerial'],
  [DirectBuriedResource, 'direct_buried'],
]);
const pathwayTypeOf = (definition: ResourceDefinition) => PATHWAY_TYPES.get(definition) ?? definition.model;

/** Conduits outside banks only: a conduit in a bank is drawn as its bank (reference §3.2). */
const OUTSIDE_BANKS: QueryParameters = { conduit_bank_id: 'null' };

const circuitSource: LayerSource = {
  definition: CircuitGeometryResource,
  geometryColumn: 'path',
  columns: ['circuit_id'],
  properties: async (manager, rows) => {
    const circuits = (await manager.query(
      `SELECT c.id, c.cid, c.status, p.name AS provider, t.name AS circuit_type
         FROM circuits_circuit c JOIN circuits_provider p ON p.id = c.provider_id JOIN circuits_circuittype t ON t.id = c.type_id
        WHERE c.id = ANY($1)`,
      [rows.map((row) => row.circuit_id)],
    )) as Array<Record<string, unknown>>;
    const byId = new Map(circuits.map((circuit) => [circuit.id as number, circuit]));
    return rows.map((row) => {
      const circuit = byId.get(row.circuit_id as number) ?? {};
      return {
        id: row.circuit_id,
        cid: circuit.cid ?? null,
        provider: circuit.provider ?? null,
        circuit_type: circuit.circuit_type ?? null,
        status: circuit.status ?? null,
        // The platform's circuits keep no provider reference yet.
        provider_reference: null,
      };
    });
  },
};

export const GEO_LAYERS: readonly GeoLayer[] = [
  { name: 'structures', sources: [structureSource], lifecycle: true },
  {
    name: 'pathways',
    sources: PATHWAY_KINDS.map((kind) => pathwaySource(kind, pathwayTypeOf(kind))),
    lifecycle: true,
  },
  { name: 'conduit-banks', sources: [pathwaySource(ConduitBankResource, 'conduit_bank')], lifecycle: true },
  { name: 'conduits', sources: [pathwaySource(ConduitResource, 'conduit', OUTSIDE_BANKS)], lifecycle: true },
  { name: 'aerial-spans', sources: [pathwaySource(AerialSpanResource, 'aerial')], lifecycle: true },
  { name: 'direct-buried', sources: [pathwaySource(DirectBuriedResource, 'direct_buried')], lifecycle: true },
  { name: 'circuits', sources: [circuitSource], lifecycle: false },
];

/** The layers' query parameters, read once per request. */
export interface LayerQuery {
  bbox: BoundingBox | null;
  zoom: number | null;
  excluded: string[];
  /** The models' own filters (`site_id`, `structure_type`, `material`, `tag`, …). */
  filters: QueryParameters;
}

const lastOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[value.length - 1] : value);

/** Reads the layer parameters; a malformed bbox, zoom or format is a 400 naming it. */
export function readLayerQuery(query: QueryParameters): LayerQuery {
  const rawBox = lastOf(query.bbox);
  let bbox: BoundingBox | null = null;
  if (rawBox !== undefined) {
    const parsed = parseBoundingBox(rawBox);
    if ('problem' in parsed) throw new ResourceValidationError({ bbox: [parsed.problem] });
    bbox = parsed;
  }
  const rawZoom = lastOf(query.zoom);
  if (rawZoom !== undefined && !/^(\d|1\d|2[0-4])$/.test(rawZoom))
    throw new ResourceValidationError({ zoom: ['zoom must be an integer from 0 to 24.'] });
  const format = lastOf(query.format);
  if (format !== undefined && format !== 'json' && format !== 'geojson')
    throw new ResourceValidationError({ format: ['format must be json (GeoJSON is the only format).'] });
  const known = new Set(LIFECYCLE_STATUSES.map((status) => status.value as string));
  const excluded = [query.exclude_status ?? []]
    .flat()
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => known.has(value));
  const filters = Object.fromEntries(Object.entries(query).filter(([key]) => !LAYER_PARAMETERS.has(key)));
  return { bbox, zoom: rawZoom === undefined ? null : Number(rawZoom), excluded: [...new Set(excluded)].sort(), filters };
}

/** Whether a model has every filter field the query names that belongs to some pathway kind (`material` leaves aerial spans out). */
function sourceAccepts(source: LayerSource, layer: GeoLayer, filters: QueryParameters): boolean {
  if (layer.sources.length === 1) return true;
  const kindFields = new Set(layer.sources.flatMap((other) => Object.keys(other.definition.fields)));
  return Object.keys(filters).every((key) => {
    const field = key.split('__')[0].replace(/_id$/, '');
    return !kindFields.has(field) || field in source.definition.fields;
  });
}

function sourceFilters(source: LayerSource, layer: GeoLayer, query: LayerQuery): QueryParameters {
  const filters: QueryParameters = { ...query.filters, ...source.filters };
  if (query.bbox) filters.bbox = query.bbox.join(',');
  if (layer.lifecycle && query.excluded.length > 0) filters.status__n = query.excluded;
  return filters;
}

type Visible = CollectionActionContext['visibleRows'];

/**
 * The layer's features under the query, page by page: the first `limit` of them, and how many there
 * are in all (rows whose geometry meets the box). Rows past the limit are only counted.
 */
export async function scanLayer(
  visibleRows: Visible,
  manager: EntityManager,
  layer: GeoLayer,
  query: LayerQuery,
  limit: number,
): Promise<{ features: Feature[]; total: number }> {
  const features: Feature[] = [];
  let total = 0;
  for (const source of layer.sources) {
    if (!sourceAccepts(source, layer, query.filters)) continue;
    const filters = sourceFilters(source, layer, query);
    // The first page holds every feature the answer may keep (and one more); further pages are only counted.
    for (let offset = 0, size = Math.max(limit + 1, COUNT_PAGE_SIZE); ; offset += size, size = COUNT_PAGE_SIZE) {
      const rows = await visibleRows(source.definition.objectType, filters, { limit: size, offset }, [
        source.geometryColumn,
        ...source.columns,
      ]);
      const meeting = rows.filter((row) => {
        const geometry = row[source.geometryColumn] as Geometry | null;
        return geometry && (!query.bbox || geometry.type === 'Point' || intersects(geometry, query.bbox));
      });
      total += meeting.length;
      const kept = meeting.slice(0, Math.max(0, limit - features.length));
      if (kept.length > 0) {
        const properties = await source.properties(manager, kept);
        kept.forEach((row, index) =>
          features.push({
            type: 'Feature',
            id: source.featureId?.(row) ?? row.id,
            geometry: row[source.geometryColumn] as Geometry,
            properties: properties[index],
          }),
        );
      }
      if (rows.length < size) break;
    }
  }
  return { features, total };
}

/** A strong validator of exactly this answer: any change of a feature, a filter or of what the caller may see changes it. */
export function etagOf(body: string): string {
  return `"${createHash('md5').update(body).digest('hex')}"`;
}
