import { definePlugin } from '../../platform/plugins/plugin-declaration';
import { setting } from '../../platform/plugins/plugin-settings';
import { CABLE_TRACE_ROUTE, CableSegmentResource } from './cable-segments.resources';
import { MIGRATIONS } from './migrations';
import { PATHWAY_KINDS } from './pathways.resources';
import { StructureResource } from './structures.resources';

/** Outside plant: structures and the pathways between them, cables routed through them, and GeoJSON layers for maps. */
export const PathwaysPlugin = definePlugin({
  name: 'pathways',
  version: '1.0.0',
  description:
    'Outside plant: structures, conduit banks, conduits, aerial spans, direct-buried pathways and innerducts with geometry, cable routing and GeoJSON map layers.',
  resources: [StructureResource, ...PATHWAY_KINDS, CableSegmentResource],
  migrations: MIGRATIONS,
  routes: [CABLE_TRACE_ROUTE],
  settings: {
    snap_tolerance_cm: setting.integer({
      default: 100,
      min: 0,
      max: 100000,
      description: "How far (centimetres) a path's end may lie from its start or end structure; the end is moved onto the structure",
    }),
  },
});
