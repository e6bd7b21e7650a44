import type { EntityManager } from 'typeorm';
import { defineResource, json, longText, relation, type ResourceRow, SiteResource } from '../../platform/plugin-api';
import { geometryFromText, storeBoundingBox, structureGeometryProblems } from './geometry';
import { bboxFilter, boundingBoxField, PATHWAYS_API_PREFIX, StructureResource } from './structures.resources';

/** Without a geometry of its own, a site takes its structure's (when it has one). */
async function fillFromStructure(manager: EntityManager, row: ResourceRow): Promise<void> {
  if (row.geometry === null && row.structure_id !== null) {
    await manager.query(
      `UPDATE pathways_sitegeometry g SET geometry = s.geometry FROM pathways_structure s WHERE g.id = $1 AND s.id = g.structure_id`,
      [row.id],
    );
    const [filled] = (await manager.query('SELECT geometry FROM pathways_sitegeometry WHERE id = $1', [row.id])) as Array<{
      geometry: unknown;
    }>;
    row.geometry = filled.geometry;
  }
  await storeBoundingBox(manager, 'pathways_sitegeometry', 'geometry', row.id);
}

/** Where a site lies on the map: the structure it is, and its point or footprint (the structure's when none is given). */
export const SiteGeometryResource = defineResource({
  appLabel: 'pathways',
  model: 'sitegeometry',
  path: 'site-geometries',
  apiPrefix: PATHWAYS_API_PREFIX,
  verboseName: 'site geometry',
  graphqlName: 'site_geometry',
  table: 'pathways_sitegeometry',
  fields: {
    site: relation(() => SiteResource, { onDelete: 'CASCADE', required: true, unique: true }),
    structure: relation(() => StructureResource, { onDelete: 'SET NULL', unique: true, filterById: true }),
    geometry: json({ nullable: true, parse: geometryFromText, validate: structureGeometryProblems }),
    bbox: boundingBoxField(),
    comments: longText({ search: true }),
  },
  display: (row) => `Geometry: site ${String(row.site_id)}`,
  brief: ['site'],
  ordering: ['site'],
  relatedObject: 'site',
  indexes: [{ name: 'pathways_sitegeometry_bbox_gist', columns: ['bbox'], method: 'gist' }],
  extraFilters: { bbox: bboxFilter },
  afterCreate: async ({ manager }, row) => fillFromStructure(manager, row),
  afterUpdate: async ({ manager }, _before, row) => fillFromStructure(manager, row),
});
