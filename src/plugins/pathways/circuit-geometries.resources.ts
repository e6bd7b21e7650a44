import { CircuitResource, defineResource, type ExtraFilter, idFilterProblem, longText, relation, text } from '../../platform/plugin-api';
import { assertPathSize, pathField, storeBoundingBox } from './geometry';
import { bboxFilter, boundingBoxField, PATHWAYS_API_PREFIX } from './structures.resources';

/** `provider_id=<id>` / `provider=<slug>`: geometries of the circuits of those providers. */
function providerFilter(key: 'id' | 'slug'): ExtraFilter {
  return (values, alias, prefix) => {
    const problem = key === 'id' ? idFilterProblem(values) : undefined;
    if (problem) return { problem };
    return {
      where: `${alias}.circuit_id IN (SELECT c.id FROM circuits_circuit c JOIN circuits_provider p ON p.id = c.provider_id WHERE p.${key} IN (:...${prefix}))`,
      params: { [prefix]: key === 'id' ? values.map(Number) : values },
    };
  };
}

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
    path: pathField(),
    bbox: boundingBoxField(),
    // The provider's route or span id, or the document the route comes from.
    provider_reference: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => `Circuit ${String(row.circuit_id)} route`,
  brief: ['circuit'],
  ordering: ['circuit'],
  relatedObject: 'circuit',
  indexes: [{ name: 'pathways_circuitgeometry_bbox_gist', columns: ['bbox'], method: 'gist' }],
  extraFilters: { bbox: bboxFilter, provider_id: providerFilter('id'), provider: providerFilter('slug') },
  validate: (values): Record<string, string[]> => (values.path ? {} : { path: ['This field is required: a GeoJSON LineString or WKT.'] }),
  afterCreate: async ({ manager, settings }, row) => {
    assertPathSize(row.path, settings);
    await storeBoundingBox(manager, 'pathways_circuitgeometry', 'path', row.id);
  },
  afterUpdate: async ({ manager, settings }, _before, row) => {
    assertPathSize(row.path, settings);
    await storeBoundingBox(manager, 'pathways_circuitgeometry', 'path', row.id);
  },
});
