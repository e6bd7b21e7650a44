import type { EntityManager } from 'typeorm';
import {
  choice,
  computedProperties,
  date,
  decimal,
  defineResource,
  json,
  LocationResource,
  longText,
  relation,
  type ResourceRow,
  SiteResource,
  TenantResource,
  text,
} from '../../platform/plugin-api';
import { boxCondition, geometryFromText, parseBoundingBox, storeBoundingBox, structureGeometryProblems } from './geometry';
import { hasPathwaysFilter, occupiedStructureFilter, tenantGroupFilter } from './pathways.filters';
import { LIFECYCLE_STATUS_CHOICES, STRUCTURE_TYPE_CHOICES } from './pathways.choices';

export const PATHWAYS_API_PREFIX = '/api/plugins/pathways/';

const metres = () => decimal({ precision: 8, scale: 2, nullable: true });

/** The column holding a geometry's bounding box (`box`, GiST-indexed): written by the model's hooks, never read or written through the API. */
export const boundingBoxField = () => text({ columnType: 'box', nullable: true, readOnly: true, writeOnly: true, noFilter: true });

/** `bbox=W,S,E,N` as a list filter too, on the same index as the GeoJSON layers. */
export const bboxFilter = (values: string[], alias: string, parameterPrefix: string) => {
  const box = parseBoundingBox(values[values.length - 1]);
  return 'problem' in box ? box : boxCondition(alias, box, parameterPrefix);
};

/** A pole, manhole, cabinet, building entrance…: a point or a footprint where pathways start and end. */
export const StructureResource = defineResource({
  appLabel: 'pathways',
  model: 'structure',
  path: 'structures',
  apiPrefix: PATHWAYS_API_PREFIX,
  verboseName: 'structure',
  graphqlName: 'structure',
  graphql: {
    deprecatedNames: ['pathways_structure'],
    lists: {
      pathways_out: { objectType: 'pathways.pathway', field: 'start_structure' },
      pathways_in: { objectType: 'pathways.pathway', field: 'end_structure' },
    },
  },
  table: 'pathways_structure',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    status: choice(LIFECYCLE_STATUS_CHOICES, { default: 'active' }),
    structure_type: choice(STRUCTURE_TYPE_CHOICES, { blank: true }),
    site: relation(() => SiteResource, { onDelete: 'SET NULL' }),
    location: relation(() => LocationResource, { onDelete: 'PROTECT', unique: true }),
    geometry: json({ nullable: true, parse: geometryFromText, validate: structureGeometryProblems }),
    bbox: boundingBoxField(),
    elevation: metres(),
    height: metres(),
    width: metres(),
    length: metres(),
    depth: metres(),
    installation_date: date({ nullable: true }),
    commissioned_date: date({ nullable: true }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    installed_by: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    access_notes: longText({ search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'structure_type', 'status'],
  ordering: ['name'],
  indexes: [{ name: 'pathways_structure_bbox_gist', columns: ['bbox'], method: 'gist' }],
  extraFilters: {
    bbox: bboxFilter,
    occupied: occupiedStructureFilter,
    has_pathways: hasPathwaysFilter,
    tenant_group: tenantGroupFilter('slug'),
    tenant_group_id: tenantGroupFilter('id'),
  },
  extensions: [
    // As NetBox's plugin: whether no pathway starts or ends here, and a description saying so.
    computedProperties({ no_pathways: { type: 'boolean' }, description: { type: 'string' } }, async (manager, rows) => {
      const ids = rows.map((row) => row.id);
      const found = (await manager.query(
        `SELECT DISTINCT unnest(ARRAY[start_structure_id, end_structure_id]) AS id FROM pathways_pathway
          WHERE start_structure_id = ANY($1) OR end_structure_id = ANY($1)`,
        [ids],
      )) as Array<{ id: number | null }>;
      const connected = new Set(found.map((row) => row.id));
      return new Map(
        ids.map((id) => [id, { no_pathways: !connected.has(id), description: connected.has(id) ? null : 'No connected pathways' }]),
      );
    }),
  ],
  validate: (values): Record<string, string[]> =>
    values.geometry ? {} : { geometry: ['This field is required: a GeoJSON Point or Polygon, or WKT.'] },
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    if (!values.location_id || !values.site_id) return {};
    const [location] = (await manager.query('SELECT site_id FROM dcim_location WHERE id = $1', [values.location_id])) as Array<{
      site_id: number;
    }>;
    return location?.site_id === values.site_id ? {} : { location: ["The location must belong to the structure's site."] };
  },
  afterCreate: async ({ manager }, row) => placeStructure(manager, row),
  afterUpdate: async ({ manager }, _before, row) => placeStructure(manager, row),
});

/** After a write: the bounding box from the point, and the site from the location when none was given. */
async function placeStructure(manager: EntityManager, row: ResourceRow): Promise<void> {
  await storeBoundingBox(manager, 'pathways_structure', 'geometry', row.id);
  if (row.site_id !== null || row.location_id === null) return;
  const [location] = (await manager.query('SELECT site_id FROM dcim_location WHERE id = $1', [row.location_id])) as Array<{
    site_id: number;
  }>;
  await manager.query('UPDATE pathways_structure SET site_id = $2 WHERE id = $1', [row.id, location.site_id]);
  row.site_id = location.site_id;
}
