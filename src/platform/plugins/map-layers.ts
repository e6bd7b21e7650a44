import type { MapLayer, MapLayerGeometrySource } from '../framework/resource/resource-declaration';
import { mapLayerSource, type ResourceDefinition } from '../framework/resource/resource-definition';

/**
 * Map layers that models declare (`mapLayer`) for a map plugin to serve (pathways serves them at
 * `geo/external/<name>/`), without the declaring plugin and the map plugin importing each other. A
 * layer whose model is not served (its plugin left out of PLUGINS) is not served either.
 */

export type { MapLayerGeometrySource };

/** A declared map layer with the model whose objects are its features. */
export interface MapLayerDeclaration extends MapLayer {
  source: ResourceDefinition;
}

/** The layer of that name, if some model declares it. */
export function publishedMapLayer(name: string): MapLayerDeclaration | undefined {
  const source = mapLayerSource(name);
  return source?.mapLayer && { ...source.mapLayer, source };
}
