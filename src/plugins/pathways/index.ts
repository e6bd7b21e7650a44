import { definePlugin } from '../../platform/plugin-api';
import { PATHWAYS_MANIFEST } from './manifest';
import { CABLE_TRACE_ROUTE, CableSegmentResource } from './cable-segments.resources';
import { CircuitGeometryResource } from './circuit-geometries.resources';
import { GEO_ROUTES } from './geo-routes';
import { MIGRATIONS } from './migrations';
import { PathwayLocationResource } from './pathway-locations.resources';
import { ConduitJunctionResource, PATHWAY_KINDS, PathwayResource } from './pathways.resources';
import { PlannedRouteResource } from './planned-routes.resources';
import { SiteGeometryResource } from './site-geometries.resources';
import { StructureResource } from './structures.resources';

/** Outside plant: structures and the pathways between them, cables routed through them, and GeoJSON layers for maps. */
export const PathwaysPlugin = definePlugin({
  ...PATHWAYS_MANIFEST,
  appLabelAliases: ['netbox_pathways'],
  resources: [
    StructureResource,
    SiteGeometryResource,
    CircuitGeometryResource,
    PathwayResource,
    ...PATHWAY_KINDS,
    ConduitJunctionResource,
    PathwayLocationResource,
    CableSegmentResource,
    PlannedRouteResource,
  ],
  migrations: MIGRATIONS,
  routes: [...GEO_ROUTES, CABLE_TRACE_ROUTE],
});
