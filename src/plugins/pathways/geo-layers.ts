import { crc32 } from 'node:zlib';
import {
  type CollectionActionContext,
  type QueryParameters,
  quoteLiteral,
  type ResourceDefinition,
  ResourceValidationError,
  type VisibleSelection,
} from '../../platform/plugin-api';
import { type BoundingBox, type Geometry, intersects, type MultiLineStringGeometry, parseBoundingBox } from './geometry';
import { LIFECYCLE_STATUSES } from './pathways.choices';
import { AerialSpanResource, ConduitBankResource, ConduitResource, DirectBuriedResource, PathwayResource } from './pathways.resources';
import { StructureResource } from './structures.resources';
import { CircuitGeometryResource } from './circuit-geometries.resources';

/**
 * The GeoJSON layers under `geo/`: which rows each layer holds, the properties of its features, and
 * the reading every layer shares: the caller's view permission and the models' own list filters
 * (through `selectVisible`), `bbox` (`&&` on the GiST index, then an exact intersection for lines),
 * `exclude_status`, at most {@link MAX_FEATURES} features with `truncated` and `total_count` when
 * more match. PostgreSQL writes each feature's JSON text around the geometry's text as it prints
 * it (a layer answers thousands: no row objects, no geometry parsed, no serializer walking them),
 * and rows past the kept features are only counted.
 */

export const MAX_FEATURES = 2000;
/** Rows read per query where lines' exact intersection with the box is tested here. */
const LINE_PAGE_SIZE = 2000;
/** Parameters of the layers themselves, not filters of the models. */
const LAYER_PARAMETERS = new Set(['bbox', 'format', 'zoom', 'exclude_status', 'limit', 'offset', 'ordering', 'brief']);

/** A feature built here (external layers, clusters); the layers' own are written as JSON text. */
export interface Feature {
  type: 'Feature';
  id: number | string;
  geometry: Geometry | MultiLineStringGeometry;
  properties: Record<string, unknown>;
}

/**
 * One model's rows in a layer: which rows (extra filters) and the JSON text of each feature's id and
 * properties, as SQL over the row's alias and the joined tables'.
 */
interface LayerSource {
  definition: ResourceDefinition;
  geometryColumn: string;
  /** Whether the geometries are lines, which the box's index only finds as candidates. */
  lines: boolean;
  filters?: QueryParameters;
  /** Tables the properties read by a left join. */
  joins?: VisibleSelection['joins'];
  /** A further condition on the rows (SQL over the row's alias) that no list filter says. */
  where?(row: string): string;
  /** Property name → SQL of its value's JSON text (never NULL: {@link json} and its kin). */
  properties(row: string): Record<string, string>;
}

export interface GeoLayer {
  /** URL segment under `geo/` and key of the `info/` counts (hyphens as underscores). */
  name: string;
  sources: readonly LayerSource[];
  /** Whether `exclude_status` applies (not to circuits). */
  lifecycle: boolean;
}

const columnOf = (row: string, column: string) => `${row}."${column}"`;
/** JSON text of a SQL value, null for NULL: numbers keep the database's digits, dates stay ISO. */
const json = (expression: string) => `COALESCE(to_json(${expression})::text, 'null')`;
/**
 * A fixed-point number's JSON text; null for NULL and for NaN, which numeric columns can hold and
 * JSON cannot. The layers' numbers are numeric(p, s), which holds no infinity: its text is already a
 * JSON number, and to_json on every row of a layer is a measurable share of the statement.
 */
const decimal = (expression: string) => `COALESCE(NULLIF(${expression}, 'NaN')::text, 'null')`;
/** Text as JSON text; blank is null. */
const blankAsNull = (expression: string) => json(`NULLIF(${expression}, '')`);
/** A value as one of constant JSON texts by a `CASE`, `otherwise` (SQL) for a value outside them. */
const constantCase = (expression: string, texts: ReadonlyArray<readonly [string, string]>, otherwise: string) =>
  `CASE ${expression} ${texts.map(([value, text]) => `WHEN ${quoteLiteral(value)} THEN ${quoteLiteral(text)}`).join(' ')} ELSE ${otherwise} END`;
