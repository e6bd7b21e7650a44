import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';
import { factories } from './support/factories';

/**
 * Q-in-Q (IEEE 802.1ad) as NetBox 4.2+ models it: customer VLANs under a service VLAN, and the
 * 802.1Q mode, untagged, tagged and service VLANs of device and VM interfaces with NetBox's rules.
 */
describe('platform IPAM: Q-in-Q VLANs and the 802.1Q VLANs of interfaces', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: '/api/dcim/interfaces/',
    objectType: 'dcim.interface',
    graphqlName: 'interface',
    fixtures: async ({ factories: f }) => {
      const device = await f.device();
      return {
        device,
        svlan: await f.vlan({ vid: 2000, qinq_role: 'svlan' }),
        vlans: [await f.vlan({ vid: 100 }), await f.vlan({ vid: 101 })],
      };
    },
    create: ({ device, svlan, vlans: [v100, v101] }) => [
      { device: device.id, name: 'xe-0/0/0', type: '10gbase-x-sfpp', mode: 'access', untagged_vlan: v100.id },
      { device: device.id, name: 'xe-0/0/1', type: '10gbase-x-sfpp', mode: 'tagged', untagged_vlan: v100.id, tagged_vlans: [v101.id] },
      { device: device.id, name: 'xe-0/0/2', type: '10gbase-x-sfpp', mode: 'q-in-q', qinq_svlan: svlan.id },
    ],
    update: { mode: 'tagged-all', description: 'trunk' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'device', 'name', 'cable', 'description'],
    filters: ({ svlan, vlans: [v100] }) => ({
      'mode=access': [0],
      [`untagged_vlan_id=${v100.id}`]: [0, 1],
      [`qinq_svlan_id=${svlan.id}`]: [2],
    }),
    invalid: [
      {
        body: ({ device, svlan }) => ({ device: device.id, name: 'xe-0/0/9', type: 'virtual', mode: 'access', qinq_svlan: svlan.id }),
        field: 'qinq_svlan',
      },
      {
        body: ({ device, vlans: [v100] }) => ({ device: device.id, name: 'xe-0/0/9', type: 'virtual', untagged_vlan: v100.id }),
        field: 'untagged_vlan',
      },
      {
        body: ({ device, vlans: [v100] }) => ({
          device: device.id,
          name: 'xe-0/0/9',
          type: 'virtual',
          mode: 'access',
          tagged_vlans: [v100.id],
        }),
        field: 'tagged_vlans',
      },
      { body: ({ device }) => ({ device: device.id, name: 'xe-0/0/9', type: 'virtual', mode: 'trunk' }), field: 'mode' },
    ],
  });

  it('keeps a service VLAN’s customer VLANs unique by VID and name, and refuses to delete a service VLAN with customers', async () => {
    const { api } = app();
    const f = factories(api);
    const svlan = await f.vlan({ vid: 2100, qinq_role: 'svlan' });
    const cvlan = await f.vlan({ vid: 10, qinq_role: 'cvlan', qinq_svlan: svlan.id });
    expect(cvlan.qinq_role).toEqual({ value: 'cvlan', label: 'Customer' });
    expect(cvlan.qinq_svlan).toMatchObject({ id: svlan.id, vid: 2100 });

    const sameVid = await api.post('/api/ipam/vlans/', { vid: 10, name: 'other', qinq_role: 'cvlan', qinq_svlan: svlan.id });
    expect(sameVid.status).toBe(400);
    expect(sameVid.body).toEqual({ non_field_errors: ['The fields qinq_svlan, vid must make a unique set.'] });
    const sameName = await api.post('/api/ipam/vlans/', { vid: 11, name: cvlan.name, qinq_role: 'cvlan', qinq_svlan: svlan.id });
    expect(sameName.status).toBe(400);
    // Outside the service VLAN the VID is free again.
    expect((await api.post('/api/ipam/vlans/', { vid: 10, name: 'plain' })).status).toBe(201);

    // A customer VLAN cannot leave its role while it has a service VLAN.
    const demoted = await api.patch(`/api/ipam/vlans/${cvlan.id}/`, { qinq_role: 'svlan' });
    expect(demoted).toMatchObject({
      status: 400,
      body: { qinq_svlan: ['Only Q-in-Q customer VLANs maybe assigned to a service VLAN.'] },
    });
    const unassigned = await api.patch(`/api/ipam/vlans/${cvlan.id}/`, { qinq_svlan: null });
    expect(unassigned).toMatchObject({ status: 400, body: { qinq_role: ['A Q-in-Q customer VLAN must be assigned to a service VLAN.'] } });

    expect((await api.delete(`/api/ipam/vlans/${svlan.id}/`)).status).toBe(409);
    const graph = await api.post('/graphql/', { query: `{ vlan(id: ${cvlan.id}) { qinq_role qinq_svlan { id vid } } }` });
    expect(graph.body).toEqual({ data: { vlan: { qinq_role: 'cvlan', qinq_svlan: { id: String(svlan.id), vid: 2100 } } } });
  });

  it('applies NetBox’s 802.1Q rules to device interfaces: the mode carries the VLANs, which are global or on the device’s site', async () => {
    const { api } = app();
    const f = factories(api);
    const device = await f.device();
    const otherSite = await f.site();
    const foreign = await f.vlan({ vid: 300, site: otherSite.id });
    const local = await f.vlan({ vid: 301, site: device.site.id });
    const tagged = await f.interface({ device: device.id, mode: 'tagged', tagged_vlans: [local.id] });

    // Switching a trunk with tagged VLANs to access is refused (the stored tagged VLANs count).
    expect(await api.patch(`/api/dcim/interfaces/${tagged.id}/`, { mode: 'access' })).toMatchObject({
      status: 400,
      body: { tagged_vlans: ['Interface mode does not support tagged vlans'] },
    });
    expect((await api.patch(`/api/dcim/interfaces/${tagged.id}/`, { mode: 'access', tagged_vlans: [] })).status).toBe(200);

    const foreignUntagged = await api.post('/api/dcim/interfaces/', {
      device: device.id,
      name: 'ge-0/0/8',
      type: '1000base-t',
      mode: 'access',
      untagged_vlan: foreign.id,
    });
    expect(foreignUntagged).toMatchObject({
      status: 400,
      body: {
        untagged_vlan: [
          `The untagged VLAN (${foreign.name} (300)) must belong to the same site as the interface's parent device, or it must be global.`,
        ],
      },
    });
    const foreignTagged = await api.post('/api/dcim/interfaces/', {
      device: device.id,
      name: 'ge-0/0/9',
      type: '1000base-t',
      mode: 'tagged',
      tagged_vlans: [local.id, foreign.id],
    });
    expect(foreignTagged).toMatchObject({
      status: 400,
      body: {
        tagged_vlans: [`VLAN ${foreign.name} (300) must belong to the same site as the interface's parent device, or it must be global.`],
      },
    });
  });

  it('applies NetBox’s rules to VM interfaces: a service VLAN only in Q-in-Q mode, tagged VLANs global or on the VM’s site', async () => {
    const { api } = app();
    const f = factories(api);
    const svlan = await f.vlan({ vid: 2200, qinq_role: 'svlan' });
    const vm = await f.virtualMachine();
    const qinq = await f.vmInterface({ virtual_machine: vm.id, mode: 'q-in-q', qinq_svlan: svlan.id });
    expect(qinq.mode).toEqual({ value: 'q-in-q', label: 'Q-in-Q (802.1ad)' });
    expect(qinq.qinq_svlan).toMatchObject({ id: svlan.id });

    expect(await api.patch(`/api/virtualization/interfaces/${qinq.id}/`, { mode: 'access' })).toMatchObject({
      status: 400,
      body: { qinq_svlan: ['Only Q-in-Q interfaces may specify a service VLAN.'] },
    });
    const site = await f.site();
    const onSite = await f.vlan({ vid: 400, site: site.id });
    const refused = await api.post('/api/virtualization/interfaces/', {
      virtual_machine: vm.id,
      name: 'eth9',
      mode: 'tagged',
      tagged_vlans: [onSite.id],
    });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        tagged_vlans: [
          `VLAN ${onSite.name} (400) must belong to the same site as the interface's parent virtual machine, or it must be global.`,
        ],
      },
    });

    // Deleting the service VLAN clears it from the interface (SET NULL), as NetBox does.
    expect((await api.delete(`/api/ipam/vlans/${svlan.id}/`)).status).toBe(204);
    expect((await api.get(`/api/virtualization/interfaces/${qinq.id}/`)).body.qinq_svlan).toBeNull();
  });
});
