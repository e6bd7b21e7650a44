import type { ResourceDefinition } from '../framework/resource/resource-declaration';

/**
 * Map layers that plugins publish for a map plugin to serve (pathways serves them at
 * `geo/external/<name>/`), without either plugin importing the other: the publisher names its
 * model and where each object's geometry comes from; the map plugin resolves the geometry and the
 * properties. Published when the publishing module loads; a layer whose model is not served (its
 * plugin left out of PLUGINS) is not served either.
 */

/**
 * Where a feature's geometry comes from: a relation of the model to a structure (its point), a
 * location (the structure at that location), or a platform cable (the paths of the pathways it is
 * routed through, in order).
 */
export interface MapLayerGeometrySource {
  field: string;
  via: 'structure' | 'location' | 'cable';
}

export interface MapLayerDeclaration {
  /** URL segment: lowercase words joined by hyphens, unique among layers. */
  name: string;
  /** The model whose objects are the features. */
  source: ResourceDefinition;
  /** One source, or several tried in order (the first that gives a geometry wins). */
  geometry: MapLayerGeometrySource | readonly MapLayerGeometrySource[];
  /** Properties besides `id`; absent: every scalar field and the display value of every relation. */
  featureFields?: readonly string[];
  /** A property a map colours features by; must be one of `featureFields` when they are given. */
  colorField?: string;
  /** Below this zoom (when the caller sends one), the layer answers no features: too dense to draw. */
  minZoom?: number;
}

const LAYER_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const layers = new Map<string, MapLayerDeclaration>();

/** Publishes a layer; a malformed declaration stops the module load with a message naming the problem. */
export function publishMapLayer(layer: MapLayerDeclaration): void {
  const problem = layerProblem(layer);
  if (problem) throw new Error(`map layer ${JSON.stringify(layer.name)}: ${problem}`);
  layers.set(layer.name, layer);
}

function layerProblem(layer: MapLayerDeclaration): string | null {
  if (!LAYER_NAME.test(layer.name)) return 'the name must be lowercase words joined by hyphens';
  if (layers.has(layer.name)) return 'a layer of that name is already published';
  const sources = [layer.geometry].flat();
  if (sources.length === 0) return 'needs a geometry source';
  for (const source of sources) {
    const field = layer.source.fields[source.field];
    if (field?.kind !== 'relation') return `geometry field ${source.field} is not a relation of ${layer.source.objectType}`;
  }
  for (const name of layer.featureFields ?? []) {
    if (!(name in layer.source.fields)) return `feature field ${name} is not a field of ${layer.source.objectType}`;
  }
  if (layer.colorField && layer.featureFields && !layer.featureFields.includes(layer.colorField))
    return `color field ${layer.colorField} is not one of the feature fields`;
  if (layer.colorField && !(layer.colorField in layer.source.fields)) return `color field ${layer.colorField} is not a field`;
  return null;
}

/** The published layer of that name, if any. */
export function publishedMapLayer(name: string): MapLayerDeclaration | undefined {
  return layers.get(name);
}

/** Every published layer, in publication order. */
export function publishedMapLayers(): readonly MapLayerDeclaration[] {
  return [...layers.values()];
}
