import { CircuitResource, defineResource, json, relation } from '../../platform/plugin-api';
import { assertPathSize, lineStringProblems, storeBoundingBox } from './geometry';
import { bboxFilter, boundingBoxField, PATHWAYS_API_PREFIX } from './structures.resources';

/** The route of a provider circuit on the map (the `circuits/` layer): one LineString per circuit. */
export const CircuitGeometryResource = defineResource({
  appLabel: 'pathways',
  model: 'circuitgeometry',
  path: 'circuit-geometries',
  apiPrefix: PATHWAYS_API_PREFIX,
  verboseName: 'circuit geometry',
  graphqlName: 'circuit_geometry',
  graphql: { deprecatedNames: ['pathways_circuit_geometry'] },
  table: 'pathways_circuitgeometry',
  fields: {
    circuit: relation(() => CircuitResource, { onDelete: 'CASCADE', required: true, unique: true }),
    path: json({ nullable: true, validate: lineStringProblems }),
    bbox: boundingBoxField(),
  },
  display: (row) => `Circuit ${String(row.circuit_id)} route`,
  brief: ['circuit'],
  ordering: ['circuit'],
  relatedObject: 'circuit',
  indexes: [{ name: 'pathways_circuitgeometry_bbox_gist', columns: ['bbox'], method: 'gist' }],
  extraFilters: { bbox: bboxFilter },
  validate: (values): Record<string, string[]> => (values.path ? {} : { path: ['This field is required: a GeoJSON LineString.'] }),
  afterCreate: async ({ manager, settings }, row) => {
    assertPathSize(row.path, settings);
    await storeBoundingBox(manager, 'pathways_circuitgeometry', 'path', row.id);
  },
  afterUpdate: async ({ manager, settings }, _before, row) => {
    assertPathSize(row.path, settings);
    await storeBoundingBox(manager, 'pathways_circuitgeometry', 'path', row.id);
  },
});
