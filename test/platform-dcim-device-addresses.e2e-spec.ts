import { factories, type Factories } from './support/factories';
import { PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

/**
 * A device's primary IPv4 and IPv6 and out-of-band addresses, as NetBox keeps them: each an address
 * on one of the device's interfaces (a virtual chassis master may use a member's), the primary ones
 * of their family, each address primary for one device at most, cleared when the address is deleted.
 */
describe('DCIM: device primary and out-of-band addresses', () => {
  let seeded: SeededApp;
  let api: PlatformClient;
  let f: Factories;

  beforeAll(async () => {
    ({ seeded, api } = await startPlatformApp());
    f = factories(api);
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  const onInterface = async (interfaceId: number, address: string) =>
    f.ipAddress({ address, assigned_object_type: 'dcim.interface', assigned_object_id: interfaceId });

  it('sets addresses of its own interfaces, shown nested, and refuses the wrong family or another device’s address', async () => {
    const device = await f.device({ name: 'edge-1' });
    const other = await f.device({ name: 'edge-2' });
    const eth0 = await f.interface({ device: device.id, name: 'eth0' });
    const mgmt = await f.interface({ device: device.id, name: 'mgmt0', mgmt_only: true });
    const v4 = await onInterface(eth0.id, '192.0.2.1/24');
    const v6 = await onInterface(eth0.id, '2001:db8::1/64');
    const oob = await onInterface(mgmt.id, '198.51.100.1/24');
    const foreign = await onInterface((await f.interface({ device: other.id, name: 'eth0' })).id, '192.0.2.2/24');

    const set = await api.patch(`/api/dcim/devices/${device.id}/`, { primary_ip4: v4.id, primary_ip6: v6.id, oob_ip: oob.id });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      primary_ip4: { id: v4.id, address: '192.0.2.1/24' },
      primary_ip6: { id: v6.id, address: '2001:db8::1/64' },
      oob_ip: { id: oob.id, address: '198.51.100.1/24' },
    });
    expect((await api.get(`/api/dcim/devices/?primary_ip4_id=${v4.id}`)).body.results.map((row: { id: number }) => row.id)).toEqual([
      device.id,
    ]);

    const wrongFamily = await api.patch(`/api/dcim/devices/${device.id}/`, { primary_ip4: v6.id, primary_ip6: v4.id });
    expect({ status: wrongFamily.status, body: wrongFamily.body }).toEqual({
      status: 400,
      body: { primary_ip4: ['2001:db8::1/64 is not an IPv4 address.'], primary_ip6: ['192.0.2.1/24 is not an IPv6 address.'] },
    });
    const notOwn = await api.patch(`/api/dcim/devices/${device.id}/`, { oob_ip: foreign.id });
    expect({ status: notOwn.status, body: notOwn.body }).toEqual({
      status: 400,
      body: { oob_ip: ['The specified IP address (192.0.2.2/24) is not assigned to this device.'] },
    });
    const taken = await api.patch(`/api/dcim/devices/${other.id}/`, { primary_ip4: v4.id });
    expect(taken.status).toBe(400);
    expect(Object.keys(taken.body)).toEqual(['primary_ip4']);
    expect((await seeded.db.query('SELECT primary_ip4_id, oob_ip_id FROM dcim_device WHERE id = $1', [device.id])).rows).toEqual([
      { primary_ip4_id: v4.id, oob_ip_id: oob.id },
    ]);

    expect((await api.delete(`/api/ipam/ip-addresses/${v4.id}/`)).status).toBe(204);
    expect((await api.get(`/api/dcim/devices/${device.id}/`)).body).toMatchObject({ primary_ip4: null, primary_ip6: { id: v6.id } });
  });

  it("lets a virtual chassis master take a member's address, and no other device", async () => {
    const master = await f.device({ name: 'vc-master' });
    const member = await f.device({ name: 'vc-member' });
    const chassis = await api.created('/api/dcim/virtual-chassis/', { name: 'vc-1' });
    expect((await api.patch(`/api/dcim/devices/${master.id}/`, { virtual_chassis: chassis.id, vc_position: 1 })).status).toBe(200);
    expect((await api.patch(`/api/dcim/devices/${member.id}/`, { virtual_chassis: chassis.id, vc_position: 2 })).status).toBe(200);
    expect((await api.patch(`/api/dcim/virtual-chassis/${chassis.id}/`, { master: master.id })).status).toBe(200);
    const address = await onInterface((await f.interface({ device: member.id, name: 'et1' })).id, '203.0.113.9/24');
    expect((await api.patch(`/api/dcim/devices/${master.id}/`, { primary_ip4: address.id })).body).toMatchObject({
      primary_ip4: { id: address.id },
    });
    const outsider = await f.device({ name: 'outsider' });
    expect((await api.patch(`/api/dcim/devices/${outsider.id}/`, { oob_ip: address.id })).status).toBe(400);
  });
});
