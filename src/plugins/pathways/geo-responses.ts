import { type OpenApiSchema, type PluginRouteContext, RouteResponse } from '../../platform/plugin-api';
import { etagOf, MAX_FEATURES } from './geo-layers';

/** What every `geo/` answer shares: the media type, the conditional answer with its ETag, and the documented parameters. */

export const GEOJSON = 'application/geo+json';

/** Answers the value as JSON with its ETag, or 304 when the caller already holds it. */
export function conditional(context: PluginRouteContext, value: unknown, mediaType: string): RouteResponse {
  return conditionalBody(context, Buffer.from(JSON.stringify(value)), mediaType);
}

/** {@link conditional} for a body already encoded as JSON (half a megabyte for a full layer: hashed and sent as is). */
export function conditionalBody(context: PluginRouteContext, body: Buffer, mediaType: string): RouteResponse {
  const etag = etagOf(body);
  const held = context.headers['if-none-match'];
  const heldTags = [held ?? []]
    .flat()
    .flatMap((header) => header.split(','))
    .map((tag) => tag.trim().replace(/^W\//, ''));
  if (heldTags.includes(etag) || heldTags.includes('*')) return RouteResponse.notModified(etag);
  return RouteResponse.text(body, `${mediaType}; charset=utf-8`, 200, { ETag: etag, 'Cache-Control': 'private, no-cache' });
}

export const LAYER_PARAMETERS_DOC = [
  {
    name: 'bbox',
    description: 'west,south,east,north (WGS84); west > east crosses the antimeridian; malformed → 400',
    schema: { type: 'string' },
  },
  {
    name: 'exclude_status',
    description: 'Lifecycle statuses to leave out (comma list or repeated); unknown values are ignored',
    schema: { type: 'string' },
  },
  {
    name: 'zoom',
    description: 'Map zoom 0–24: structures over the cap cluster; passed to external layers',
    schema: { type: 'integer', minimum: 0, maximum: 24 },
  },
  { name: 'format', description: 'json (the only format)', schema: { type: 'string', enum: ['json', 'geojson'] } },
] as const;

export const FEATURE_COLLECTION_SCHEMA: OpenApiSchema = {
  type: 'object',
  required: ['type', 'features', 'truncated', 'total_count'],
  properties: {
    type: { type: 'string', enum: ['FeatureCollection'] },
    features: { type: 'array', items: { type: 'object' } },
    truncated: { type: 'boolean', description: `true when more than ${MAX_FEATURES} features match` },
    total_count: { type: 'integer', description: 'How many features match' },
  },
};

export const FEATURE_SCHEMA: OpenApiSchema = {
  type: 'object',
  required: ['type', 'id', 'geometry', 'properties'],
  properties: {
    type: { type: 'string', enum: ['Feature'] },
    id: { type: 'integer' },
    geometry: { type: 'object' },
    properties: { type: 'object' },
  },
};