/** A choice field's value as JSON text, blank as null: the values its model declares as literals, to_json only for another. */
function choice(definition: ResourceDefinition, row: string, field: string): string {
  const declared = definition.fields[field];
  if (declared?.kind !== 'choice') throw new Error(`${definition.objectType}.${field} is not a choice field`);
  const column = columnOf(row, field);
  return constantCase(
    column,
    [...declared.choices.map(({ value }) => [value, JSON.stringify(value)] as const), ['', 'null']],
    json(column),
  );
}
/** The name of the related row a foreign-key column points at, as JSON text. */
const nameOf = (table: string, foreignKey: string) => json(`(SELECT "name" FROM "${table}" WHERE id = ${foreignKey})`);

/** A lifecycle status as `{value, label, color}` JSON text (an unknown value labelled as itself, grey). */
const lifecycleStatus = (expression: string) =>
  constantCase(
    expression,
    LIFECYCLE_STATUSES.map((status) => [status.value, JSON.stringify(status)] as const),
    `json_build_object('value', ${expression}, 'label', ${expression}, 'color', 'gray')::text`,
  );

const structureSource: LayerSource = {
  definition: StructureResource,
  geometryColumn: 'geometry',
  lines: false,
  // A join: PostgreSQL reads the one site of 2000 structures once (Memoize) rather than by a subquery per row.
  joins: [{ table: 'dcim_site', alias: 'layer_site', on: (row) => `layer_site.id = ${columnOf(row, 'site_id')}` }],
  properties: (row) => {
    const site = json('layer_site."name"');
    return {
      id: columnOf(row, 'id'),
      name: json(columnOf(row, 'name')),
      structure_type: choice(StructureResource, row, 'structure_type'),
      status: lifecycleStatus(columnOf(row, 'status')),
      site,
      site_name: site,
      elevation: decimal(columnOf(row, 'elevation')),
      installation_date: json(columnOf(row, 'installation_date')),
    };
  },
};

function pathwaySource(definition: ResourceDefinition, pathwayType: string | null, filters?: QueryParameters): LayerSource {
  const conduit = definition === ConduitResource;
  const bank = definition === ConduitBankResource;
  return {
    definition,
    geometryColumn: 'path',
    lines: true,
    filters,
    // The pathways of every kind: those the map draws (a conduit in a bank is drawn as its bank, an innerduct as its conduit).
    where:
      pathwayType === null
        ? (row) =>
            `${columnOf(row, 'pathway_type')} <> 'innerduct' AND NOT EXISTS (SELECT 1 FROM pathways_conduit map_conduit WHERE map_conduit.id = ${columnOf(row, 'id')} AND map_conduit.conduit_bank_id IS NOT NULL)`
        : undefined,
    properties: (row) => {
      const label = blankAsNull(columnOf(row, 'label'));
      return {
        id: columnOf(row, 'id'),
        name: label,
        label,
        pathway_type: pathwayType === null ? blankAsNull(columnOf(row, 'pathway_type')) : quoteLiteral(JSON.stringify(pathwayType)),
        status: lifecycleStatus(columnOf(row, 'status')),
        start_structure: nameOf('pathways_structure', columnOf(row, 'start_structure_id')),
        end_structure: nameOf('pathways_structure', columnOf(row, 'end_structure_id')),
        length: decimal(`COALESCE(${columnOf(row, 'length')}, ${columnOf(row, 'geo_length')})`),
        geo_length: decimal(columnOf(row, 'geo_length')),
        ...(conduit
          ? {
              material: choice(definition, row, 'material'),
              inner_diameter: decimal(columnOf(row, 'inner_diameter')),
              outer_diameter: decimal(columnOf(row, 'outer_diameter')),
              depth: decimal(columnOf(row, 'depth')),
            }
          : {}),
        ...(bank
          ? {
              configuration: choice(definition, row, 'configuration'),
              conduit_count: `(SELECT count(*) FROM pathways_conduit conduit WHERE conduit.conduit_bank_id = ${columnOf(row, 'id')})::text`,
            }
          : {}),
      };
    },
  };
}

