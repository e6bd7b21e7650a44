import { describeResourceApi, FixtureTools, unique, usePlatformApp } from './support/resource-api-kit';

const C = '/api/circuits';

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of providers, circuit
 * types, circuits and circuit terminations; their own rules are in platform-circuits.e2e-spec.ts.
 */
describe('platform circuits: the REST and GraphQL contract of providers, circuit types, circuits and terminations', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${C}/providers/`,
    objectType: 'circuits.provider',
    graphqlName: 'provider',
    create: [
      { name: 'Zayo', slug: 'zayo', description: 'long haul' },
      { name: 'Lumen', slug: 'lumen', comments: 'tier 1' },
      { name: 'Cogent', slug: 'cogent' },
    ],
    update: { name: 'Zayo Group', slug: 'zayo-group', comments: 'renamed' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: { 'name=Lumen': [1], 'slug=cogent': [2], 'q=long haul': [0] },
    invalid: [
      { body: { slug: 'no-name' }, field: 'name' },
      { body: { name: 'Bad', slug: 'not a slug' }, field: 'slug' },
    ],
  });

  describeResourceApi({
    app,
    path: `${C}/circuit-types/`,
    objectType: 'circuits.circuittype',
    graphqlName: 'circuit_type',
    create: [
      { name: 'Transit', slug: 'transit', description: 'internet' },
      { name: 'Dark fiber', slug: 'dark-fiber' },
      { name: 'MPLS', slug: 'mpls' },
    ],
    update: { name: 'IP transit', slug: 'ip-transit' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: { 'slug=mpls': [2], 'q=internet': [0] },
    invalid: [{ body: { name: 'No slug' }, field: 'slug' }],
  });

  const circuitWorld = async ({ api }: FixtureTools) => ({
    providers: [
      await api.created(`${C}/providers/`, { name: unique('provider'), slug: unique('provider') }),
      await api.created(`${C}/providers/`, { name: unique('provider'), slug: unique('provider') }),
    ],
    type: await api.created(`${C}/circuit-types/`, { name: unique('type'), slug: unique('type') }),
    tenant: await api.created('/api/tenancy/tenants/', { name: unique('tenant'), slug: unique('tenant') }),
  });

  describeResourceApi({
    app,
    path: `${C}/circuits/`,
    objectType: 'circuits.circuit',
    graphqlName: 'circuit',
    fixtures: circuitWorld,
    create: ({ providers: [p1, p2], type, tenant }) => [
      { cid: 'CID-1', provider: p1.id, type: type.id, status: 'planned', commit_rate: 10000, install_date: '2026-01-15' },
      { cid: 'CID-2', provider: p1.id, type: type.id, tenant: tenant.id, description: 'backup path' },
      { cid: 'CID-1', provider: p2.id, type: type.id, status: 'offline' },
    ],
    update: ({ providers }) => ({ cid: 'CID-1A', provider: providers[1].id, status: 'decommissioned', termination_date: '2026-12-31' }),
    bulkUpdate: { status: 'active' },
    brief: ['id', 'url', 'display', 'cid', 'description'],
    filters: ({ providers: [p1, p2], tenant }) => ({
      'cid=CID-1': [0, 2],
      [`provider_id=${p1.id}`]: [0, 1],
      [`provider=${p2.slug}`]: [2],
      'status=planned': [0],
      [`tenant_id=${tenant.id}`]: [1],
      'q=backup': [1],
    }),
    invalid: [
      { body: ({ type }) => ({ cid: 'NO-PROVIDER', type: type.id }), field: 'provider' },
      { body: ({ providers, type }) => ({ cid: 'BAD-STATUS', provider: providers[0].id, type: type.id, status: 'lost' }), field: 'status' },
      {
        body: ({ providers, type }) => ({ cid: 'NEGATIVE', provider: providers[0].id, type: type.id, commit_rate: -1 }),
        field: 'commit_rate',
      },
    ],
  });

  describeResourceApi({
    app,
    path: `${C}/circuit-terminations/`,
    objectType: 'circuits.circuittermination',
    graphqlName: 'circuit_termination',
    fixtures: async (tools) => {
      const { providers, type } = await circuitWorld(tools);
      const circuit = () => tools.api.created(`${C}/circuits/`, { cid: unique('CID'), provider: providers[0].id, type: type.id });
      return { circuits: [await circuit(), await circuit()], sites: [await tools.factories.site(), await tools.factories.site()] };
    },
    create: ({ circuits: [c1, c2], sites: [s1, s2] }) => [
      { circuit: c1.id, term_side: 'A', termination_type: 'dcim.site', termination_id: s1.id, port_speed: 10000, xconnect_id: 'XC-1' },
      { circuit: c1.id, term_side: 'Z', termination_type: 'dcim.site', termination_id: s2.id, description: 'far end' },
      { circuit: c2.id, term_side: 'A', termination_type: 'dcim.site', termination_id: s2.id, pp_info: 'PP 3/4' },
    ],
    update: { port_speed: 100000, upstream_speed: 20000, description: 'upgraded' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'circuit', 'term_side', 'description'],
    filters: ({ circuits: [c1], sites: [, s2] }) => ({
      [`circuit_id=${c1.id}`]: [0, 1],
      'term_side=A': [0, 2],
      [`site_id=${s2.id}`]: [1, 2],
    }),
    invalid: [
      { body: ({ circuits }) => ({ circuit: circuits[1].id, term_side: 'B' }), field: 'term_side' },
      { body: { term_side: 'A' }, field: 'circuit' },
    ],
  });
});
