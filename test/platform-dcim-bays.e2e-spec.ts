import type { Created } from './support/factories';
import { factories } from './support/factories';
import { countRows } from './support/platform-client';
import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';

const D = '/api/dcim';

/**
 * Device bays and their templates as NetBox 4.5 has them: the REST and GraphQL contract of both
 * models, and the parent/child rules of a device type's `subdevice_role` (only a parent has bays,
 * only a child is installed, one device per bay and one bay per device), instantiation from the
 * templates, a child's read-only `parent_device`, and what deletes do to an installation. Module
 * bay templates of a module type become bays inside the module when it is installed.
 */
describe('platform DCIM: device bays and their templates, module bays of module types', () => {
  const app = usePlatformApp();

  describeResourceApi<{ parentType: Created; otherParentType: Created; childType: Created }>({
    app,
    path: `${D}/device-bay-templates/`,
    objectType: 'dcim.devicebaytemplate',
    graphqlName: 'device_bay_template',
    fixtures: async ({ factories }) => ({
      parentType: await factories.deviceType({ subdevice_role: 'parent' }),
      otherParentType: await factories.deviceType({ subdevice_role: 'parent' }),
      childType: await factories.deviceType({ subdevice_role: 'child', u_height: 0 }),
    }),
    create: ({ parentType, otherParentType }) => [
      { device_type: parentType.id, name: 'slot-1' },
      { device_type: parentType.id, name: 'slot-2', label: 'two' },
      { device_type: otherParentType.id, name: 'slot-1', description: 'first' },
    ],
    update: { label: 'changed', description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ parentType }) => ({ [`device_type_id=${parentType.id}`]: [0, 1], 'label=two': [1], 'name=slot-1': [0, 2] }),
    invalid: [
      { body: ({ childType }) => ({ device_type: childType.id, name: 'on-a-child' }), field: 'device_type' },
      { body: { name: 'no-type' }, field: 'device_type' },
    ],
  });

  interface BayFixtures {
    parent: Created;
    otherParent: Created;
    children: [Created, Created];
    plain: Created;
  }

  describeResourceApi<BayFixtures>({
    app,
    path: `${D}/device-bays/`,
    objectType: 'dcim.devicebay',
    graphqlName: 'device_bay',
    fixtures: async ({ factories }) => {
      const parentType = await factories.deviceType({ subdevice_role: 'parent' });
      return {
        parent: await factories.device({ device_type: parentType.id }),
        otherParent: await factories.device({ device_type: parentType.id }),
        children: [await factories.childDevice(), await factories.childDevice()],
        plain: await factories.device(),
      };
    },
    create: ({ parent, otherParent, children }) => [
      { device: parent.id, name: 'bay-1', installed_device: children[0].id },
      { device: parent.id, name: 'bay-2', label: 'two' },
      { device: otherParent.id, name: 'bay-1' },
    ],
    update: ({ children }) => ({ label: 'changed', description: 'Test Value', installed_device: children[1].id }),
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'device', 'name', 'description'],
    filters: ({ parent, children }) => ({
      [`device_id=${parent.id}`]: [0, 1],
      [`installed_device_id=${children[0].id}`]: [0],
      [`installed_device=${children[0].name}`]: [0],
      'label=two': [1],
      'name=bay-1': [0, 2],
    }),
    invalid: [
      { body: ({ plain }) => ({ device: plain.id, name: 'no-bays-here' }), field: 'device' },
      { body: ({ parent, plain }) => ({ device: parent.id, name: 'not-a-child', installed_device: plain.id }), field: 'installed_device' },
      { body: ({ parent }) => ({ device: parent.id, name: 'itself', installed_device: parent.id }), field: 'installed_device' },
    ],
  });

  describe('rules', () => {
    const f = () => factories(app().api);
    const api = () => app().api;

    it("instantiates a parent type's bay templates on each new device, as bays holding nothing", async () => {
      const type = await f().deviceType({ subdevice_role: 'parent' });
      await f().deviceBayTemplate({ device_type: type.id, name: 'slot-a', label: 'A', description: 'not copied' });
      await f().deviceBayTemplate({ device_type: type.id, name: 'slot-b' });
      const device = await f().device({ device_type: type.id });
      const bays = await api().get(`${D}/device-bays/?device_id=${device.id}&ordering=name`);
      expect(bays.body.results.map((bay: any) => [bay.name, bay.label, bay.description, bay.installed_device])).toEqual([
        ['slot-a', 'A', '', null],
        ['slot-b', '', '', null],
      ]);
      const changes = await api().get(
        `/api/core/object-changes/?changed_object_type=dcim.devicebay&changed_object_id=${bays.body.results[0].id}`,
      );
      expect(changes.body.results.map((change: any) => change.action.value)).toEqual(['create']);
    });

    it("shows an installed child's parent device with the bay, filters devices by it, and keeps one device per bay", async () => {
      const bay = await f().deviceBay();
      const child = await f().childDevice();
      const other = await f().childDevice();
      expect((await api().patch(`${D}/device-bays/${bay.id}/`, { installed_device: child.id })).status).toBe(200);

      const shown = (await api().get(`${D}/devices/${child.id}/`)).body;
      expect(shown.parent_device).toEqual({
        id: bay.device.id,
        url: bay.device.url,
        display: bay.device.display,
        name: bay.device.name,
        description: '',
        device_bay: expect.objectContaining({
          id: bay.id,
          url: bay.url,
          name: bay.name,
          device: expect.objectContaining({ id: bay.device.id }),
        }),
      });
      expect((await api().get(`${D}/devices/${other.id}/`)).body.parent_device).toBeNull();
      expect(await api().listed(`${D}/devices/?parent_device_id=${bay.device.id}`, 'id')).toEqual([child.id]);
      expect(await api().listed(`${D}/devices/?parent_bay_id=${bay.id}`, 'id')).toEqual([child.id]);

      // The same child in a second bay of the same parent: refused.
      const second = await f().deviceBay({ device: bay.device.id });
      const again = await api().patch(`${D}/device-bays/${second.id}/`, { installed_device: child.id });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({
        installed_device: ['device bay with this installed device already exists.'],
      });
      expect(await countRows(app().seeded.db, 'dcim_devicebay', 'WHERE installed_device_id = $1', [child.id])).toBe(1);

      // Moved: out of the first bay, then into the second.
      expect((await api().patch(`${D}/device-bays/${bay.id}/`, { installed_device: null })).status).toBe(200);
      expect((await api().patch(`${D}/device-bays/${second.id}/`, { installed_device: child.id })).status).toBe(200);
      expect((await api().get(`${D}/devices/${child.id}/`)).body.parent_device.device_bay.id).toBe(second.id);
    });

    it('a child type is 0U, racks no device of its own, and a parent type with bay templates stays a parent', async () => {
      const tall = await api().post(`${D}/device-types/`, {
        manufacturer: (await f().manufacturer()).id,
        model: 'tall-child',
        slug: 'tall-child',
        subdevice_role: 'child',
      });
      expect(tall.status).toBe(400);
      expect(tall.body).toEqual({ u_height: ['Child device types must be 0U.'] });

      const parentType = await f().deviceType({ subdevice_role: 'parent' });
      expect((await api().get(`${D}/device-types/${parentType.id}/`)).body.subdevice_role).toEqual({ value: 'parent', label: 'Parent' });
      await f().deviceBayTemplate({ device_type: parentType.id });
      const declassified = await api().patch(`${D}/device-types/${parentType.id}/`, { subdevice_role: '' });
      expect(declassified.status).toBe(400);
      expect(declassified.body.subdevice_role).toEqual([
        'Must delete all device bay templates associated with this device before declassifying it as a parent device.',
      ]);
      expect((await api().get(`${D}/device-types/?subdevice_role=parent&id=${parentType.id}`)).body.count).toBe(1);

      const rack = await f().rack();
      const childType = await f().deviceType({ subdevice_role: 'child', u_height: 0 });
      const racked = await api().post(`${D}/devices/`, {
        name: 'racked-child',
        device_type: childType.id,
        role: (await f().deviceRole()).id,
        site: rack.site.id,
        rack: rack.id,
        face: 'front',
      });
      expect(racked.status).toBe(400);
      expect(racked.body).toEqual({
        face: ['Child device types cannot be assigned to a rack face. This is an attribute of the parent device.'],
      });
    });

    it('deleting the child empties its bay; deleting the parent deletes its bays and leaves the child', async () => {
      const bay = await f().deviceBay();
      const child = await f().childDevice();
      await api().patch(`${D}/device-bays/${bay.id}/`, { installed_device: child.id });
      expect((await api().delete(`${D}/devices/${child.id}/`)).status).toBe(204);
      expect((await api().get(`${D}/device-bays/${bay.id}/`)).body.installed_device).toBeNull();

      const next = await f().childDevice();
      await api().patch(`${D}/device-bays/${bay.id}/`, { installed_device: next.id });
      expect((await api().delete(`${D}/devices/${bay.device.id}/`)).status).toBe(204);
      expect((await api().get(`${D}/device-bays/${bay.id}/`)).status).toBe(404);
      expect((await api().get(`${D}/devices/${next.id}/`)).body.parent_device).toBeNull();
    });

    it("installs a module type's bay templates as bays of the device inside the module, with {module} resolved, gone with the module", async () => {
      const device = await f().device();
      const outer = await f().moduleBay({ device: device.id, name: 'slot', position: '3' });
      const moduleType = await f().moduleType();
      await f().moduleBayTemplate({ module_type: moduleType.id, name: 'sub-{module}', label: 'L{module}', position: '{module}/1' });
      const module = await f().module({ device: device.id, module_bay: outer.id, module_type: moduleType.id });

      const bays = await api().get(`${D}/module-bays/?device_id=${device.id}&ordering=name`);
      expect(bays.body.results.map((bay: any) => [bay.name, bay.label, bay.position, bay.module?.id ?? null])).toEqual([
        ['slot', '', '3', null],
        ['sub-3', 'L3', '3/1', module.id],
      ]);
      expect((await api().get(`${D}/module-bays/?module_id=${module.id}`)).body.count).toBe(1);

      // A bay's module is installed in the bay's own device.
      const other = await f().device();
      const foreign = await api().post(`${D}/module-bays/`, { device: other.id, module: module.id, name: 'foreign' });
      expect(foreign.status).toBe(400);
      expect(foreign.body).toEqual({ module: ['The module is installed in another device.'] });

      expect((await api().delete(`${D}/modules/${module.id}/`)).status).toBe(204);
      expect(await api().listed(`${D}/module-bays/?device_id=${device.id}`, 'name')).toEqual(['slot']);
    });

    it('serves a bay and its installed device in GraphQL', async () => {
      const bay = await f().deviceBay();
      const child = await f().childDevice();
      await api().patch(`${D}/device-bays/${bay.id}/`, { installed_device: child.id });
      const answer = await api().post('/graphql/', {
        query: `{ device_bay(id: ${bay.id}) { name device { id } installed_device { id name } } }`,
      });
      expect(answer.body).toEqual({
        data: {
          device_bay: {
            name: bay.name,
            device: { id: String(bay.device.id) },
            installed_device: { id: String(child.id), name: child.name },
          },
        },
      });
    });
  });
});
