import { describeResourceApi, unique, usePlatformApp } from './support/resource-api-kit';

const D = '/api/dcim';

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of regions, site groups,
 * sites, locations, manufacturers, device roles and platforms; their own rules are in
 * platform-organization.e2e-spec.ts and platform-dcim.e2e-spec.ts.
 */
describe('platform DCIM: the REST and GraphQL contract of regions, site groups, sites, locations, manufacturers, device roles and platforms', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${D}/regions/`,
    objectType: 'dcim.region',
    graphqlName: 'region',
    fixtures: async ({ factories }) => ({ parent: await factories.region() }),
    create: ({ parent }) => [
      { name: 'Europe', slug: 'europe', description: 'EMEA' },
      { name: 'France', slug: 'france', parent: parent.id },
      { name: 'Spain', slug: 'spain', parent: parent.id },
    ],
    update: { name: 'Western Europe', slug: 'western-europe' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: ({ parent }) => ({ 'slug=france': [1], [`parent_id=${parent.id}`]: [1, 2], 'q=EMEA': [0] }),
    invalid: [{ body: { slug: 'nameless' }, field: 'name' }],
  });

  describeResourceApi({
    app,
    path: `${D}/site-groups/`,
    objectType: 'dcim.sitegroup',
    graphqlName: 'site_group',
    fixtures: async ({ factories }) => ({ parent: await factories.siteGroup() }),
    create: ({ parent }) => [
      { name: 'Edge', slug: 'edge', description: 'small' },
      { name: 'Core', slug: 'core', parent: parent.id },
      { name: 'Colo', slug: 'colo', parent: parent.id },
    ],
    update: { name: 'Edge sites', slug: 'edge-sites' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: ({ parent }) => ({ 'name=Core': [1], [`parent_id=${parent.id}`]: [1, 2] }),
    invalid: [{ body: { name: 'No slug' }, field: 'slug' }],
  });

  describeResourceApi({
    app,
    path: `${D}/sites/`,
    objectType: 'dcim.site',
    graphqlName: 'site',
    fixtures: async ({ api, factories }) => ({
      region: await factories.region(),
      group: await factories.siteGroup(),
      tenant: await api.created('/api/tenancy/tenants/', { name: unique('tenant'), slug: unique('tenant') }),
    }),
    create: ({ region, group, tenant }) => [
      { name: 'PAR1', slug: 'par1', region: region.id, facility: 'TH2', time_zone: 'Europe/Paris' },
      { name: 'MAD1', slug: 'mad1', group: group.id, status: 'planned' },
      { name: 'LON1', slug: 'lon1', tenant: tenant.id, description: 'telehouse' },
    ],
    update: ({ group }) => ({ name: 'PAR2', slug: 'par2', status: 'retired', group: group.id }),
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: ({ region, group, tenant }) => ({
      [`region_id=${region.id}`]: [0],
      [`group_id=${group.id}`]: [1],
      [`tenant_id=${tenant.id}`]: [2],
      'status=planned': [1],
      'q=telehouse': [2],
    }),
    invalid: [
      { body: { slug: 'nameless' }, field: 'name' },
      { body: { name: 'Bad status', slug: 'bad-status', status: 'flooded' }, field: 'status' },
    ],
  });

  describeResourceApi({
    app,
    path: `${D}/locations/`,
    objectType: 'dcim.location',
    graphqlName: 'location',
    fixtures: async ({ factories }) => ({ sites: [await factories.site(), await factories.site()] }),
    create: ({ sites: [s1, s2] }) => [
      { name: 'Hall A', slug: 'hall-a', site: s1.id, facility: 'A' },
      { name: 'Hall B', slug: 'hall-b', site: s1.id, status: 'planned' },
      { name: 'Hall A', slug: 'hall-a', site: s2.id, description: 'annex' },
    ],
    update: { name: 'Hall A1', slug: 'hall-a1', status: 'retired' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: ({ sites: [s1, s2] }) => ({ [`site_id=${s1.id}`]: [0, 1], [`site=${s2.slug}`]: [2], 'status=planned': [1] }),
    invalid: [
      { body: { name: 'Homeless', slug: 'homeless' }, field: 'site' },
      { body: ({ sites }) => ({ name: 'Bad', slug: 'bad', site: sites[0].id, status: 'flooded' }), field: 'status' },
    ],
  });

  describeResourceApi({
    app,
    path: `${D}/manufacturers/`,
    objectType: 'dcim.manufacturer',
    graphqlName: 'manufacturer',
    create: [
      { name: 'Juniper', slug: 'juniper', description: 'routers' },
      { name: 'Arista', slug: 'arista' },
      { name: 'Corning', slug: 'corning' },
    ],
    update: { name: 'Juniper Networks', slug: 'juniper-networks' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: { 'slug=arista': [1], 'q=routers': [0] },
    invalid: [{ body: { name: 'No slug' }, field: 'slug' }],
  });

  describeResourceApi({
    app,
    path: `${D}/device-roles/`,
    objectType: 'dcim.devicerole',
    graphqlName: 'device_role',
    create: [
      { name: 'Core router', slug: 'core-router', color: 'ff0000' },
      { name: 'Patch panel', slug: 'patch-panel', vm_role: false },
      { name: 'Leaf', slug: 'leaf', description: 'fabric' },
    ],
    update: { name: 'Core', slug: 'core', color: '00ff00' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description', 'device_count', 'virtualmachine_count'],
    filters: { 'slug=leaf': [2], 'vm_role=false': [1] },
    invalid: [{ body: { name: 'Bad colour', slug: 'bad-colour', color: 'red' }, field: 'color' }],
  });

  describeResourceApi({
    app,
    path: `${D}/platforms/`,
    objectType: 'dcim.platform',
    graphqlName: 'platform',
    fixtures: async ({ factories }) => ({ manufacturer: await factories.manufacturer() }),
    create: ({ manufacturer }) => [
      { name: 'Junos', slug: 'junos', manufacturer: manufacturer.id },
      { name: 'EOS', slug: 'eos', description: 'arista' },
      { name: 'SR Linux', slug: 'sr-linux' },
    ],
    update: { name: 'Junos OS', slug: 'junos-os', manufacturer: null },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description', 'device_count', 'virtualmachine_count'],
    filters: ({ manufacturer }) => ({ [`manufacturer_id=${manufacturer.id}`]: [0], 'slug=eos': [1] }),
    invalid: [{ body: { slug: 'nameless' }, field: 'name' }],
  });
});
