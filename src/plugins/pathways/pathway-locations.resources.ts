import { defineResource, integer, LocationResource, longText, relation, SiteResource } from '../../platform/plugin-api';
import { PathwayResource } from './pathways.resources';
import { PATHWAYS_API_PREFIX } from './structures.resources';

/** A site or location a pathway passes through between its ends: its waypoints, in `sequence` order. */
export const PathwayLocationResource = defineResource({
  appLabel: 'pathways',
  model: 'pathwaylocation',
  path: 'pathway-locations',
  apiPrefix: PATHWAYS_API_PREFIX,
  verboseName: 'pathway location',
  graphqlName: 'pathway_location',
  table: 'pathways_pathwaylocation',
  fields: {
    pathway: relation(() => PathwayResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    site: relation(() => SiteResource, { onDelete: 'PROTECT' }),
    location: relation(() => LocationResource, { onDelete: 'PROTECT' }),
    sequence: integer({ min: 0, max: 2147483647, default: 0 }),
    comments: longText({ search: true }),
  },
  display: (row) => `Pathway ${String(row.pathway_id)} waypoint ${String(row.sequence)}`,
  brief: ['pathway', 'sequence'],
  ordering: ['pathway', 'sequence'],
  uniqueTogether: [['pathway', 'sequence']],
  relatedObject: 'pathway',
  validate: (values): Record<string, string[]> =>
    (values.site_id ?? null) === null && (values.location_id ?? null) === null
      ? { site: ['At least one of site or location is required.'] }
      : {},
});
