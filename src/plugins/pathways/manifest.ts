import type { PluginManifest } from '../../platform/plugins/plugin-declaration';
import { setting } from '../../platform/plugins/plugin-settings';

/** Positions a stored line may hold unless `PLUGIN_PATHWAYS_MAX_PATH_POSITIONS` says otherwise. */
export const DEFAULT_MAX_PATH_POSITIONS = 10_000;

/** What the configuration check needs of the plugin (name, dependencies, settings), without loading its models. */
export const PATHWAYS_MANIFEST: PluginManifest = {
  name: 'pathways',
  version: '1.0.0',
  description:
    'Outside plant: structures, pathways of every kind (conduit banks, conduits, aerial spans, direct-buried, innerducts, trays, raceways, microducts, submarine), junctions, waypoints, site and circuit geometries, cable routing, a route planner and GeoJSON map layers.',
  settings: {
    structures_cluster_threshold: setting.integer({
      default: 200,
      min: 0,
      max: 1000000,
      description: 'Reported by geo/info/: from how many structures in view a map should cluster them',
    }),
    structures_hide_threshold: setting.integer({
      default: 5000,
      min: 0,
      max: 1000000,
      description: 'Reported by geo/info/: from how many structures in view a map should hide the layer',
    }),
    others_hide_threshold: setting.integer({
      default: 500,
      min: 0,
      max: 1000000,
      description: 'Reported by geo/info/: from how many features in view a map should hide a pathway or circuit layer',
    }),
    max_path_positions: setting.integer({
      default: DEFAULT_MAX_PATH_POSITIONS,
      min: 2,
      max: 1000000,
      description: 'Positions a pathway or circuit path may hold; a longer one is refused with 400 on path',
    }),
    snap_tolerance_cm: setting.integer({
      default: 100,
      min: 0,
      max: 100000,
      description: "How far (centimetres) a path's end may lie from its start or end structure; the end is moved onto the structure",
    }),
  },
};
