import { countRows, PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const D = '/api/dcim';
const MANUFACTURERS = `${D}/manufacturers/`;
const ROLES = `${D}/device-roles/`;
const PLATFORMS = `${D}/platforms/`;
const DEVICE_TYPES = `${D}/device-types/`;
const MODULE_TYPES = `${D}/module-types/`;
const REAR_TEMPLATES = `${D}/rear-port-templates/`;
const FRONT_TEMPLATES = `${D}/front-port-templates/`;
const MAPPING_TEMPLATES = `${D}/port-template-mappings/`;
const BAY_TEMPLATES = `${D}/module-bay-templates/`;
const DEVICES = `${D}/devices/`;
const MODULE_BAYS = `${D}/module-bays/`;
const MODULES = `${D}/modules/`;
const FRONT_PORTS = `${D}/front-ports/`;
const REAR_PORTS = `${D}/rear-ports/`;
const PORT_MAPPINGS = `${D}/port-mappings/`;
const INTERFACES = `${D}/interfaces/`;
const CABLES = `${D}/cables/`;
const SITES = `${D}/sites/`;
const TENANTS = '/api/tenancy/tenants/';

/**
 * The device-type library and the devices made from it, as NetBox 4 has them: manufacturers, roles,
 * platforms, device and module types with their port and bay templates and front↔rear template
 * mappings, devices and modules instantiating them, interfaces and cables; CRUD, the declared
 * filters, nested reads, validation errors, PROTECT and CASCADE on delete.
 */
describe('platform DCIM: types, templates, devices, modules, interfaces, cables', () => {
  let seeded: SeededApp;
  let api: PlatformClient;
  let base: string;
  const fx: Record<string, any> = {};

  const count = (table: string, where = '', params: unknown[] = []) => countRows(seeded.db, table, where, params);
  const listed = (path: string, attribute = 'name') => api.listed(path, attribute);
  const url = (path: string, id: number) => `${base}${path}${id}/`;

  beforeAll(async () => {
    ({ seeded, api, base } = await startPlatformApp());
    fx.dc1 = await api.created(SITES, { name: 'DC1', slug: 'dc1' });
    fx.dc2 = await api.created(SITES, { name: 'DC2', slug: 'dc2' });
    fx.acme = await api.created(TENANTS, { name: 'Acme', slug: 'acme' });
    fx.juniper = await api.created(MANUFACTURERS, { name: 'Juniper', slug: 'juniper' });
    fx.cisco = await api.created(MANUFACTURERS, { name: 'Cisco', slug: 'cisco' });
    fx.router = await api.created(ROLES, { name: 'Router', slug: 'router', color: 'ff0000' });
    fx.mx = await api.created(DEVICE_TYPES, { manufacturer: fx.juniper.id, model: 'MX204', slug: 'mx204', u_height: 1 });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('manufacturers, device roles, platforms', () => {
    it('a device role has a colour: default 9e9e9e, six lowercase hex digits, anything else a 400', async () => {
      expect(fx.router).toMatchObject({ name: 'Router', slug: 'router', color: 'ff0000', vm_role: true });
      const plain = await api.created(ROLES, { name: 'Switch', slug: 'switch' });
      expect(plain.color).toBe('9e9e9e');
      for (const color of ['#00ff00', 'GG0000', 'FF0000', 'fff']) {
        const response = await api.post(ROLES, { name: `Bad ${color}`, slug: `bad-${color.replace('#', 'x')}`, color });
        expect({ color, status: response.status, keys: Object.keys(response.body) }).toEqual({ color, status: 400, keys: ['color'] });
      }
      expect(await count('dcim_devicerole', `WHERE name LIKE 'Bad %'`)).toBe(0);
      const recoloured = await api.patch(`${ROLES}${plain.id}/`, { color: '00ff00' });
      expect(recoloured.status).toBe(200);
      expect((await seeded.db.query('SELECT color FROM dcim_devicerole WHERE id = $1', [plain.id])).rows).toEqual([{ color: '00ff00' }]);
    });

    it('a platform reads its manufacturer nested; filters manufacturer (slug) and manufacturer_id', async () => {
      const junos = await api.created(PLATFORMS, { name: 'Junos', slug: 'junos', manufacturer: fx.juniper.id });
      await api.created(PLATFORMS, { name: 'Linux', slug: 'linux' });
      expect(junos.manufacturer).toEqual({
        id: fx.juniper.id,
        url: url(MANUFACTURERS, fx.juniper.id),
        display: 'Juniper',
        name: 'Juniper',
        slug: 'juniper',
        description: '',
      });
      expect(await listed(`${PLATFORMS}?manufacturer=juniper`)).toEqual(['Junos']);
      expect(await listed(`${PLATFORMS}?manufacturer_id=null`)).toEqual(['Linux']);
      const duplicate = await api.post(MANUFACTURERS, { name: 'Juniper', slug: 'juniper' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({
        name: ['manufacturer with this name already exists.'],
        slug: ['manufacturer with this slug already exists.'],
      });
    });
  });

  describe('device types and module types', () => {
    it('a device type reads its manufacturer nested and u_height as a number', async () => {
      const response = await api.get(`${DEVICE_TYPES}${fx.mx.id}/`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        display: 'MX204',
        model: 'MX204',
        slug: 'mx204',
        u_height: 1,
        is_full_depth: true,
        manufacturer: { id: fx.juniper.id, display: 'Juniper', name: 'Juniper', slug: 'juniper' },
      });
    });

    it('models and slugs are unique per manufacturer (not globally)', async () => {
      const before = await count('dcim_devicetype');
      const sameModel = await api.post(DEVICE_TYPES, { manufacturer: fx.juniper.id, model: 'MX204', slug: 'mx204-b' });
      expect(sameModel.status).toBe(400);
      expect(sameModel.body).toEqual({ non_field_errors: ['The fields manufacturer, model must make a unique set.'] });
      const sameSlug = await api.post(DEVICE_TYPES, { manufacturer: fx.juniper.id, model: 'MX204 rev B', slug: 'mx204' });
      expect(sameSlug.status).toBe(400);
      expect(sameSlug.body).toEqual({ non_field_errors: ['The fields manufacturer, slug must make a unique set.'] });
      expect(await count('dcim_devicetype')).toBe(before);
      // The same model and slug under another manufacturer is another device type.
      const other = await api.created(DEVICE_TYPES, { manufacturer: fx.cisco.id, model: 'MX204', slug: 'mx204', u_height: 2.5 });
      expect(other).toMatchObject({ u_height: 2.5, manufacturer: { id: fx.cisco.id } });
      const rename = await api.patch(`${DEVICE_TYPES}${other.id}/`, { manufacturer: fx.juniper.id });
      expect(rename.status).toBe(400);
      expect(rename.body.non_field_errors).toEqual(
        expect.arrayContaining([
          'The fields manufacturer, model must make a unique set.',
          'The fields manufacturer, slug must make a unique set.',
        ]),
      );
    });

    it('filters device types by manufacturer slug and id', async () => {
      await api.created(DEVICE_TYPES, { manufacturer: fx.cisco.id, model: 'ASR1001', slug: 'asr1001' });
      expect(await listed(`${DEVICE_TYPES}?manufacturer=juniper`, 'model')).toEqual(['MX204']);
      expect(await listed(`${DEVICE_TYPES}?manufacturer=cisco`, 'model')).toEqual(['ASR1001', 'MX204']);
      expect(await listed(`${DEVICE_TYPES}?manufacturer_id=${fx.juniper.id}&manufacturer_id=${fx.cisco.id}&slug=asr1001`, 'model')).toEqual(
        ['ASR1001'],
      );
      const unknown = await api.get(`${DEVICE_TYPES}?manufacturer=nokia`);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ manufacturer: ['Select a valid choice. nokia is not one of the available choices.'] });
    });

    it('module types: model unique per manufacturer; a missing manufacturer is a 400', async () => {
      const card = await api.created(MODULE_TYPES, { manufacturer: fx.juniper.id, model: 'MIC-3D-20GE-SFP', part_number: 'MIC-20' });
      expect(card).toMatchObject({ display: 'MIC-3D-20GE-SFP', manufacturer: { id: fx.juniper.id, name: 'Juniper' } });
      const duplicate = await api.post(MODULE_TYPES, { manufacturer: fx.juniper.id, model: 'MIC-3D-20GE-SFP' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ non_field_errors: ['The fields manufacturer, model must make a unique set.'] });
      const missing = await api.post(MODULE_TYPES, { model: 'Orphan' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ manufacturer: ['This field is required.'] });
    });

    it('PROTECT: a manufacturer used by a device type cannot be deleted (409 naming it); an unused one can', async () => {
      const changesBefore = await count('core_objectchange');
      const response = await api.delete(`${MANUFACTURERS}${fx.juniper.id}/`);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ detail: expect.stringMatching(/^Unable to delete object\. .*device type MX204/) });
      expect(await count('dcim_manufacturer', 'WHERE id = $1', [fx.juniper.id])).toBe(1);
      expect(await count('core_objectchange')).toBe(changesBefore);
      const unused = await api.created(MANUFACTURERS, { name: 'Arista', slug: 'arista' });
      expect((await api.delete(`${MANUFACTURERS}${unused.id}/`)).status).toBe(204);
    });
  });

  describe('port templates and their mappings', () => {
    beforeAll(async () => {
      fx.panel = await api.created(DEVICE_TYPES, { manufacturer: fx.cisco.id, model: 'Panel-12', slug: 'panel-12' });
      fx.otherPanel = await api.created(DEVICE_TYPES, { manufacturer: fx.cisco.id, model: 'Panel-24', slug: 'panel-24' });
      fx.mic = await api.created(MODULE_TYPES, { manufacturer: fx.cisco.id, model: 'Template card' });
      fx.rear = await api.created(REAR_TEMPLATES, { device_type: fx.panel.id, name: 'R1', type: 'mpo', positions: 12 });
      fx.f1 = await api.created(FRONT_TEMPLATES, { device_type: fx.panel.id, name: 'F1', type: 'lc' });
      fx.f2 = await api.created(FRONT_TEMPLATES, { device_type: fx.panel.id, name: 'F2', type: 'sc' });
      fx.otherFront = await api.created(FRONT_TEMPLATES, { device_type: fx.otherPanel.id, name: 'OF1', type: 'lc' });
    });

    it('a port template belongs to exactly one of device_type and module_type', async () => {
      const before = await count('dcim_rearporttemplate');
      const neither = await api.post(REAR_TEMPLATES, { name: 'R-none', type: 'lc' });
      expect(neither.status).toBe(400);
      expect(neither.body).toEqual({ non_field_errors: [expect.stringMatching(/device.type.*module.type/)] });
      const both = await api.post(REAR_TEMPLATES, { device_type: fx.panel.id, module_type: fx.mic.id, name: 'R-both', type: 'lc' });
      expect(both.status).toBe(400);
      expect(both.body).toEqual({ non_field_errors: [expect.stringMatching(/device.type.*module.type/)] });
      const front = await api.post(FRONT_TEMPLATES, { name: 'F-none', type: 'lc' });
      expect(front.status).toBe(400);
      expect(front.body).toEqual({ non_field_errors: [expect.stringMatching(/device.type.*module.type/)] });
      expect(await count('dcim_rearporttemplate')).toBe(before);

      const rear = (await api.get(`${REAR_TEMPLATES}${fx.rear.id}/`)).body;
      expect(rear).toMatchObject({
        name: 'R1',
        type: { value: 'mpo', label: 'MPO' },
        positions: 12,
        module_type: null,
        device_type: { id: fx.panel.id, display: 'Panel-12', model: 'Panel-12', slug: 'panel-12' },
      });
    });

    it('positions are 1..1024; the type must be a known connector; names are unique per type', async () => {
      const tooMany = await api.post(REAR_TEMPLATES, { device_type: fx.panel.id, name: 'R-big', type: 'mpo', positions: 1025 });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body).toEqual({ positions: ['Ensure this value is less than or equal to 1024.'] });
      const none = await api.post(FRONT_TEMPLATES, { device_type: fx.panel.id, name: 'F-none', type: 'lc', positions: 0 });
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ positions: ['Ensure this value is greater than or equal to 1.'] });
      const max = await api.created(REAR_TEMPLATES, { device_type: fx.otherPanel.id, name: 'R-max', type: 'mpo', positions: 1024 });
      expect(max.positions).toBe(1024);
      const badType = await api.post(FRONT_TEMPLATES, { device_type: fx.panel.id, name: 'F-x', type: 'rj45' });
      expect(badType.status).toBe(400);
      expect(badType.body).toEqual({ type: ['"rj45" is not a valid choice.'] });
      const duplicate = await api.post(REAR_TEMPLATES, { device_type: fx.panel.id, name: 'R1', type: 'lc' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ non_field_errors: ['The fields device_type, name must make a unique set.'] });
      expect(await listed(`${FRONT_TEMPLATES}?device_type_id=${fx.panel.id}`)).toEqual(['F1', 'F2']);
      expect(await listed(`${FRONT_TEMPLATES}?device_type_id=${fx.panel.id}&type=sc`)).toEqual(['F2']);
    });

    // NetBox: UniqueConstraint(fields=('device_type', 'name')) and ('module_type', 'name'); a NULL module_type
    // (a device type's template) never collides, so every device type may have its own port "F1".
    it('the same template name on another device type (or module type) is allowed', async () => {
      const response = await api.post(FRONT_TEMPLATES, { device_type: fx.otherPanel.id, name: 'F1', type: 'lc' });
      expect({ status: response.status, body: response.status === 201 ? 'created' : response.body }).toEqual({
        status: 201,
        body: 'created',
      });
      const onModule = await api.post(REAR_TEMPLATES, { module_type: fx.mic.id, name: 'R1', type: 'lc' });
      expect({ status: onModule.status, body: onModule.status === 201 ? 'created' : onModule.body }).toEqual({
        status: 201,
        body: 'created',
      });
      expect(await count('dcim_frontporttemplate', `WHERE name = 'F1'`)).toBe(2);
    });

    it('maps a front template to a rear template position of the same device type', async () => {
      const front = fx.f1;
      const mapping = await api.created(MAPPING_TEMPLATES, {
        device_type: fx.panel.id,
        front_port: front.id,
        front_port_position: 1,
        rear_port: fx.rear.id,
        rear_port_position: 12,
      });
      expect(mapping).toMatchObject({
        device_type: { id: fx.panel.id },
        module_type: null,
        front_port: { id: front.id, name: 'F1' },
        rear_port: { id: fx.rear.id, name: 'R1' },
        front_port_position: 1,
        rear_port_position: 12,
      });
      // One rear position carries one front position.
      const f2 = fx.f2;
      const taken = await api.post(MAPPING_TEMPLATES, {
        device_type: fx.panel.id,
        front_port: f2.id,
        rear_port: fx.rear.id,
        rear_port_position: 12,
      });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ non_field_errors: ['The fields rear_port, rear_port_position must make a unique set.'] });
    });

    it('refuses a mapping between templates of different device types (400 naming rear_port)', async () => {
      const before = await count('dcim_porttemplatemapping');
      const foreignFront = fx.otherFront;
      const response = await api.post(MAPPING_TEMPLATES, {
        device_type: fx.otherPanel.id,
        front_port: foreignFront.id,
        rear_port: fx.rear.id,
        rear_port_position: 3,
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ rear_port: ['The rear port must belong to the same device type as the front port.'] });
      // And a front template of another device type than the mapping says.
      const front = fx.f2;
      const wrongParent = await api.post(MAPPING_TEMPLATES, {
        device_type: fx.otherPanel.id,
        front_port: front.id,
        rear_port: fx.rear.id,
        rear_port_position: 4,
      });
      expect(wrongParent.status).toBe(400);
      expect(wrongParent.body.front_port).toEqual(['The front port belongs to another device type.']);
      expect(await count('dcim_porttemplatemapping')).toBe(before);
    });

    it('refuses a position beyond what the port has', async () => {
      const front = fx.f2;
      const rear = await api.post(MAPPING_TEMPLATES, {
        device_type: fx.panel.id,
        front_port: front.id,
        rear_port: fx.rear.id,
        rear_port_position: 13,
      });
      expect(rear.status).toBe(400);
      expect(rear.body).toEqual({ rear_port_position: ['The rear port has 12 position(s).'] });
      const frontPosition = await api.post(MAPPING_TEMPLATES, {
        device_type: fx.panel.id,
        front_port: front.id,
        front_port_position: 2,
        rear_port: fx.rear.id,
        rear_port_position: 2,
      });
      expect(frontPosition.status).toBe(400);
      expect(frontPosition.body).toEqual({ front_port_position: ['The front port has 1 position(s).'] });
    });

    it('module bay templates belong to a device type or a module type; names unique per type', async () => {
      const bay = await api.created(BAY_TEMPLATES, { device_type: fx.mx.id, name: 'PIC 0', position: '0' });
      expect(bay).toMatchObject({ name: 'PIC 0', position: '0', device_type: { id: fx.mx.id, model: 'MX204' } });
      await api.created(BAY_TEMPLATES, { device_type: fx.mx.id, name: 'PIC 1', position: '1' });
      const duplicate = await api.post(BAY_TEMPLATES, { device_type: fx.mx.id, name: 'PIC 0' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ non_field_errors: ['The fields device_type, name must make a unique set.'] });
      const noType = await api.post(BAY_TEMPLATES, { name: 'PIC 9' });
      expect(noType.status).toBe(400);
      expect(noType.body).toEqual({ non_field_errors: ['Exactly one of device_type and module_type must be set.'] });
      expect(await listed(`${BAY_TEMPLATES}?device_type_id=${fx.mx.id}`)).toEqual(['PIC 0', 'PIC 1']);
    });
  });

  describe('devices', () => {
    beforeAll(async () => {
      fx.edge1 = await api.created(DEVICES, {
        name: 'edge1',
        device_type: fx.mx.id,
        role: fx.router.id,
        site: fx.dc1.id,
        status: 'active',
        serial: 'SN-1',
      });
      fx.edge2 = await api.created(DEVICES, {
        name: 'edge2',
        device_type: fx.mx.id,
        role: fx.router.id,
        site: fx.dc2.id,
        tenant: fx.acme.id,
        status: 'planned',
      });
    });

    it('reads a device with device type (and its manufacturer), role, site and tenant nested, status as {value, label}', async () => {
      const response = await api.get(`${DEVICES}${fx.edge2.id}/`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        id: fx.edge2.id,
        url: url(DEVICES, fx.edge2.id),
        display: 'edge2',
        name: 'edge2',
        status: { value: 'planned', label: 'Planned' },
        site: { id: fx.dc2.id, url: url(SITES, fx.dc2.id), display: 'DC2', name: 'DC2', slug: 'dc2' },
        tenant: { id: fx.acme.id, display: 'Acme', name: 'Acme', slug: 'acme' },
        role: { id: fx.router.id, display: 'Router', name: 'Router', slug: 'router' },
        device_type: {
          id: fx.mx.id,
          url: url(DEVICE_TYPES, fx.mx.id),
          display: 'MX204',
          model: 'MX204',
          slug: 'mx204',
          manufacturer: { id: fx.juniper.id, url: url(MANUFACTURERS, fx.juniper.id), display: 'Juniper', name: 'Juniper', slug: 'juniper' },
        },
      });
    });

    it('status takes NetBox’s device choices; an unknown one is a 400 on create and update', async () => {
      const before = await count('dcim_device');
      const response = await api.post(DEVICES, {
        name: 'bad',
        device_type: fx.mx.id,
        role: fx.router.id,
        site: fx.dc1.id,
        status: 'broken',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ status: ['"broken" is not a valid choice.'] });
      expect(await count('dcim_device')).toBe(before);
      for (const [status, label] of [
        ['offline', 'Offline'],
        ['staged', 'Staged'],
        ['failed', 'Failed'],
        ['inventory', 'Inventory'],
        ['decommissioning', 'Decommissioning'],
      ]) {
        const patched = await api.patch(`${DEVICES}${fx.edge1.id}/`, { status });
        expect(patched.body.status).toEqual({ value: status, label });
      }
      const bad = await api.patch(`${DEVICES}${fx.edge1.id}/`, { status: 'retired' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ status: ['"retired" is not a valid choice.'] });
      expect((await api.patch(`${DEVICES}${fx.edge1.id}/`, { status: 'active' })).status).toBe(200);
    });

    it('required fields: device_type, role and site', async () => {
      const response = await api.post(DEVICES, { name: 'nothing' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        device_type: ['This field is required.'],
        role: ['This field is required.'],
        site: ['This field is required.'],
      });
    });

    it('a device name is unique per site and tenant', async () => {
      const before = await count('dcim_device');
      const clash = await api.post(DEVICES, { name: 'edge1', device_type: fx.mx.id, role: fx.router.id, site: fx.dc1.id });
      expect(clash.status).toBe(400);
      expect(clash.body).toEqual({ non_field_errors: [expect.any(String)] });
      const clashTenant = await api.post(DEVICES, {
        name: 'edge2',
        device_type: fx.mx.id,
        role: fx.router.id,
        site: fx.dc2.id,
        tenant: fx.acme.id,
      });
      expect(clashTenant.status).toBe(400);
      expect(await count('dcim_device')).toBe(before);
      // Another site, or another tenant on the same site: allowed. Unnamed devices never clash.
      await api.created(DEVICES, { name: 'edge1', device_type: fx.mx.id, role: fx.router.id, site: fx.dc2.id });
      await api.created(DEVICES, { name: 'edge1', device_type: fx.mx.id, role: fx.router.id, site: fx.dc1.id, tenant: fx.acme.id });
      const unnamed = await api.created(DEVICES, { device_type: fx.mx.id, role: fx.router.id, site: fx.dc1.id });
      await api.created(DEVICES, { device_type: fx.mx.id, role: fx.router.id, site: fx.dc1.id });
      expect(unnamed).toMatchObject({ name: null, display: `Unnamed device (${unnamed.id})` });
      expect(await count('dcim_device')).toBe(before + 4);
    });

    // NetBox 4: UniqueConstraint(Lower('name'), 'site', 'tenant') — names compare case-insensitively.
    it('the per-site name uniqueness ignores case, as NetBox’s Lower(name) constraint', async () => {
      const response = await api.post(DEVICES, { name: 'EDGE1', device_type: fx.mx.id, role: fx.router.id, site: fx.dc1.id });
      // Remove a wrongly accepted device at once, so that the other tests see the intended fixtures.
      if (response.status === 201) await api.delete(`${DEVICES}${response.body.id}/`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ non_field_errors: [expect.any(String)] });
    });

    it('filters devices by site (slug), site_id, role, tenant, status, device_type_id and q', async () => {
      const named = async (query: string) => (await listed(`${DEVICES}?${query}`)).filter((name) => name !== null);
      expect(await named('site=dc2')).toEqual(['edge1', 'edge2']);
      expect(await named(`site_id=${fx.dc1.id}`)).toEqual(['edge1', 'edge1']);
      expect(await named(`site_id=${fx.dc1.id}&tenant_id=null`)).toEqual(['edge1']);
      expect(await named('tenant=acme')).toEqual(['edge1', 'edge2']);
      expect(await named('status=planned')).toEqual(['edge2']);
      expect(await named(`role=router&device_type_id=${fx.mx.id}&name=edge2`)).toEqual(['edge2']);
      expect(await named('q=SN-1')).toEqual(['edge1']);
      const badSite = await api.get(`${DEVICES}?site=nowhere`);
      expect(badSite.status).toBe(400);
      expect(badSite.body).toEqual({ site: ['Select a valid choice. nowhere is not one of the available choices.'] });
      const badStatus = await api.get(`${DEVICES}?status=broken`);
      expect(badStatus.status).toBe(400);
      expect(badStatus.body).toEqual({ status: ['Select a valid choice. broken is not one of the available choices.'] });
    });

    it('a new device gets a module bay for each module bay template of its type', async () => {
      const response = await api.get(`${MODULE_BAYS}?device_id=${fx.edge1.id}`);
      expect(response.body.results.map((bay: any) => [bay.name, bay.position])).toEqual([
        ['PIC 0', '0'],
        ['PIC 1', '1'],
      ]);
      expect(response.body.results[0].device).toMatchObject({ id: fx.edge1.id, name: 'edge1' });
    });

    it('PROTECT: a site, role or device type used by a device cannot be deleted (409)', async () => {
      for (const path of [`${SITES}${fx.dc1.id}/`, `${ROLES}${fx.router.id}/`, `${DEVICE_TYPES}${fx.mx.id}/`]) {
        const response = await api.delete(path);
        expect({ path, status: response.status, detail: response.body.detail }).toEqual({
          path,
          status: 409,
          detail: expect.stringMatching(/^Unable to delete object\. .*device edge1/),
        });
      }
    });
  });

  describe('modules', () => {
    beforeAll(async () => {
      fx.sfpCard = await api.created(MODULE_TYPES, { manufacturer: fx.juniper.id, model: 'SFP card' });
      fx.cardRear = await api.created(REAR_TEMPLATES, { module_type: fx.sfpCard.id, name: 'R{module}', type: 'mpo', positions: 2 });
      fx.cardFront = await api.created(FRONT_TEMPLATES, {
        module_type: fx.sfpCard.id,
        name: 'P{module}/1',
        label: 'port {module}',
        type: 'lc',
      });
      await api.created(MAPPING_TEMPLATES, {
        module_type: fx.sfpCard.id,
        front_port: fx.cardFront.id,
        rear_port: fx.cardRear.id,
        rear_port_position: 2,
      });
      fx.bays = (await api.get(`${MODULE_BAYS}?device_id=${fx.edge1.id}`)).body.results;
      fx.edge2Bays = (await api.get(`${MODULE_BAYS}?device_id=${fx.edge2.id}`)).body.results;
    });

    it('a module in a bay gets its type’s ports, named with the bay position for {module}, and the mappings', async () => {
      const bay = fx.bays.find((candidate: any) => candidate.name === 'PIC 1');
      const module = await api.created(MODULES, { device: fx.edge1.id, module_bay: bay.id, module_type: fx.sfpCard.id, serial: 'CARD-1' });
      fx.module = module;
      expect(module).toMatchObject({
        device: { id: fx.edge1.id, name: 'edge1' },
        module_bay: { id: bay.id, name: 'PIC 1' },
        module_type: { id: fx.sfpCard.id, model: 'SFP card' },
        status: { value: 'active', label: 'Active' },
      });
      // The bay shows its module (NetBox's installed_module); the empty bay shows null.
      const bays = (await api.get(`${MODULE_BAYS}?device_id=${fx.edge1.id}`)).body.results;
      expect(bays.map((candidate: any) => [candidate.name, candidate.installed_module])).toEqual([
        ['PIC 0', null],
        ['PIC 1', { id: module.id, url: url(MODULES, module.id), display: module.display, serial: 'CARD-1', description: '' }],
      ]);
      const fronts = await api.get(`${FRONT_PORTS}?device_id=${fx.edge1.id}&module_id=${module.id}`);
      expect(fronts.body.results.map((port: any) => [port.name, port.label, port.type.value])).toEqual([['P1/1', 'port 1', 'lc']]);
      expect(fronts.body.results[0].module).toMatchObject({ id: module.id });
      const rears = await api.get(`${REAR_PORTS}?device_id=${fx.edge1.id}&module_id=${module.id}`);
      expect(rears.body.results.map((port: any) => [port.name, port.positions])).toEqual([['R1', 2]]);
      const mappings = await seeded.db.query(
        `SELECT f.name AS front, r.name AS rear, m.rear_port_position FROM dcim_portmapping m
           JOIN dcim_frontport f ON f.id = m.front_port_id JOIN dcim_rearport r ON r.id = m.rear_port_id WHERE f.module_id = $1`,
        [module.id],
      );
      expect(mappings.rows).toEqual([{ front: 'P1/1', rear: 'R1', rear_port_position: 2 }]);
      expect(await listed(`${PORT_MAPPINGS}?device_id=${fx.edge1.id}`, 'rear_port_position')).toEqual([2]);
    });

    it('refuses a module in a bay of another device', async () => {
      const before = await count('dcim_module');
      const foreignBay = fx.edge2Bays.find((candidate: any) => candidate.name === 'PIC 0');
      const response = await api.post(MODULES, { device: fx.edge1.id, module_bay: foreignBay.id, module_type: fx.sfpCard.id });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ module_bay: ['The module bay belongs to another device.'] });
      expect(await count('dcim_module')).toBe(before);
      expect(await count('dcim_frontport', 'WHERE device_id = $1', [fx.edge2.id])).toBe(0);
    });

    it('refuses a second module in an occupied bay', async () => {
      const response = await api.post(MODULES, { device: fx.edge1.id, module_bay: fx.module.module_bay.id, module_type: fx.sfpCard.id });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ module_bay: ['module with this module bay already exists.'] });
    });

    it('PROTECT: a module type with modules cannot be deleted; deleting the module removes its ports', async () => {
      const refused = await api.delete(`${MODULE_TYPES}${fx.sfpCard.id}/`);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(/^Unable to delete object\. .*module/);
      const other = await api.created(MODULES, {
        device: fx.edge1.id,
        module_bay: fx.bays.find((bay: any) => bay.name === 'PIC 0').id,
        module_type: fx.sfpCard.id,
      });
      const ports = (await seeded.db.query<{ id: number }>('SELECT id FROM dcim_frontport WHERE module_id = $1', [other.id])).rows.map(
        (row) => row.id,
      );
      expect(ports).toHaveLength(1);
      expect((await seeded.db.query('SELECT name FROM dcim_frontport WHERE id = $1', [ports[0]])).rows).toEqual([{ name: 'P0/1' }]);
      expect((await api.delete(`${MODULES}${other.id}/`)).status).toBe(204);
      expect(await count('dcim_frontport', 'WHERE module_id = $1', [other.id])).toBe(0);
      expect(await count('dcim_rearport', 'WHERE module_id = $1', [other.id])).toBe(0);
    });
  });

  describe('interfaces and cables', () => {
    beforeAll(async () => {
      fx.core1 = await api.created(DEVICES, { name: 'core1', device_type: fx.mx.id, role: fx.router.id, site: fx.dc1.id });
      fx.core2 = await api.created(DEVICES, { name: 'core2', device_type: fx.mx.id, role: fx.router.id, site: fx.dc1.id });
    });

    it('creates interfaces with a type and an MTU in 1..65536; unknown types and MTUs out of range are 400s', async () => {
      const xe = await api.created(INTERFACES, {
        device: fx.core1.id,
        name: 'xe-0/0/0',
        type: '10gbase-x-sfpp',
        mtu: 9216,
        description: 'uplink',
      });
      expect(xe).toMatchObject({
        display: 'xe-0/0/0',
        name: 'xe-0/0/0',
        type: { value: '10gbase-x-sfpp', label: 'SFP+ (10GE)' },
        mtu: 9216,
        enabled: true,
        mgmt_only: false,
        cable: null,
        cable_end: null,
        device: { id: fx.core1.id, url: url(DEVICES, fx.core1.id), display: 'core1', name: 'core1' },
      });
      fx.xe = xe;
      fx.ge = await api.created(INTERFACES, { device: fx.core1.id, name: 'ge-0/0/1', type: '1000base-t', mtu: 65536, mgmt_only: true });
      fx.remote = await api.created(INTERFACES, { device: fx.core2.id, name: 'xe-0/0/0', type: '10gbase-x-sfpp', mtu: 1 });
      expect([fx.ge.mtu, fx.remote.mtu]).toEqual([65536, 1]);

      const before = await count('dcim_interface');
      for (const [mtu, message] of [
        [0, 'Ensure this value is greater than or equal to 1.'],
        [65537, 'Ensure this value is less than or equal to 65536.'],
        ['big', 'A valid integer is required.'],
      ] as const) {
        const response = await api.post(INTERFACES, { device: fx.core1.id, name: `bad-${mtu}`, type: 'virtual', mtu });
        expect({ mtu, status: response.status, body: response.body }).toEqual({ mtu, status: 400, body: { mtu: [message] } });
      }
      const badType = await api.post(INTERFACES, { device: fx.core1.id, name: 'bad-type', type: '10g' });
      expect(badType.status).toBe(400);
      expect(badType.body).toEqual({ type: ['"10g" is not a valid choice.'] });
      const duplicate = await api.post(INTERFACES, { device: fx.core1.id, name: 'xe-0/0/0', type: 'virtual' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ non_field_errors: ['The fields device, name must make a unique set.'] });
      const noType = await api.post(INTERFACES, { device: fx.core1.id, name: 'no-type' });
      expect(noType.body).toEqual({ type: ['This field is required.'] });
      expect(await count('dcim_interface')).toBe(before);
      const cleared = await api.patch(`${INTERFACES}${fx.ge.id}/`, { mtu: null });
      expect(cleared.body.mtu).toBeNull();
    });

    it('filters interfaces by device_id, device (name), type, mgmt_only; an unknown device name is a 400', async () => {
      expect(await listed(`${INTERFACES}?device_id=${fx.core1.id}`)).toEqual(['ge-0/0/1', 'xe-0/0/0']);
      expect(await listed(`${INTERFACES}?device=core2`)).toEqual(['xe-0/0/0']);
      expect(await listed(`${INTERFACES}?device=core1&device=core2`, 'id')).toEqual([fx.ge.id, fx.xe.id, fx.remote.id]);
      expect(await listed(`${INTERFACES}?device=core1&type=10gbase-x-sfpp`, 'id')).toEqual([fx.xe.id]);
      expect(await listed(`${INTERFACES}?mgmt_only=true`, 'id')).toEqual([fx.ge.id]);
      const unknown = await api.get(`${INTERFACES}?device=core9`);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ device: ['Select a valid choice. core9 is not one of the available choices.'] });
      const badType = await api.get(`${INTERFACES}?type=10g`);
      expect(badType.status).toBe(400);
      expect(badType.body).toEqual({ type: ['Select a valid choice. 10g is not one of the available choices.'] });
    });

    it('filters ports by type and device', async () => {
      await api.created(FRONT_PORTS, { device: fx.core1.id, name: 'FP1', type: 'lc' });
      await api.created(FRONT_PORTS, { device: fx.core1.id, name: 'FP2', type: 'sc' });
      await api.created(REAR_PORTS, { device: fx.core1.id, name: 'RP1', type: 'lc', positions: 4 });
      expect(await listed(`${FRONT_PORTS}?device=core1&type=sc`)).toEqual(['FP2']);
      expect(await listed(`${FRONT_PORTS}?device_id=${fx.core1.id}&type=lc&type=sc`)).toEqual(['FP1', 'FP2']);
      expect(await listed(`${REAR_PORTS}?device=core1&type=lc`)).toEqual(['RP1']);
      const positions = await api.post(REAR_PORTS, { device: fx.core1.id, name: 'RP2', type: 'lc', positions: 1025 });
      expect(positions.status).toBe(400);
      expect(positions.body).toEqual({ positions: ['Ensure this value is less than or equal to 1024.'] });
    });

    it('cables two interfaces: both read the cable nested with their end; filters cable_id', async () => {
      const cable = await api.created(CABLES, {
        type: 'smf',
        label: 'core1-core2',
        length: 15,
        length_unit: 'm',
        a_terminations: [{ object_type: 'dcim.interface', object_id: fx.xe.id }],
        b_terminations: [{ object_type: 'dcim.interface', object_id: fx.remote.id }],
      });
      fx.cable = cable;
      expect(cable).toMatchObject({
        display: 'core1-core2',
        type: { value: 'smf', label: 'Single-mode Fiber' },
        status: { value: 'connected', label: 'Connected' },
        length: 15,
        length_unit: { value: 'm', label: 'Meters' },
        a_terminations: [
          {
            object_type: 'dcim.interface',
            object_id: fx.xe.id,
            object: expect.objectContaining({ id: fx.xe.id, name: 'xe-0/0/0', device: expect.objectContaining({ id: fx.core1.id }) }),
          },
        ],
        b_terminations: [{ object_type: 'dcim.interface', object_id: fx.remote.id, object: expect.objectContaining({ id: fx.remote.id }) }],
      });
      const near = await api.get(`${INTERFACES}${fx.xe.id}/`);
      expect(near.body).toMatchObject({
        cable: { id: cable.id, url: url(CABLES, cable.id), display: 'core1-core2', label: 'core1-core2' },
        cable_end: 'A',
      });
      expect((await api.get(`${INTERFACES}${fx.remote.id}/`)).body).toMatchObject({ cable: { id: cable.id }, cable_end: 'B' });
      expect(
        (await seeded.db.query('SELECT cable_id, cable_end FROM dcim_interface WHERE id = ANY($1) ORDER BY id', [[fx.xe.id, fx.remote.id]]))
          .rows,
      ).toEqual([
        { cable_id: cable.id, cable_end: 'A' },
        { cable_id: cable.id, cable_end: 'B' },
      ]);
      expect(await listed(`${INTERFACES}?cable_id=${cable.id}`, 'id')).toEqual([fx.xe.id, fx.remote.id]);
      expect(await listed(`${INTERFACES}?device_id=${fx.core1.id}&cable_id=null`, 'id')).toEqual([fx.ge.id]);
    });

    it('cable validation: unknown type, length without unit, an interface already cabled, a missing end', async () => {
      const before = await count('dcim_cable');
      const badType = await api.post(CABLES, {
        type: 'copper',
        a_terminations: [{ object_type: 'dcim.interface', object_id: fx.ge.id }],
        b_terminations: [{ object_type: 'dcim.interface', object_id: fx.remote.id }],
      });
      expect(badType.status).toBe(400);
      expect(badType.body.type).toEqual(['"copper" is not a valid choice.']);
      const noUnit = await api.post(CABLES, {
        length: 3,
        a_terminations: [{ object_type: 'dcim.interface', object_id: fx.ge.id }],
        b_terminations: [
          { object_type: 'dcim.frontport', object_id: (await api.get(`${FRONT_PORTS}?device=core1&name=FP1`)).body.results[0].id },
        ],
      });
      expect(noUnit.status).toBe(400);
      expect(noUnit.body).toEqual({ length_unit: ['Must specify a unit when setting a cable length'] });
      const taken = await api.post(CABLES, {
        a_terminations: [{ object_type: 'dcim.interface', object_id: fx.ge.id }],
        b_terminations: [{ object_type: 'dcim.interface', object_id: fx.remote.id }],
      });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ b_terminations: [`dcim.interface ${fx.remote.id} is already connected to cable ${fx.cable.id}.`] });
      const oneEnd = await api.post(CABLES, { a_terminations: [{ object_type: 'dcim.interface', object_id: fx.ge.id }] });
      expect(oneEnd.status).toBe(400);
      expect(oneEnd.body).toEqual({ b_terminations: ['This field is required.'] });
      expect(await count('dcim_cable')).toBe(before);
    });

    it('deleting a device deletes its components (CASCADE), each recorded with the device as related object', async () => {
      const type = await api.created(DEVICE_TYPES, { manufacturer: fx.cisco.id, model: 'Doom-1', slug: 'doom-1' });
      const rear = await api.created(REAR_TEMPLATES, { device_type: type.id, name: 'DR1', type: 'mpo', positions: 2 });
      const front = await api.created(FRONT_TEMPLATES, [
        { device_type: type.id, name: 'DF1', type: 'lc' },
        { device_type: type.id, name: 'DF2', type: 'lc' },
      ]);
      await api.created(MAPPING_TEMPLATES, { device_type: type.id, front_port: front[0].id, rear_port: rear.id, rear_port_position: 2 });
      const doomed = await api.created(DEVICES, { name: 'doomed', device_type: type.id, role: fx.router.id, site: fx.dc2.id });
      const iface = await api.created(INTERFACES, { device: doomed.id, name: 'eth0', type: '1000base-t' });
      const rears = (await seeded.db.query<{ id: number }>('SELECT id FROM dcim_rearport WHERE device_id = $1', [doomed.id])).rows.map(
        (row) => row.id,
      );
      const fronts = (await seeded.db.query<{ id: number }>('SELECT id FROM dcim_frontport WHERE device_id = $1', [doomed.id])).rows.map(
        (row) => row.id,
      );
      expect(rears).toHaveLength(1);
      expect(fronts).toHaveLength(2);
      expect(await count('dcim_portmapping', 'WHERE device_id = $1', [doomed.id])).toBe(1);

      const response = await api.delete(`${DEVICES}${doomed.id}/`);
      expect(response.status).toBe(204);
      for (const table of ['dcim_frontport', 'dcim_rearport', 'dcim_interface', 'dcim_portmapping']) {
        expect({ table, n: await count(table, 'WHERE device_id = $1', [doomed.id]) }).toEqual({ table, n: 0 });
      }
      const deleted = await seeded.db.query(
        `SELECT t.model, c.changed_object_id AS id, rt.model AS related_model, c.related_object_id, c.request_id
           FROM core_objectchange c
           JOIN core_objecttype t ON t.id = c.changed_object_type_id
           LEFT JOIN core_objecttype rt ON rt.id = c.related_object_type_id
          WHERE c.action = 'delete' AND c.request_id = $1 ORDER BY t.model, c.changed_object_id`,
        [response.headers.get('x-request-id')],
      );
      const byModel = (model: string) => deleted.rows.filter((row) => row.model === model);
      expect(byModel('device').map((row) => row.id)).toEqual([doomed.id]);
      expect(byModel('interface')).toEqual([
        expect.objectContaining({ id: iface.id, related_model: 'device', related_object_id: doomed.id }),
      ]);
      expect(byModel('frontport').map((row) => row.id)).toEqual(fronts.sort((a, b) => a - b));
      expect(byModel('rearport').map((row) => row.id)).toEqual(rears);
      expect(byModel('portmapping')).toHaveLength(1);
      for (const row of [...byModel('frontport'), ...byModel('rearport')])
        expect(row).toMatchObject({ related_model: 'device', related_object_id: doomed.id });
    });
  });
});
