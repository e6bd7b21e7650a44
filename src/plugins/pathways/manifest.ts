import type { PluginManifest } from '../../platform/plugins/plugin-declaration';
import { setting } from '../../platform/plugins/plugin-settings';

/** What the configuration check needs of the plugin (name, dependencies, settings), without loading its models. */
export const PATHWAYS_MANIFEST: PluginManifest = {
  name: 'pathways',
  version: '1.0.0',
  description:
    'Outside plant: structures, conduit banks, conduits, aerial spans, direct-buried pathways and innerducts with geometry, cable routing and GeoJSON map layers.',
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
    snap_tolerance_cm: setting.integer({
      default: 100,
      min: 0,
      max: 100000,
      description: "How far (centimetres) a path's end may lie from its start or end structure; the end is moved onto the structure",
    }),
  },
};
