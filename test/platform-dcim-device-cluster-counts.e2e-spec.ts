import { factories } from './support/factories';
import { usePlatformApp } from './support/resource-api-kit';

const D = '/api/dcim';
const V = '/api/virtualization';

/**
 * A device's `cluster` (NetBox: the cluster's site and location must be the device's) and the
 * read-only `*_count` properties NetBox 4.5 shows, in the full representation and, where NetBox
 * lists them among its `brief_fields`, in `?brief=true` answers (not where the object is nested).
 */
describe('platform DCIM: device clusters and related-object counts', () => {
  const app = usePlatformApp();
  const f = () => factories(app().api);
  const api = () => app().api;

  it("assigns a device to a cluster of its site and location only, applies the cluster's config contexts, and clears it when the cluster goes", async () => {
    const site = await f().site();
    const otherSite = await f().site();
    const location = await f().location({ site: site.id });
    const siteCluster = await f().cluster({ scope_type: 'dcim.site', scope_id: site.id });
    const locationCluster = await f().cluster({ scope_type: 'dcim.location', scope_id: location.id });

    const elsewhere = await api().post(`${D}/devices/`, {
      name: 'on-another-site',
      device_type: (await f().deviceType()).id,
      role: (await f().deviceRole()).id,
      site: otherSite.id,
      cluster: siteCluster.id,
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({ cluster: [`The assigned cluster belongs to a different site (${site.name})`] });

    const unlocated = await f().device({ site: site.id });
    const moved = await api().patch(`${D}/devices/${unlocated.id}/`, { cluster: locationCluster.id });
    expect(moved.status).toBe(400);
    expect(moved.body).toEqual({ cluster: [`The assigned cluster belongs to a different location (${location.name})`] });

    const device = await f().device({ site: site.id, location: location.id, cluster: locationCluster.id });
    expect(device.cluster).toMatchObject({ id: locationCluster.id, name: locationCluster.name });
    const host = await f().device({ site: site.id, cluster: siteCluster.id });
    expect(await api().listed(`${D}/devices/?cluster_id=${siteCluster.id}`, 'id')).toEqual([host.id]);

    await api().created('/api/extras/config-contexts/', {
      name: `ctx-${siteCluster.name}`,
      clusters: [siteCluster.id],
      data: { ntp: 'cluster' },
    });
    expect((await api().get(`${D}/devices/${host.id}/`)).body.config_context).toMatchObject({ ntp: 'cluster' });
    expect((await api().get(`${D}/devices/${device.id}/`)).body.config_context.ntp).toBeUndefined();

    const cluster = (await api().get(`${V}/clusters/${siteCluster.id}/`)).body;
    expect([cluster.device_count, cluster.virtualmachine_count]).toEqual([1, 0]);
    await api().delete('/api/extras/config-contexts/', [
      { id: (await api().get(`/api/extras/config-contexts/?name=ctx-${siteCluster.name}`)).body.results[0].id },
    ]);
    expect((await api().delete(`${V}/clusters/${siteCluster.id}/`)).status).toBe(204);
    expect((await api().get(`${D}/devices/${host.id}/`)).body.cluster).toBeNull();
  });

  it("counts a device type's devices and templates, and a device's components", async () => {
    const type = await f().deviceType({ subdevice_role: 'parent' });
    await f().rearPortTemplate({ device_type: type.id });
    await f().moduleBayTemplate({ device_type: type.id });
    await f().deviceBayTemplate({ device_type: type.id });
    const device = await f().device({ device_type: type.id });
    await f().device({ device_type: type.id });
    await f().interface({ device: device.id });
    await f().interface({ device: device.id });

    const full = (await api().get(`${D}/device-types/${type.id}/`)).body;
    expect(full).toMatchObject({
      device_count: 2,
      rear_port_template_count: 1,
      front_port_template_count: 0,
      module_bay_template_count: 1,
      device_bay_template_count: 1,
      interface_template_count: 0,
    });
    const brief = (await api().get(`${D}/device-types/?id=${type.id}&brief=true`)).body.results[0];
    expect(brief.device_count).toBe(2);
    expect(brief.rear_port_template_count).toBeUndefined();

    const shown = (await api().get(`${D}/devices/${device.id}/`)).body;
    expect(shown).toMatchObject({
      interface_count: 2,
      rear_port_count: 1,
      module_bay_count: 1,
      device_bay_count: 1,
      console_port_count: 0,
    });
    // Nested in the device, the type has its brief fields without the count, as NetBox's nested serializer.
    expect(Object.keys(shown.device_type).sort()).toEqual(['description', 'display', 'id', 'manufacturer', 'model', 'slug', 'url']);

    const graphql = await api().post('/graphql/', { query: `{ device_type(id: ${type.id}) { device_count module_bay_template_count } }` });
    expect(graphql.body).toEqual({ data: { device_type: { device_count: 2, module_bay_template_count: 1 } } });
  });

  it("counts the devices and virtual machines of a role and a platform, and shows a bay's installed module, in brief too", async () => {
    const role = await f().deviceRole();
    const platform = await f().platform();
    const device = await f().device({ role: role.id, platform: platform.id });
    await f().virtualMachine({ role: role.id, platform: platform.id });
    await f().virtualMachine({ role: role.id });
    for (const [path, id, counts] of [
      ['device-roles', role.id, [1, 2]],
      ['platforms', platform.id, [1, 1]],
    ] as const) {
      const brief = (await api().get(`${D}/${path}/?id=${id}&brief=true`)).body.results[0];
      expect([brief.device_count, brief.virtualmachine_count]).toEqual(counts);
    }

    const bay = await f().moduleBay({ device: device.id });
    const module = await f().module({ device: device.id, module_bay: bay.id, serial: 'SN-1' });
    const brief = (await api().get(`${D}/module-bays/?id=${bay.id}&brief=true`)).body.results[0];
    expect(brief.installed_module).toEqual({ id: module.id, url: module.url, display: module.display, serial: 'SN-1', description: '' });
  });
});
