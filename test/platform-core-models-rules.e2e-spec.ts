import { factories as factoriesOf } from './support/factories';
import { usePlatformApp } from './support/resource-api-kit';

/**
 * The rules of the circuits, IPAM and virtualization models that a single create body cannot show:
 * uniqueness against stored objects, what deleting a referenced object does, rules across objects.
 */
describe('platform core models: uniqueness, delete rules and rules across objects', () => {
  const app = usePlatformApp();

  it('provider networks and accounts are unique per provider; a provider with networks is protected; a virtual circuit protects its network', async () => {
    const { api } = app();
    const f = factoriesOf(api);
    const provider = await f.provider();
    const network = await f.providerNetwork({ provider: provider.id, name: 'backbone' });
    const again = await api.post('/api/circuits/provider-networks/', { provider: provider.id, name: 'backbone' });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 400,
      body: { non_field_errors: ['The fields provider, name must make a unique set.'] },
    });
    expect((await api.post('/api/circuits/provider-networks/', { provider: (await f.provider()).id, name: 'backbone' })).status).toBe(201);
    await f.providerAccount({ provider: provider.id, account: 'A-1' });
    expect((await api.post('/api/circuits/provider-accounts/', { provider: provider.id, account: 'A-1' })).status).toBe(400);

    const circuit = await f.virtualCircuit({ provider_network: network.id, cid: 'VC-77' });
    const duplicate = await api.post('/api/circuits/virtual-circuits/', {
      provider_network: network.id,
      cid: 'VC-77',
      type: circuit.type.id,
    });
    expect(duplicate.status).toBe(400);
    expect((await api.delete(`/api/circuits/provider-networks/${network.id}/`)).status).toBe(409);
    expect((await api.delete(`/api/circuits/providers/${provider.id}/`)).status).toBe(409);
    expect((await api.delete(`/api/circuits/virtual-circuits/${circuit.id}/`)).status).toBe(204);
    expect((await api.delete(`/api/circuits/provider-networks/${network.id}/`)).status).toBe(204);
  });

  it('an interface ends one virtual circuit termination, which goes with the interface or the circuit', async () => {
    const { api, seeded } = app();
    const f = factoriesOf(api);
    const device = await f.device();
    const [i1, i2] = [await f.interface({ device: device.id, type: 'virtual' }), await f.interface({ device: device.id, type: 'lag' })];
    const circuit = await f.virtualCircuit();
    const term = await api.created('/api/circuits/virtual-circuit-terminations/', {
      virtual_circuit: circuit.id,
      interface: i1.id,
      role: 'hub',
    });
    const taken = await api.post('/api/circuits/virtual-circuit-terminations/', { virtual_circuit: circuit.id, interface: i1.id });
    expect({ status: taken.status, fields: Object.keys(taken.body) }).toEqual({ status: 400, fields: ['interface'] });
    const other = await api.created('/api/circuits/virtual-circuit-terminations/', {
      virtual_circuit: circuit.id,
      interface: i2.id,
      role: 'spoke',
    });
    expect((await api.delete(`/api/dcim/interfaces/${i1.id}/`)).status).toBe(204);
    expect((await api.get(`/api/circuits/virtual-circuit-terminations/${term.id}/`)).status).toBe(404);
    expect((await api.delete(`/api/circuits/virtual-circuits/${circuit.id}/`)).status).toBe(204);
    const { rows } = await seeded.db.query('SELECT count(*)::int AS n FROM circuits_virtualcircuittermination WHERE id = $1', [other.id]);
    expect(rows[0].n).toBe(0);
  });

  it('circuit terminations may end on a provider network and filter by it', async () => {
    const { api } = app();
    const f = factoriesOf(api);
    const network = await f.providerNetwork();
    const circuit = await f.circuit({ provider: network.provider.id });
    const term = await api.created('/api/circuits/circuit-terminations/', {
      circuit: circuit.id,
      term_side: 'Z',
      termination_type: 'circuits.providernetwork',
      termination_id: network.id,
    });
    expect(term.termination).toMatchObject({ id: network.id, display: network.name });
    const listed = await api.get(`/api/circuits/circuit-terminations/?provider_network_id=${network.id}`);
    expect(listed.body.results.map((result: { id: number }) => result.id)).toEqual([term.id]);
  });

  it('aggregates do not overlap; a VLAN in a group has a VID in its ranges, once per group', async () => {
    const { api } = app();
    const f = factoriesOf(api);
    const rir = await f.rir();
    await api.created('/api/ipam/aggregates/', { prefix: '10.64.0.0/12', rir: rir.id });
    const inside = await api.post('/api/ipam/aggregates/', { prefix: '10.64.1.0/24', rir: rir.id });
    expect({ status: inside.status, body: inside.body }).toEqual({
      status: 400,
      body: { prefix: ['Aggregates cannot overlap. 10.64.1.0/24 is already covered by an existing aggregate (10.64.0.0/12).'] },
    });
    const around = await api.post('/api/ipam/aggregates/', { prefix: '10.0.0.0/8', rir: rir.id });
    expect(around.body).toEqual({
      prefix: ['Prefixes cannot overlap aggregates. 10.0.0.0/8 covers an existing aggregate (10.64.0.0/12).'],
    });

    const group = await f.vlanGroup({ name: 'rules-group', vid_ranges: [[100, 199]] });
    const outside = await api.post('/api/ipam/vlans/', { group: group.id, vid: 200, name: 'v200' });
    expect(outside.body).toEqual({ vid: ['VID must be in ranges 100-199 for VLANs in group rules-group'] });
    await api.created('/api/ipam/vlans/', { group: group.id, vid: 150, name: 'v150' });
    expect((await api.post('/api/ipam/vlans/', { group: group.id, vid: 150, name: 'other' })).status).toBe(400);
    expect((await api.delete(`/api/ipam/vlan-groups/${group.id}/`)).status).toBe(409);
  });

  it('IP ranges of one VRF do not overlap', async () => {
    const { api } = app();
    await api.created('/api/ipam/ip-ranges/', { start_address: '172.30.0.10/24', end_address: '172.30.0.20/24' });
    const overlapping = await api.post('/api/ipam/ip-ranges/', { start_address: '172.30.0.15/24', end_address: '172.30.0.30/24' });
    expect(overlapping.status).toBe(400);
    expect(overlapping.body.non_field_errors[0]).toMatch(/^Defined addresses overlap with range 172\.30\.0\.10\/24-172\.30\.0\.20\/24/);
    const vrf = await factoriesOf(api).vrf();
    expect(
      (await api.post('/api/ipam/ip-ranges/', { start_address: '172.30.0.15/24', end_address: '172.30.0.30/24', vrf: vrf.id })).status,
    ).toBe(201);
  });

  it("a virtual machine's placement and primary IPs follow NetBox's rules; its interfaces and disks go with it", async () => {
    const { api, seeded } = app();
    const f = factoriesOf(api);
    const [siteA, siteB] = [await f.site(), await f.site()];
    const cluster = await f.cluster({ scope_type: 'dcim.site', scope_id: siteA.id });
    const wrongSite = await api.post('/api/virtualization/virtual-machines/', { name: 'vm-r', cluster: cluster.id, site: siteB.id });
    expect(wrongSite.body).toEqual({ cluster: [`The selected cluster (${cluster.name}) is not assigned to this site.`] });
    const hostOnly = await api.post('/api/virtualization/virtual-machines/', {
      name: 'vm-r',
      site: siteA.id,
      device: (await f.device()).id,
    });
    expect(hostOnly.body).toEqual({ device: ['Must specify a cluster when assigning a host device.'] });

    const vm = await f.virtualMachine({ cluster: cluster.id, site: siteA.id, name: 'vm-r' });
    const upper = await api.post('/api/virtualization/virtual-machines/', { name: 'VM-R', cluster: cluster.id });
    expect(upper.status).toBe(400);
    const eth0 = await f.vmInterface({ virtual_machine: vm.id, name: 'eth0' });
    const stray = await f.ipAddress({ address: '203.0.113.50/24' });
    expect((await api.patch(`/api/virtualization/virtual-machines/${vm.id}/`, { primary_ip4: stray.id })).body).toEqual({
      primary_ip4: ['The specified IP address (203.0.113.50/24) is not assigned to this VM.'],
    });
    const own = await f.ipAddress({
      address: '203.0.113.51/24',
      assigned_object_type: 'virtualization.vminterface',
      assigned_object_id: eth0.id,
    });
    expect((await api.patch(`/api/virtualization/virtual-machines/${vm.id}/`, { primary_ip4: own.id })).status).toBe(200);
    expect((await api.patch(`/api/virtualization/virtual-machines/${vm.id}/`, { primary_ip6: own.id })).body).toEqual({
      primary_ip6: ['203.0.113.51/24 is not an IPv6 address.'],
    });
    const otherVm = await f.virtualMachine();
    const foreignParent = await api.post('/api/virtualization/interfaces/', { virtual_machine: otherVm.id, name: 'eth1', parent: eth0.id });
    expect(foreignParent.body).toEqual({ parent: ['The selected parent interface belongs to a different virtual machine.'] });

    await api.created('/api/virtualization/virtual-disks/', { virtual_machine: vm.id, name: 'root', size: 1000 });
    expect((await api.delete(`/api/virtualization/clusters/${cluster.id}/`)).status).toBe(409);
    expect((await api.delete(`/api/virtualization/virtual-machines/${vm.id}/`)).status).toBe(204);
    const { rows } = await seeded.db.query(
      `SELECT (SELECT count(*) FROM virtualization_vminterface WHERE virtual_machine_id = $1)::int AS interfaces,
              (SELECT count(*) FROM virtualization_virtualdisk WHERE virtual_machine_id = $1)::int AS disks,
              (SELECT assigned_object_id FROM ipam_ipaddress WHERE id = $2) AS assigned`,
      [vm.id, own.id],
    );
    expect(rows[0]).toEqual({ interfaces: 0, disks: 0, assigned: null });
  });
});
