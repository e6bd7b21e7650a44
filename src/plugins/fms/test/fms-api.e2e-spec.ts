import type { PlatformClient } from '../../../../test/support/platform-client';
import { describeResourceApi, unique, usePlatformApp } from '../../../../test/support/resource-api-kit';

const F = '/api/plugins/fms';

interface FmsWorld {
  manufacturers: [any, any];
  type: any;
  moduleTypes: [any, any, any];
  tenant: any;
}

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of the fms models that
 * stand on their own; the plugin's rules (component generation, splice plans, circuits,
 * protection) are in fms.e2e-spec.ts.
 */
describe('platform fms plugin: the REST and GraphQL contract of its models', () => {
  const app = usePlatformApp();

  let worldMade: Promise<FmsWorld> | undefined;
  const world = (api: PlatformClient): Promise<FmsWorld> => (worldMade ??= makeWorld(api));

  async function makeWorld(api: PlatformClient): Promise<FmsWorld> {
    const maker = (name: string) => api.created('/api/dcim/manufacturers/', { name, slug: name.toLowerCase() });
    const manufacturers: FmsWorld['manufacturers'] = [await maker('Prysmian'), await maker('Fujikura')];
    const moduleType = (model: string) => api.created('/api/dcim/module-types/', { manufacturer: manufacturers[0].id, model });
    return {
      manufacturers,
      type: await api.created(`${F}/cable-types/`, {
        manufacturer: manufacturers[0].id,
        model: unique('Template host'),
        construction: 'loose_tube',
        strand_count: 48,
      }),
      moduleTypes: [await moduleType('Tray A'), await moduleType('Tray B'), await moduleType('Tray C')],
      tenant: await api.created('/api/tenancy/tenants/', { name: 'Fibre Tenant', slug: 'fibre-tenant' }),
    };
  }

  describeResourceApi({
    app,
    path: `${F}/cable-types/`,
    objectType: 'fms.fibercabletype',
    graphqlName: 'fiber_cable_type',
    fixtures: ({ api }) => world(api),
    create: (fx) => [
      { manufacturer: fx.manufacturers[0].id, model: 'Flextube 24', construction: 'loose_tube', strand_count: 24 },
      { manufacturer: fx.manufacturers[1].id, model: 'SWR 144', construction: 'ribbon', strand_count: 144, color_scheme: 'din_iec_60304' },
      {
        manufacturer: fx.manufacturers[0].id,
        model: 'Armored 12',
        construction: 'micro',
        strand_count: 12,
        is_armored: true,
        armor_type: 'steel_tape',
      },
    ],
    update: { part_number: 'PN-1', deployment: 'duct' },
    brief: ['id', 'url', 'display', 'manufacturer', 'model', 'construction', 'strand_count'],
    filters: { 'construction=ribbon': [1], 'is_armored=true': [2], 'strand_count__gte=24': [0, 1] },
    invalid: [
      {
        body: (fx) => ({ manufacturer: fx.manufacturers[0].id, model: 'Bad', construction: 'loose_tube', strand_count: 0 }),
        field: 'strand_count',
      },
      {
        body: (fx) => ({
          manufacturer: fx.manufacturers[0].id,
          model: 'Bad',
          construction: 'loose_tube',
          strand_count: 12,
          jacket_color: '#000000',
        }),
        field: 'jacket_color',
      },
    ],
  });

  describeResourceApi({
    app,
    path: `${F}/attenuation-specs/`,
    objectType: 'fms.fiberattenuationspec',
    graphqlName: 'fiber_attenuation_spec',
    fixtures: ({ api }) => world(api),
    create: (fx) => [
      { fiber_cable_type: fx.type.id, wavelength_nm: 1310, max_loss_db_per_km: 0.35 },
      { fiber_cable_type: fx.type.id, wavelength_nm: 1550, max_loss_db_per_km: 0.22 },
      { fiber_cable_type: fx.type.id, wavelength_nm: 1625, max_loss_db_per_km: 0.25 },
    ],
    update: { max_loss_db_per_km: 0.3 },
    brief: ['id', 'url', 'display', 'wavelength_nm', 'max_loss_db_per_km'],
    filters: { 'wavelength_nm__gt=1400': [1, 2] },
    invalid: [{ body: (fx) => ({ fiber_cable_type: fx.type.id, wavelength_nm: 1310.5, max_loss_db_per_km: 0.3 }), field: 'wavelength_nm' }],
  });

  describeResourceApi({
    app,
    path: `${F}/buffer-tube-templates/`,
    objectType: 'fms.buffertubetemplate',
    graphqlName: 'buffer_tube_template',
    fixtures: ({ api }) => world(api),
    create: (fx) => [
      { fiber_cable_type: fx.type.id, name: 'T1', position: 1, color: '0000ff', fiber_count: 12 },
      { fiber_cable_type: fx.type.id, name: 'T2', position: 2, color: 'ff8000', fiber_count: 12 },
      { fiber_cable_type: fx.type.id, name: 'T3', position: 3, color: '00ff00', fiber_count: 24, marker_count: 1, marker_type: 'stripe' },
    ],
    update: { description: 'left of the central member' },
    brief: ['id', 'url', 'display', 'name', 'position', 'fiber_count'],
    filters: { 'fiber_count=24': [2], 'name=T1': [0] },
    invalid: [{ body: (fx) => ({ fiber_cable_type: fx.type.id, name: 'T9', position: 9, color: 'blue' }), field: 'color' }],
  });

  describeResourceApi({
    app,
    path: `${F}/cable-element-templates/`,
    objectType: 'fms.cableelementtemplate',
    graphqlName: 'cable_element_template',
    fixtures: ({ api }) => world(api),
    create: (fx) => [
      { fiber_cable_type: fx.type.id, name: 'CSM', element_type: 'central_member' },
      { fiber_cable_type: fx.type.id, name: 'Ripcord', element_type: 'ripcord' },
      { fiber_cable_type: fx.type.id, name: 'Tracer', element_type: 'tracer_wire' },
    ],
    update: { description: 'toneable' },
    brief: ['id', 'url', 'display', 'name', 'element_type'],
    filters: { 'element_type=ripcord': [1] },
    invalid: [{ body: (fx) => ({ fiber_cable_type: fx.type.id, name: 'X', element_type: 'string' }), field: 'element_type' }],
  });

  describeResourceApi({
    app,
    path: `${F}/tray-profiles/`,
    objectType: 'fms.trayprofile',
    graphqlName: 'tray_profile',
    fixtures: ({ api }) => world(api),
    create: (fx) => [
      { module_type: fx.moduleTypes[0].id, tray_role: 'splice_tray', max_fibers: 24 },
      { module_type: fx.moduleTypes[1].id, tray_role: 'express_basket', max_fibers: 96 },
      { module_type: fx.moduleTypes[2].id, tray_role: 'splice_tray', max_fibers: 12 },
    ],
    update: { max_fibers: 36 },
    brief: ['id', 'url', 'display', 'module_type', 'tray_role', 'max_fibers'],
    filters: { 'tray_role=splice_tray': [0, 2] },
    invalid: [{ body: (fx) => ({ module_type: fx.moduleTypes[0].id, tray_role: 'shelf' }), field: 'tray_role' }],
  });

  describeResourceApi({
    app,
    path: `${F}/splice-projects/`,
    objectType: 'fms.spliceproject',
    graphqlName: 'splice_project',
    create: [{ name: 'North ring' }, { name: 'South ring', description: 'phase 2' }, { name: 'Backbone' }],
    update: { description: 'renumbered' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name__ic=ring': [0, 1], 'q=back': [2] },
    invalid: [{ body: { description: 'nameless' }, field: 'name' }],
  });

  describeResourceApi({
    app,
    path: `${F}/fiber-circuits/`,
    objectType: 'fms.fibercircuit',
    graphqlName: 'fiber_circuit',
    fixtures: ({ api }) => world(api),
    create: (fx) => [
      { name: 'DF-A', cid: 'C-1', strand_count: 2, status: 'active', tenant: fx.tenant.id },
      { name: 'DF-B', cid: 'C-2', strand_count: 1 },
      { name: 'DF-C', strand_count: 4, status: 'decommissioned' },
    ],
    update: { status: 'staged', description: 'moved' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'cid', 'status', 'strand_count'],
    filters: (fx) => ({ 'status=planned': [1], 'status=active&status=decommissioned': [0, 2], [`tenant_id=${fx.tenant.id}`]: [0] }),
    invalid: [
      { body: { name: 'No strands' }, field: 'strand_count' },
      { body: { name: 'Bad status', strand_count: 1, status: 'lit' }, field: 'status' },
    ],
  });
});
