import { describeResourceApi, unique, usePlatformApp } from '../../../../test/support/resource-api-kit';

const P = '/api/plugins/pathways';
const point = (longitude: number, latitude: number) => ({ type: 'Point', coordinates: [longitude, latitude] });
const line = (...coordinates: number[][]) => ({ type: 'LineString', coordinates });

/** The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of the pathways plugin's models. */
describe('pathways plugin: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${P}/structures/`,
    objectType: 'pathways.structure',
    graphqlName: 'pathways_structure',
    fixtures: async ({ api }) => ({ site: await api.created('/api/dcim/sites/', { name: unique('site'), slug: unique('site') }) }),
    create: (fx) => [
      { name: 'MH-1', structure_type: 'manhole', geometry: point(4.9, 52.37), site: fx.site.id, elevation: 1.5 },
      { name: 'P-1', structure_type: 'pole', status: 'planned', geometry: point(4.91, 52.37), installation_date: '2024-01-02' },
      { name: 'CAB-1', structure_type: 'cabinet', status: 'retired', geometry: point(5, 52), access_notes: 'key at the desk' },
    ],
    update: { name: 'MH-1b', status: 'decommissioning', geometry: point(4.95, 52.3) },
    bulkUpdate: { comments: 'surveyed' },
    brief: ['id', 'url', 'display', 'name', 'structure_type', 'status'],
    filters: {
      'structure_type=pole': [1],
      'status=retired': [2],
      'status__n=active': [1, 2],
      'q=desk': [2],
      'bbox=4.8,52.3,4.95,52.4': [0, 1],
      'bbox=179,-1,-179,1': [],
    },
    invalid: [
      { body: { name: 'no geometry' }, field: 'geometry' },
      { body: { name: 'bad', geometry: point(4.9, 100) }, field: 'geometry' },
      { body: { name: 'bad status', geometry: point(1, 1), status: 'gone' }, field: 'status' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/conduits/`,
    objectType: 'pathways.conduit',
    graphqlName: 'pathways_conduit',
    create: [
      { label: 'C-1', material: 'hdpe', inner_diameter: 40, outer_diameter: 50, depth: 0.8, path: line([4.9, 52.37], [4.91, 52.37]) },
      { label: 'C-2', material: 'pvc', status: 'construction', path: line([4.9, 52.38], [4.91, 52.38]) },
      { label: 'C-3', material: 'steel', length: 12.5, path: line([5, 52], [5.001, 52.001]) },
    ],
    update: { label: 'C-1b', depth: 1.1, path: line([4.9, 52.37], [4.905, 52.375]) },
    bulkUpdate: { comments: 'inspected' },
    brief: ['id', 'url', 'display', 'label', 'status', 'material'],
    filters: { 'material=pvc': [1], 'material=hdpe&material=steel': [0, 2], 'status=construction': [1], 'bbox=4.99,51.99,5.01,52.01': [2] },
    invalid: [
      { body: { label: 'no path' }, field: 'path' },
      { body: { label: 'short', path: line([4.9, 52.37]) }, field: 'path' },
      { body: { label: 'bad material', material: 'wood', path: line([0, 0], [1, 1]) }, field: 'material' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/aerial-spans/`,
    objectType: 'pathways.aerialspan',
    graphqlName: 'pathways_aerial_span',
    create: [
      { label: 'A-1', aerial_type: 'adss', sag: 0.4, path: line([4.9, 52.37], [4.91, 52.37]) },
      { label: 'A-2', aerial_type: 'lashed', path: line([4.9, 52.38], [4.91, 52.38]) },
      { label: 'A-3', aerial_type: 'opgw', messenger_size: '6.6 mm', path: line([5, 52], [5.1, 52]) },
    ],
    update: { label: 'A-1b', aerial_type: 'messenger' },
    brief: ['id', 'url', 'display', 'label', 'status'],
    filters: { 'aerial_type=lashed': [1], 'messenger_size=6.6 mm': [2] },
    invalid: [{ body: { label: 'bad', aerial_type: 'kite', path: line([0, 0], [1, 1]) }, field: 'aerial_type' }],
  });

  describeResourceApi({
    app,
    path: `${P}/direct-buried/`,
    objectType: 'pathways.directburied',
    graphqlName: 'pathways_direct_buried',
    create: [
      { label: 'D-1', burial_depth: 1.2, warning_tape: true, path: line([4.9, 52.37], [4.91, 52.37]) },
      { label: 'D-2', tracer_wire: true, armor_type: 'steel_wire', path: line([4.9, 52.38], [4.91, 52.38]) },
      { label: 'D-3', path: line([5, 52], [5.1, 52]) },
    ],
    update: { label: 'D-1b', warning_tape: false },
    brief: ['id', 'url', 'display', 'label', 'status'],
    filters: { 'warning_tape=true': [0], 'armor_type=steel_wire': [1] },
    invalid: [{ body: { label: 'bad', path: line([0, 0], [0, 91]) }, field: 'path' }],
  });

  describeResourceApi({
    app,
    path: `${P}/conduit-banks/`,
    objectType: 'pathways.conduitbank',
    graphqlName: 'pathways_conduit_bank',
    create: [
      { label: 'B-1', configuration: '2x2', total_conduits: 4, encasement_type: 'concrete', path: line([4.9, 52.37], [4.91, 52.37]) },
      { label: 'B-2', configuration: '3x4', total_conduits: 12, path: line([4.9, 52.38], [4.91, 52.38]) },
      { label: 'B-3', configuration: 'custom', path: line([5, 52], [5.1, 52]) },
    ],
    update: { label: 'B-1b', total_conduits: 3 },
    brief: ['id', 'url', 'display', 'label', 'status'],
    filters: { 'configuration=3x4': [1], 'total_conduits__gte=4': [0, 1] },
    invalid: [{ body: { label: 'bad', configuration: '9x9', path: line([0, 0], [1, 1]) }, field: 'configuration' }],
  });

  describeResourceApi({
    app,
    path: `${P}/innerducts/`,
    objectType: 'pathways.innerduct',
    graphqlName: 'pathways_innerduct',
    fixtures: async ({ api }) => ({
      conduit: await api.created(`${P}/conduits/`, { label: unique('parent'), path: line([4, 50], [4.1, 50]) }),
    }),
    create: (fx) => [
      { label: 'I-1', parent_conduit: fx.conduit.id, color: 'orange', position: 1 },
      { label: 'I-2', parent_conduit: fx.conduit.id, color: 'blue', position: 2 },
      { label: 'I-3', parent_conduit: fx.conduit.id, size: '32 mm', position: 3 },
    ],
    update: { color: 'green' },
    brief: ['id', 'url', 'display', 'label', 'status'],
    filters: { 'color=blue': [1], 'position__lte=2': [0, 1] },
    invalid: [{ body: { label: 'orphan' }, field: 'parent_conduit' }],
  });
});
