import { describeResourceApi, unique, usePlatformApp } from '../../../../test/support/resource-api-kit';
import { terminatedCable } from './pathways-fixtures';

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
    brief: ['id', 'url', 'display', 'label', 'material'],
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
    update: { label: 'A-1b', aerial_type: 'messenger', start_attachment_height: 7.5, end_attachment_height: 6.5 },
    brief: ['id', 'url', 'display', 'label', 'aerial_type'],
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
      { label: 'D-2', tracer_wire: true, armor_type: 'Double steel wire armour (DSWA)', path: line([4.9, 52.38], [4.91, 52.38]) },
      { label: 'D-3', path: line([5, 52], [5.1, 52]) },
    ],
    update: { label: 'D-1b', warning_tape: false },
    brief: ['id', 'url', 'display', 'label'],
    filters: { 'warning_tape=true': [0], 'armor_type__ic=steel wire': [1] },
    invalid: [{ body: { label: 'bad', path: line([0, 0], [0, 91]) }, field: 'path' }],
  });

  describeResourceApi({
    app,
    path: `${P}/conduit-banks/`,
    objectType: 'pathways.conduitbank',
    graphqlName: 'pathways_conduit_bank',
    create: [
      {
        label: 'B-1',
        configuration: '2x2',
        total_conduits: 4,
        encasement_type: 'concrete',
        start_face: 'north',
        end_face: 'south',
        path: line([4.9, 52.37], [4.91, 52.37]),
      },
      {
        label: 'B-2',
        configuration: '3x4',
        total_conduits: 12,
        encasement_type: 'bridge_attachment',
        path: line([4.9, 52.38], [4.91, 52.38]),
      },
      { label: 'B-3', configuration: 'custom', encasement_type: 'bore', end_face: 'east', path: line([5, 52], [5.1, 52]) },
    ],
    update: { label: 'B-1b', total_conduits: 3, encasement_type: 'tunnel' },
    brief: ['id', 'url', 'display', 'label'],
    filters: {
      'configuration=3x4': [1],
      'total_conduits__gte=4': [0, 1],
      'start_face=north': [0],
      'end_face=east': [2],
      'encasement_type=bore': [2],
    },
    invalid: [
      { body: { label: 'bad', configuration: '9x9', path: line([0, 0], [1, 1]) }, field: 'configuration' },
      { body: { label: 'sand', encasement_type: 'sand', path: line([0, 0], [1, 1]) }, field: 'encasement_type' },
      { body: { label: 'up', start_face: 'up', path: line([0, 0], [1, 1]) }, field: 'start_face' },
    ],
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
      { label: 'I-1', parent_conduit: fx.conduit.id, size: '32 mm', color: 'ff8000', position: 'top left' },
      { label: 'I-2', parent_conduit: fx.conduit.id, size: '32 mm', color: '0000ff', position: 'top right' },
      { label: 'I-3', parent_conduit: fx.conduit.id, size: '1.25"', position: 'bottom' },
    ],
    update: { color: '00ff00', position: 'centre' },
    brief: ['id', 'url', 'display', 'label', 'size'],
    filters: { 'color=0000ff': [1], 'position__isw=top': [0, 1], 'size=1.25"': [2] },
    invalid: [
      { body: { label: 'orphan', size: '32 mm' }, field: 'parent_conduit' },
      { body: (fx) => ({ label: 'no size', parent_conduit: fx.conduit.id }), field: 'size' },
      { body: (fx) => ({ label: 'named colour', parent_conduit: fx.conduit.id, size: '32 mm', color: 'orange' }), field: 'color' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/pathways/`,
    objectType: 'pathways.pathway',
    graphqlName: 'pathway',
    create: [
      { label: 'T-1', pathway_type: 'tray', path: line([4.9, 52.37], [4.901, 52.37]) },
      { label: 'S-1', pathway_type: 'submarine', status: 'planned', path: line([-5, 50], [-4, 51]) },
      { label: 'R-1', pathway_type: 'raceway', length: 12, path: line([5, 52], [5.001, 52]) },
    ],
    update: { label: 'T-1b', status: 'construction' },
    bulkUpdate: { comments: 'surveyed' },
    brief: ['id', 'url', 'display', 'label', 'pathway_type'],
    filters: {
      'pathway_type=submarine': [1],
      'pathway_type=tray&pathway_type=raceway': [0, 2],
      'status=planned': [1],
      'length__gte=10': [2],
    },
    invalid: [
      { body: { label: 'kind', pathway_type: 'tunnel', path: line([0, 0], [1, 1]) }, field: 'pathway_type' },
      { body: { label: 'no path', pathway_type: 'tray' }, field: 'path' },
      { body: { label: 'bad wkt', pathway_type: 'tray', path: 'LINESTRING(0 0' }, field: 'path' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/junctions/`,
    objectType: 'pathways.conduitjunction',
    graphqlName: 'conduit_junction',
    fixtures: async ({ api }) => {
      const a = await api.created(`${P}/structures/`, { name: unique('J-MH'), geometry: point(6, 51) });
      const b = await api.created(`${P}/structures/`, { name: unique('J-MH'), geometry: point(6.01, 51) });
      const trunk = await api.created(`${P}/conduits/`, {
        label: unique('trunk'),
        start_structure: a.id,
        end_structure: b.id,
        path: line([6, 51], [6.01, 51]),
      });
      const branch = await api.created(`${P}/conduits/`, {
        label: unique('branch'),
        start_structure: a.id,
        path: line([6, 51], [6, 51.01]),
      });
      return { a, b, trunk, branch };
    },
    create: (fx) => [
      { label: 'J-1', trunk_conduit: fx.trunk.id, branch_conduit: fx.branch.id, towards_structure: fx.a.id, position_on_trunk: 0.25 },
      { label: 'J-2', trunk_conduit: fx.trunk.id, branch_conduit: fx.branch.id, towards_structure: fx.b.id, position_on_trunk: 0.5 },
      {
        trunk_conduit: fx.trunk.id,
        branch_conduit: fx.branch.id,
        towards_structure: fx.b.id,
        position_on_trunk: 1,
        comments: 'at the end',
      },
    ],
    update: { label: 'J-1b', position_on_trunk: 0.3 },
    brief: ['id', 'url', 'display', 'label'],
    filters: (fx) => ({ [`towards_structure_id=${fx.b.id}`]: [1, 2], 'position_on_trunk__lte=0.5': [0, 1] }),
    invalid: [
      {
        body: (fx) => ({ trunk_conduit: fx.trunk.id, branch_conduit: fx.branch.id, towards_structure: fx.a.id, position_on_trunk: 1.5 }),
        field: 'position_on_trunk',
      },
      {
        body: (fx) => ({ trunk_conduit: fx.branch.id, branch_conduit: fx.trunk.id, towards_structure: fx.b.id, position_on_trunk: 0.5 }),
        field: 'towards_structure',
      },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/pathway-locations/`,
    objectType: 'pathways.pathwaylocation',
    graphqlName: 'pathway_location',
    fixtures: async ({ api }) => {
      const site = await api.created('/api/dcim/sites/', { name: unique('wp-site'), slug: unique('wp-site') });
      const location = await api.created('/api/dcim/locations/', { name: unique('wp-room'), slug: unique('wp-room'), site: site.id });
      const pathway = await api.created(`${P}/pathways/`, {
        label: unique('riser'),
        pathway_type: 'raceway',
        path: line([7, 50], [7.001, 50]),
      });
      return { site, location, pathway };
    },
    create: (fx) => [
      { pathway: fx.pathway.id, site: fx.site.id, sequence: 1 },
      { pathway: fx.pathway.id, location: fx.location.id, sequence: 2 },
      { pathway: fx.pathway.id, site: fx.site.id, location: fx.location.id, sequence: 3, comments: 'third floor' },
    ],
    update: { sequence: 10 },
    brief: ['id', 'url', 'display', 'pathway', 'sequence'],
    filters: (fx) => ({ [`location_id=${fx.location.id}`]: [1, 2], 'sequence__gte=2': [1, 2] }),
    invalid: [{ body: (fx) => ({ pathway: fx.pathway.id, sequence: 4 }), field: 'site' }],
  });

  describeResourceApi({
    app,
    path: `${P}/site-geometries/`,
    objectType: 'pathways.sitegeometry',
    graphqlName: 'site_geometry',
    fixtures: async ({ api }) => {
      const sites = [];
      for (let i = 0; i < 4; i++) sites.push(await api.created('/api/dcim/sites/', { name: unique('sg'), slug: unique('sg') }));
      const structure = await api.created(`${P}/structures/`, { name: unique('SG-MH'), geometry: point(8, 50) });
      return { sites, structure };
    },
    create: (fx) => [
      {
        site: fx.sites[0].id,
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [8, 50],
              [8.01, 50],
              [8.01, 50.01],
              [8, 50.01],
              [8, 50],
            ],
          ],
        },
      },
      { site: fx.sites[1].id, structure: fx.structure.id },
      { site: fx.sites[2].id, geometry: point(9, 51), comments: 'gate' },
    ],
    update: { comments: 'fenced' },
    brief: ['id', 'url', 'display', 'site'],
    filters: (fx) => ({ [`structure_id=${fx.structure.id}`]: [1], 'bbox=7.9,49.9,8.1,50.1': [0, 1] }),
    invalid: [
      { body: (fx) => ({ site: fx.sites[3].id, geometry: line([0, 0], [1, 1]) }), field: 'geometry' },
      { body: { site: 2147483000 }, field: 'site' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/circuit-geometries/`,
    objectType: 'pathways.circuitgeometry',
    graphqlName: 'pathways_circuit_geometry',
    fixtures: async ({ api }) => {
      const provider = await api.created('/api/circuits/providers/', { name: unique('carrier'), slug: unique('carrier') });
      const other = await api.created('/api/circuits/providers/', { name: unique('carrier'), slug: unique('carrier') });
      const type = await api.created('/api/circuits/circuit-types/', { name: unique('wave'), slug: unique('wave') });
      const circuits = [];
      for (const owner of [provider, provider, other, other])
        circuits.push(await api.created('/api/circuits/circuits/', { cid: unique('CID'), provider: owner.id, type: type.id }));
      return { provider, other, circuits };
    },
    create: (fx) => [
      { circuit: fx.circuits[0].id, path: line([1, 1], [2, 2]), provider_reference: 'SPAN-77' },
      { circuit: fx.circuits[1].id, path: line([1, 1], [3, 3]) },
      { circuit: fx.circuits[2].id, path: line([10, 10], [11, 11]), comments: 'as built' },
    ],
    update: { provider_reference: 'SPAN-78' },
    brief: ['id', 'url', 'display', 'circuit'],
    filters: (fx) => ({
      [`provider_id=${fx.provider.id}`]: [0, 1],
      [`provider=${fx.other.slug}`]: [2],
      'provider_reference=SPAN-77': [0],
    }),
    invalid: [{ body: (fx) => ({ circuit: fx.circuits[3].id, path: 'SRID=3857;LINESTRING(1 1, 3 3)' }), field: 'path' }],
  });

  describeResourceApi({
    app,
    path: `${P}/planned-routes/`,
    objectType: 'pathways.plannedroute',
    graphqlName: 'planned_route',
    fixtures: async ({ api }) => {
      const a = await api.created(`${P}/structures/`, { name: unique('PR'), geometry: point(9, 50) });
      const b = await api.created(`${P}/structures/`, { name: unique('PR'), geometry: point(9.01, 50) });
      const tenant = await api.created('/api/tenancy/tenants/', { name: unique('tenant'), slug: unique('tenant') });
      return { a, b, tenant, cable: await terminatedCable(api, unique('PR-cable')) };
    },
    create: (fx) => [
      { name: 'Route 1', start_structure: fx.a.id, end_structure: fx.b.id, pathway_ids: [1, 2] },
      { name: 'Route 2', status: 'approved', start_structure: fx.b.id, end_structure: fx.a.id, tenant: fx.tenant.id },
      {
        name: 'Route 3',
        status: 'assigned',
        start_structure: fx.a.id,
        end_structure: fx.b.id,
        cable: fx.cable.id,
        constraints: { prefer_in_use: 50 },
      },
    ],
    update: { name: 'Route 1b', status: 'archived', pathway_ids: [3] },
    brief: ['id', 'url', 'display', 'name', 'status'],
    filters: (fx) => ({ 'status=approved': [1], [`tenant_id=${fx.tenant.id}`]: [1], [`cable_id=${fx.cable.id}`]: [2] }),
    invalid: [
      { body: (fx) => ({ name: 'one end', start_structure: fx.a.id }), field: 'end_structure' },
      { body: (fx) => ({ name: 'ids', start_structure: fx.a.id, end_structure: fx.b.id, pathway_ids: ['x'] }), field: 'pathway_ids' },
    ],
  });

  describeResourceApi({
    app,
    path: `${P}/cable-segments/`,
    objectType: 'pathways.cablesegment',
    graphqlName: 'cable_segment',
    fixtures: async ({ api, factories }) => {
      const cable = async () => {
        const [a, b] = [await factories.rearPort({ type: 'splice' }), await factories.rearPort({ type: 'splice' })];
        return factories.cable([['dcim.rearport', a.id]], [['dcim.rearport', b.id]]);
      };
      const pathway = () =>
        api.created(`${P}/pathways/`, { label: unique('duct'), pathway_type: 'raceway', path: line([6, 50], [6.001, 50]) });
      const cables = [await cable(), await cable(), await cable()];
      const pathways = [await pathway(), await pathway()];
      const lashed = await api.created(`${P}/cable-segments/`, { cable: cables[2].id, pathway: pathways[1].id });
      return { cables, pathways, lashed };
    },
    create: (fx) => [
      { cable: fx.cables[0].id, pathway: fx.pathways[0].id, sequence: 1 },
      { cable: fx.cables[0].id, pathway: fx.pathways[1].id, sequence: 2, comments: 'under the road' },
      { cable: fx.cables[1].id, sequence: 1 },
    ],
    update: (fx) => ({ sequence: 3, lashed_with: [fx.lashed.id] }),
    bulkUpdate: { comments: 'as built' },
    brief: ['id', 'url', 'display', 'cable', 'pathway', 'sequence'],
    filters: (fx) => ({
      [`cable_id=${fx.cables[0].id}`]: [0, 1],
      [`pathway_id=${fx.pathways[1].id}`]: [1],
      'sequence=1': [0, 2],
    }),
    invalid: [
      { body: (fx) => ({ cable: fx.cables[1].id, sequence: 0 }), field: 'sequence' },
      { body: { sequence: 4 }, field: 'cable' },
    ],
  });
});
