import { factories } from './support/factories';
import { usePlatformApp } from './support/resource-api-kit';

const V = '/api/virtualization';
const MACS = '/api/dcim/mac-addresses/';

/**
 * A virtual machine's `disk` as NetBox 4.x keeps it (the sum of its virtual disks, another value
 * refused while it has any) and MAC addresses on VM interfaces (`assigned_object_type`
 * `virtualization.vminterface`, the interface's `primary_mac_address`, `mac_address`, `mac_addresses`).
 */
describe('platform virtualization: disk sizes from virtual disks, MAC addresses on VM interfaces', () => {
  const app = usePlatformApp();
  const f = () => factories(app().api);
  const api = () => app().api;
  const disk = async (vm: number) => (await api().get(`${V}/virtual-machines/${vm}/`)).body.disk;

  it("sums a VM's virtual disks into its disk and refuses another size while it has disks", async () => {
    const vm = await f().virtualMachine({ disk: 100 });
    const first = await api().created(`${V}/virtual-disks/`, { virtual_machine: vm.id, name: 'root', size: 10 });
    await api().created(`${V}/virtual-disks/`, { virtual_machine: vm.id, name: 'data', size: 20 });
    expect(await disk(vm.id)).toBe(30);
    expect((await api().get(`${V}/virtual-machines/${vm.id}/`)).body.virtual_disk_count).toBe(2);

    const other = await api().patch(`${V}/virtual-machines/${vm.id}/`, { disk: 50 });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ disk: ['The specified disk size (50) must match the aggregate size of assigned virtual disks (30).'] });
    expect((await api().patch(`${V}/virtual-machines/${vm.id}/`, { disk: 30, memory: 2048 })).status).toBe(200);
    expect((await api().patch(`${V}/virtual-machines/${vm.id}/`, { disk: null })).status).toBe(200);
    expect(await disk(vm.id)).toBe(30);

    expect((await api().patch(`${V}/virtual-disks/${first.id}/`, { size: 15 })).status).toBe(200);
    expect(await disk(vm.id)).toBe(35);
    await api().delete(`${V}/virtual-disks/`, [{ id: first.id }]);
    expect(await disk(vm.id)).toBe(20);
    await api().delete(
      `${V}/virtual-disks/`,
      (await api().get(`${V}/virtual-disks/?virtual_machine_id=${vm.id}`)).body.results.map((d: any) => ({ id: d.id })),
    );
    expect(await disk(vm.id)).toBeNull();
    expect((await api().patch(`${V}/virtual-machines/${vm.id}/`, { disk: 500 })).status).toBe(200);
    expect(await disk(vm.id)).toBe(500);
  });

  it('assigns MAC addresses to a VM interface, one of them its primary, shown on the interface and in GraphQL', async () => {
    const iface = await f().vmInterface();
    const otherIface = await f().vmInterface();
    const mac = await api().created(MACS, {
      mac_address: '00:1A:2B:3C:4D:5E',
      assigned_object_type: 'virtualization.vminterface',
      assigned_object_id: iface.id,
    });
    expect(mac.assigned_object).toMatchObject({ id: iface.id, name: iface.name });
    const foreign = await api().created(MACS, {
      mac_address: '00:1A:2B:3C:4D:5F',
      assigned_object_type: 'virtualization.vminterface',
      assigned_object_id: otherIface.id,
    });

    const refused = await api().patch(`${V}/interfaces/${iface.id}/`, { primary_mac_address: foreign.id });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ primary_mac_address: ['The MAC address is not assigned to this interface.'] });

    expect((await api().patch(`${V}/interfaces/${iface.id}/`, { primary_mac_address: mac.id })).status).toBe(200);
    const shown = (await api().get(`${V}/interfaces/${iface.id}/`)).body;
    expect(shown.primary_mac_address).toMatchObject({ id: mac.id, mac_address: '00:1A:2B:3C:4D:5E' });
    expect(shown.mac_address).toBe('00:1A:2B:3C:4D:5E');
    expect(shown.mac_addresses).toEqual([
      { id: mac.id, url: mac.url, display: mac.display, mac_address: '00:1A:2B:3C:4D:5E', description: '' },
    ]);
    expect(await api().listed(`${V}/interfaces/?primary_mac_address_id=${mac.id}`, 'id')).toEqual([iface.id]);

    const graphql = await api().post('/graphql/', { query: `{ vm_interface(id: ${iface.id}) { primary_mac_address { mac_address } } }` });
    expect(graphql.body).toEqual({ data: { vm_interface: { primary_mac_address: { mac_address: '00:1A:2B:3C:4D:5E' } } } });

    expect((await api().delete(`${MACS}${mac.id}/`)).status).toBe(204);
    const after = (await api().get(`${V}/interfaces/${iface.id}/`)).body;
    expect([after.primary_mac_address, after.mac_address, after.mac_addresses]).toEqual([null, null, []]);
  });
});
