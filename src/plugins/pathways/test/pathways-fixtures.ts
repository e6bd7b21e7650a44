import type { PlatformClient } from '../../../../test/support/platform-client';

let serial = 0;

/** A cable between two patch panels' rear ports, both ends terminated (a cable segment needs both). */
export async function terminatedCable(api: PlatformClient, label: string): Promise<any> {
  const n = ++serial;
  const site = await api.created('/api/dcim/sites/', { name: `cable-site-${label}-${n}`, slug: `cable-site-${n}-${Date.now()}` });
  const manufacturer = await api.created('/api/dcim/manufacturers/', { name: `Maker ${label} ${n}`, slug: `maker-${n}-${Date.now()}` });
  const deviceType = await api.created('/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: `Panel ${n}`,
    slug: `panel-${n}-${Date.now()}`,
  });
  const role = await api.created('/api/dcim/device-roles/', { name: `Panel ${label} ${n}`, slug: `panel-role-${n}-${Date.now()}` });
  const port = async (name: string) => {
    const device = await api.created('/api/dcim/devices/', { name, device_type: deviceType.id, role: role.id, site: site.id });
    return api.created('/api/dcim/rear-ports/', { device: device.id, name: 'R1', type: 'splice' });
  };
  return api.created('/api/dcim/cables/', {
    label,
    a_terminations: [{ object_type: 'dcim.rearport', object_id: (await port(`${label}-a`)).id }],
    b_terminations: [{ object_type: 'dcim.rearport', object_id: (await port(`${label}-b`)).id }],
  });
}
