import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';
import type { Created } from './support/factories';

const C = '/api/circuits';

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of the circuits models
 * beyond providers, circuit types, circuits and circuit terminations; their own rules are in
 * platform-circuits.e2e-spec.ts.
 */
describe('platform circuits: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${C}/provider-accounts/`,
    objectType: 'circuits.provideraccount',
    graphqlName: 'provider_account',
    fixtures: async ({ factories }) => ({ providers: [await factories.provider(), await factories.provider()] }),
    create: ({ providers: [p1, p2] }) => [
      { provider: p1.id, account: '1001', name: 'Main' },
      { provider: p1.id, account: '1002' },
      { provider: p2.id, account: '1001', description: 'other provider, same account' },
    ],
    update: { name: 'Billing', description: 'invoices' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'account', 'description'],
    filters: ({ providers: [p1] }) => ({ [`provider_id=${p1.id}`]: [0, 1], 'account=1001': [0, 2], 'q=Main': [0] }),
    invalid: [
      { body: ({ providers: [p1] }) => ({ provider: p1.id }), field: 'account' },
      { body: { account: '1003' }, field: 'provider' },
    ],
  });

  describeResourceApi({
    app,
    path: `${C}/provider-networks/`,
    objectType: 'circuits.providernetwork',
    graphqlName: 'provider_network',
    fixtures: async ({ factories }) => ({ providers: [await factories.provider(), await factories.provider()] }),
    create: ({ providers: [p1, p2] }) => [
      { provider: p1.id, name: 'MPLS', service_id: 'svc-1' },
      { provider: p1.id, name: 'Internet' },
      { provider: p2.id, name: 'MPLS' },
    ],
    update: { service_id: 'svc-9', description: 'core' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ providers: [, p2] }) => ({ [`provider_id=${p2.id}`]: [2], 'name=MPLS': [0, 2], 'service_id=svc-1': [0] }),
    invalid: [{ body: ({ providers: [p1] }) => ({ provider: p1.id, name: 'x'.repeat(101) }), field: 'name' }],
  });

  describeResourceApi({
    app,
    path: `${C}/circuit-groups/`,
    objectType: 'circuits.circuitgroup',
    graphqlName: 'circuit_group',
    fixtures: async ({ factories }) => ({ tenant: await factories.tenant() }),
    create: ({ tenant }) => [
      { name: 'Group A', slug: 'group-a', tenant: tenant.id },
      { name: 'Group B', slug: 'group-b' },
      { name: 'Group C', slug: 'group-c', description: 'third' },
    ],
    update: { description: 'first', comments: 'notes' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name'],
    filters: ({ tenant }) => ({ [`tenant_id=${tenant.id}`]: [0], 'slug=group-c': [2] }),
    invalid: [{ body: { name: 'Group X', slug: 'group x' }, field: 'slug' }],
  });

  describeResourceApi({
    app,
    path: `${C}/circuit-group-assignments/`,
    objectType: 'circuits.circuitgroupassignment',
    graphqlName: 'circuit_group_assignment',
    fixtures: async ({ factories }) => ({
      groups: [await factories.circuitGroup(), await factories.circuitGroup()],
      circuit: await factories.circuit(),
      virtualCircuit: await factories.virtualCircuit(),
    }),
    create: ({ groups: [g1, g2], circuit, virtualCircuit }) => [
      { group: g1.id, member_type: 'circuits.circuit', member_id: circuit.id, priority: 'primary' },
      { group: g2.id, member_type: 'circuits.circuit', member_id: circuit.id, priority: 'secondary' },
      { group: g1.id, member_type: 'circuits.virtualcircuit', member_id: virtualCircuit.id },
    ],
    update: { priority: 'tertiary' },
    bulkUpdate: { priority: 'inactive' },
    brief: ['id', 'url', 'display', 'group', 'member_type', 'member_id', 'member', 'priority'],
    filters: ({ groups: [g1], circuit, virtualCircuit }) => ({
      [`group_id=${g1.id}`]: [0, 2],
      [`circuit_id=${circuit.id}`]: [0, 1],
      [`virtual_circuit_id=${virtualCircuit.id}`]: [2],
      'priority=primary': [0],
    }),
    invalid: [
      { body: ({ groups: [g1] }) => ({ group: g1.id, member_type: 'dcim.site', member_id: 1 }), field: 'member_type' },
      {
        body: ({ groups: [g1], circuit }) => ({ group: g1.id, member_type: 'circuits.circuit', member_id: circuit.id, priority: 'first' }),
        field: 'priority',
      },
    ],
  });

  describeResourceApi({
    app,
    path: `${C}/virtual-circuit-types/`,
    objectType: 'circuits.virtualcircuittype',
    graphqlName: 'virtual_circuit_type',
    create: [
      { name: 'EVPL', slug: 'evpl', color: 'ff0000' },
      { name: 'EPL', slug: 'epl' },
      { name: 'VPLS', slug: 'vpls', description: 'multipoint' },
    ],
    update: { color: '00ff00', description: 'point to point' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: { 'slug=epl': [1], 'q=VPLS': [2] },
    invalid: [{ body: { name: 'X', slug: 'x', color: '#ff0000' }, field: 'color' }],
  });

  describeResourceApi({
    app,
    path: `${C}/virtual-circuits/`,
    objectType: 'circuits.virtualcircuit',
    graphqlName: 'virtual_circuit',
    fixtures: async ({ factories }) => {
      const provider = await factories.provider();
      return {
        provider,
        networks: [await factories.providerNetwork({ provider: provider.id }), await factories.providerNetwork()],
        account: await factories.providerAccount({ provider: provider.id }),
        otherAccount: await factories.providerAccount(),
        type: await factories.virtualCircuitType(),
      };
    },
    create: ({ networks: [n1, n2], account, type }) => [
      { cid: 'VC-1', provider_network: n1.id, provider_account: account.id, type: type.id, status: 'planned' },
      { cid: 'VC-2', provider_network: n1.id, type: type.id },
      { cid: 'VC-1', provider_network: n2.id, type: type.id, description: 'same cid, other network' },
    ],
    update: { status: 'offline', description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'provider_network', 'cid', 'description'],
    filters: ({ provider, networks: [, n2], type }) => ({
      'cid=VC-1': [0, 2],
      [`provider_id=${provider.id}`]: [0, 1],
      [`provider_network_id=${n2.id}`]: [2],
      [`type_id=${type.id}`]: [0, 1, 2],
      'status=planned': [0],
    }),
    invalid: [
      {
        body: ({ networks: [n1], otherAccount, type }) => ({
          cid: 'VC-9',
          provider_network: n1.id,
          provider_account: otherAccount.id,
          type: type.id,
        }),
        field: 'provider_account',
      },
      { body: ({ networks: [n1] }) => ({ cid: 'VC-9', provider_network: n1.id }), field: 'type' },
    ],
  });

  describeResourceApi({
    app,
    path: `${C}/virtual-circuit-terminations/`,
    objectType: 'circuits.virtualcircuittermination',
    graphqlName: 'virtual_circuit_termination',
    fixtures: async ({ factories }) => {
      const device = await factories.device();
      const virtualInterface = () => factories.interface({ device: device.id, type: 'virtual' });
      return {
        device,
        circuits: [await factories.virtualCircuit(), await factories.virtualCircuit()] as [Created, Created],
        interfaces: [await virtualInterface(), await virtualInterface(), await virtualInterface(), await virtualInterface()],
        physical: await factories.interface({ device: device.id, type: '1000base-t' }),
      };
    },
    create: ({ circuits: [c1, c2], interfaces: [i1, i2, i3] }) => [
      { virtual_circuit: c1.id, role: 'hub', interface: i1.id },
      { virtual_circuit: c1.id, role: 'spoke', interface: i2.id, description: 'branch' },
      { virtual_circuit: c2.id, interface: i3.id },
    ],
    update: { role: 'peer', description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'virtual_circuit', 'role', 'interface', 'description'],
    // As NetBox: no cable path passes a virtual circuit termination (its interface is virtual), so it lists none.
    actions: [{ name: 'paths', check: (body) => expect(body).toEqual([]) }],
    filters: ({ circuits: [c1], interfaces: [i1], device }) => ({
      [`virtual_circuit_id=${c1.id}`]: [0, 1],
      'role=peer': [2],
      [`interface_id=${i1.id}`]: [0],
      [`provider_network_id=${c1.provider_network.id}`]: [0, 1],
      [`device_id=${device.id}`]: [0, 1, 2],
    }),
    invalid: [
      { body: ({ circuits: [c1], physical }) => ({ virtual_circuit: c1.id, interface: physical.id }), field: 'interface' },
      { body: ({ circuits: [c1], interfaces: [, , , i4] }) => ({ virtual_circuit: c1.id, interface: i4.id, role: 'leaf' }), field: 'role' },
    ],
  });
});