/** Conduits outside banks only: a conduit in a bank is drawn as its bank (reference §3.2). */
const OUTSIDE_BANKS: QueryParameters = { conduit_bank_id: 'null' };

const circuitSource: LayerSource = {
  definition: CircuitGeometryResource,
  geometryColumn: 'path',
  lines: true,
  joins: [
    { table: 'circuits_circuit', alias: 'layer_circuit', on: (row) => `layer_circuit.id = ${columnOf(row, 'circuit_id')}` },
    { table: 'circuits_provider', alias: 'layer_provider', on: () => 'layer_provider.id = layer_circuit.provider_id' },
    { table: 'circuits_circuittype', alias: 'layer_circuit_type', on: () => 'layer_circuit_type.id = layer_circuit.type_id' },
  ],
  properties: (row) => ({
    id: json(columnOf(row, 'circuit_id')),
    cid: json('layer_circuit.cid'),
    provider: json('layer_provider.name'),
    circuit_type: json('layer_circuit_type.name'),
    status: json('layer_circuit.status'),
    provider_reference: blankAsNull(columnOf(row, 'provider_reference')),
  }),
};

export const GEO_LAYERS: readonly GeoLayer[] = [
  { name: 'structures', sources: [structureSource], lifecycle: true },
  { name: 'pathways', sources: [pathwaySource(PathwayResource, null)], lifecycle: true },
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

/** SQL of a row's geometry as the database prints its JSON. */
const geometryText = (source: LayerSource, row: string) => `${columnOf(row, source.geometryColumn)}::text`;

/**
 * SQL of a row's feature as JSON text, its geometry the database's own text of it. PostgreSQL writes
 * each feature whole, in one format() call: the layer then reads one string per row, rather than a
 * string per property to escape and join here, and a property whose SQL repeats another's (`site`
 * and `site_name`, a pathway's `name` and `label`) is computed once.
 */
export function featureSql(source: LayerSource, row: string): string {
  const values: string[] = [];
  const slot = (expression: string) => {
    let index = values.indexOf(expression);
    if (index < 0) index = values.push(expression) - 1;
    return `%${index + 1}$s`;
  };
  const id = slot(columnOf(row, 'id'));
  const geometry = slot(geometryText(source, row));
  const properties = Object.entries(source.properties(row)).map(
    ([name, value]) => `${JSON.stringify(name).replace(/%/g, '%%')}:${slot(value)}`,
  );
  const template = `{"type":"Feature","id":${id},"geometry":${geometry},"properties":{${properties.join(',')}}}`;
  return `format(${quoteLiteral(template)}, ${values.join(', ')})`;
}

type LayerReader = Pick<CollectionActionContext, 'selectVisible'>;

/**
 * One source's first `wanted` features (JSON text) under the query, and how many features it has in
 * all. The statements stay prepared (a line layer's first page only, so that its later pages do not
 * use up the process's prepared texts): a map asks for the same layer under the same few filters on
 * every pan, and parsing the feature statement again each time cost PostgreSQL about 0.2 ms.
 */
async function scanSource(
  reader: LayerReader,
  source: LayerSource,
  filters: QueryParameters,
  box: BoundingBox | null,
  wanted: number,
): Promise<{ features: string[]; total: number }> {
  const objectType = source.definition.objectType;
  const located = (row: string) => `${columnOf(row, source.geometryColumn)} IS NOT NULL${source.where ? ` AND ${source.where(row)}` : ''}`;
  if (!box || !source.lines) {
    // Every row found is a feature: read one more than wanted, and count only when there are more.
    const rows =
      wanted > 0
        ? await reader.selectVisible(objectType, filters, {
            select: (row) => ({ feature: featureSql(source, row) }),
            joins: source.joins,
            where: located,
            page: { limit: wanted + 1, offset: 0 },
            prepared: true,
          })
        : [];
    const features = rows.slice(0, wanted).map((raw) => raw.feature as string);
    if (wanted > 0 && rows.length <= wanted) return { features, total: rows.length };
    const [counted] = await reader.selectVisible(objectType, filters, {
      select: () => ({ count: 'count(*)::int' }),
      where: located,
      prepared: true,
    });
    // No row at all, not even a count's, when the caller may view none of the model.
    return { features, total: counted ? (counted.count as number) : 0 };
  }
  // Lines the box's index found are candidates: their geometry, tested here, decides.
  const features: string[] = [];
  let total = 0;
  for (let offset = 0; ; offset += LINE_PAGE_SIZE) {
    const collecting = features.length < wanted;
    const rows = await reader.selectVisible(objectType, filters, {
      select: collecting
        ? (row) => ({ geometry: geometryText(source, row), feature: featureSql(source, row) })
        : (row) => ({ geometry: geometryText(source, row) }),
      joins: collecting ? source.joins : undefined,
      where: located,
      page: { limit: LINE_PAGE_SIZE, offset },
      prepared: offset === 0,
    });
    for (const raw of rows) {
      if (!intersects(JSON.parse(raw.geometry as string) as Geometry, box)) continue;
      total += 1;
      if (features.length < wanted) features.push(raw.feature as string);
    }
    if (rows.length < LINE_PAGE_SIZE) return { features, total };
  }
}

/** The layer's first `limit` features (JSON text) under the query, and how many there are in all. */
export async function scanLayer(
  reader: LayerReader,
  layer: GeoLayer,
  query: LayerQuery,
  limit: number,
): Promise<{ features: string[]; total: number }> {
  const features: string[] = [];
  let total = 0;
  for (const source of layer.sources) {
    if (!sourceAccepts(source, layer, query.filters)) continue;
    const scanned = await scanSource(reader, source, sourceFilters(source, layer, query), query.bbox, limit - features.length);
    features.push(...scanned.features);
    total += scanned.total;
  }
  return { features, total };
}

/**
 * A FeatureCollection's UTF-8 body from its features' JSON text and its other members. Each feature is
 * encoded straight into one buffer: joining 2000 features into one string and encoding that copied the
 * half megabyte twice more.
 */
export function featureCollectionBody(features: readonly string[], members: Record<string, unknown>): Buffer {
  const head = '{"type":"FeatureCollection","features":[';
  const tail = `],${JSON.stringify(members).slice(1)}`;
  let characters = head.length + tail.length + features.length;
  let longest = tail.length;
  for (const feature of features) {
    characters += feature.length;
    longest = Math.max(longest, feature.length);
  }
  // Sized for ASCII text, which GeoJSON mostly is; a UTF-16 code unit takes at most three bytes, so
  // the buffer grows when what is left could not hold the next part with its comma.
  let body = Buffer.allocUnsafe(characters + 3 * longest);
  let offset = 0;
  const append = (text: string, comma = false) => {
    const needed = 3 * text.length + (comma ? 1 : 0);
    if (body.length - offset < needed) {
      const larger = Buffer.allocUnsafe(2 * body.length + needed);
      body.copy(larger, 0, 0, offset);
      body = larger;
    }
    if (comma) body[offset++] = 0x2c;
    offset += body.write(text, offset, 'utf8');
  };
  append(head);
  for (const [index, feature] of features.entries()) append(feature, index > 0);
  append(tail);
  return body.subarray(0, offset);
}

/**
 * A validator of exactly this answer: its length and CRC-32. Any change of a feature, a filter or of
 * what the caller may see changes it, except with odds of one in four billion for a change that
 * keeps the length (a stale map until the next change), which an HTTP cache validator can afford;
 * CRC-32 reads half a megabyte in a third of SHA-1's time.
 */
export function etagOf(body: Buffer): string {
  return `"${body.length.toString(16)}-${crc32(body).toString(16).padStart(8, '0')}"`;
}
