import { NotFoundError, type PluginRoute, type PluginRouteContext, type QueryParameters, RouteResponse } from '../../platform/plugin-api';
import { EXTERNAL_LAYER_ROUTE } from './external-layers';
import { conditional, conditionalBody, FEATURE_COLLECTION_SCHEMA, FEATURE_SCHEMA, GEOJSON, LAYER_PARAMETERS_DOC } from './geo-responses';
import {
  type Feature,
  featureCollectionBody,
  GEO_LAYERS,
  type GeoLayer,
  type LayerQuery,
  MAX_FEATURES,
  readLayerQuery,
  scanLayer,
} from './geo-layers';
import { type PointGeometry, type PolygonGeometry, representativePoint } from './geometry';
import { LIFECYCLE_STATUSES } from './pathways.choices';

/** The `geo/` routes: one per layer, and `info/`. Read-only GETs for any authenticated caller; rows are those the caller may view. */

/**
 * Structures over the cap at a given zoom: one feature per grid cell of about a quarter of a 256-pixel
 * tile, at the mean of its points, with `cluster: true` and `point_count`.
 */
async function clusters(context: PluginRouteContext, layer: GeoLayer, query: LayerQuery): Promise<Feature[]> {
  const cell = 360 / 2 ** (query.zoom ?? 0) / 4;
  const cells = new Map<string, { longitude: number; latitude: number; count: number }>();
  const filters: QueryParameters = { ...query.filters, ...(query.bbox ? { bbox: query.bbox.join(',') } : {}) };
  if (query.excluded.length > 0) filters.status__n = query.excluded;
  const objectType = layer.sources[0].definition.objectType;
  for (let offset = 0; ; offset += 5000) {
    const rows = await context.visibleRows(objectType, filters, { limit: 5000, offset });
    for (const row of rows) {
      const geometry = row.geometry as PointGeometry | PolygonGeometry | null;
      if (!geometry) continue;
      const [longitude, latitude] = representativePoint(geometry);
      const key = `${Math.floor(longitude / cell)}:${Math.floor(latitude / cell)}`;
      const entry = cells.get(key) ?? { longitude: 0, latitude: 0, count: 0 };
      entry.longitude += longitude;
      entry.latitude += latitude;
      entry.count += 1;
      cells.set(key, entry);
    }
    if (rows.length < 5000) break;
  }
  return [...cells.entries()].map(([key, entry]) => ({
    type: 'Feature',
    id: `cluster.${key}`,
    geometry: { type: 'Point', coordinates: [entry.longitude / entry.count, entry.latitude / entry.count] },
    properties: { cluster: true, point_count: entry.count },
  }));
}

function layerRoute(layer: GeoLayer): PluginRoute {
  return {
    method: 'GET',
    path: `geo/${layer.name}`,
    permission: 'authenticated',
    openapi: {
      summary: `The ${layer.name.replace(/-/g, ' ')} layer as a GeoJSON FeatureCollection (at most ${MAX_FEATURES} features)`,
      parameters: [...LAYER_PARAMETERS_DOC],
      response: FEATURE_COLLECTION_SCHEMA,
      responseMediaType: GEOJSON,
    },
    handle: async (context) => {
      const query = readLayerQuery(context.query);
      const { features, total } = await scanLayer(context, layer, query, MAX_FEATURES);
      if (layer.name === 'structures' && query.zoom !== null && total > MAX_FEATURES) {
        const grouped = await clusters(context, layer, query);
        const kept = grouped.slice(0, MAX_FEATURES);
        return conditional(
          context,
          { type: 'FeatureCollection', features: kept, clustered: true, truncated: grouped.length > kept.length, total_count: total },
          GEOJSON,
        );
      }
      return conditionalBody(context, featureCollectionBody(features, { truncated: total > features.length, total_count: total }), GEOJSON);
    },
  };
}

/** `geo/<layer>/{id}/`: one feature of the layer as a GeoJSON Feature; 404 when the layer does not hold it (or the caller may not view it). */
function featureRoute(layer: GeoLayer): PluginRoute {
  return {
    method: 'GET',
    path: `geo/${layer.name}/{id}`,
    permission: 'authenticated',
    openapi: {
      summary: `One feature of the ${layer.name.replace(/-/g, ' ')} layer as a GeoJSON Feature`,
      pathParameters: { id: { description: 'The object', schema: { type: 'integer', minimum: 1 } } },
      response: FEATURE_SCHEMA,
      responseMediaType: GEOJSON,
    },
    handle: async (context) => {
      const query: LayerQuery = { bbox: null, zoom: null, excluded: [], filters: { id: context.params.id } };
      const { features } = await scanLayer(context, layer, query, 1);
      if (features.length === 0) throw new NotFoundError('Not found.');
      return RouteResponse.text(features[0], `${GEOJSON}; charset=utf-8`);
    },
  };
}

/** Key of a layer in `info/` counts: `conduit-banks` → `conduit_banks`. */
const countKey = (layer: GeoLayer) => layer.name.replace(/-/g, '_');

const INFO_ROUTE: PluginRoute = {
  method: 'GET',
  path: 'geo/info',
  permission: 'authenticated',
  openapi: {
    summary: 'Feature counts of every layer under the same filters, the bbox, the display thresholds and the lifecycle statuses',
    parameters: [...LAYER_PARAMETERS_DOC],
    response: {
      type: 'object',
      required: ['bbox', 'counts', 'thresholds', 'statuses'],
      properties: {
        bbox: { type: 'array', items: { type: 'number' }, nullable: true },
        counts: { type: 'object', additionalProperties: { type: 'integer' } },
        thresholds: { type: 'object' },
        statuses: { type: 'array', items: { type: 'object' } },
      },
    },
  },
  handle: async (context) => {
    const query = readLayerQuery(context.query);
    const counts: Record<string, number> = {};
    for (const layer of GEO_LAYERS) {
      if (layer.name === 'pathways') continue;
      counts[countKey(layer)] = (await scanLayer(context, layer, query, 0)).total;
    }
    return conditional(
      context,
      {
        bbox: query.bbox,
        counts,
        thresholds: {
          structures: { cluster: context.settings.structures_cluster_threshold, hide: context.settings.structures_hide_threshold },
          others: { hide: context.settings.others_hide_threshold },
        },
        statuses: LIFECYCLE_STATUSES,
      },
      'application/json',
    );
  },
};

export const GEO_ROUTES: PluginRoute[] = [...GEO_LAYERS.map(layerRoute), INFO_ROUTE, EXTERNAL_LAYER_ROUTE, ...GEO_LAYERS.map(featureRoute)];
