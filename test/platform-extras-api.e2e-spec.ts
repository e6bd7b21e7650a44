import { provisionToken } from './support/platform-client';
import { PASSWORD } from './support/api-client';
import { factories as factoriesOf } from './support/factories';
import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';

const E = '/api/extras';

/**
 * Saved filters, export templates and config contexts: the generic contract of each
 * (test/support/resource-api-kit.ts), then what they do: `?export=<name>` on a list, and a device's
 * and a virtual machine's rendered `config_context`.
 */
describe('platform extras: saved filters, export templates, config contexts', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${E}/saved-filters/`,
    objectType: 'extras.savedfilter',
    graphqlName: 'saved_filter',
    create: [
      { name: 'Active sites', slug: 'active-sites', object_types: ['dcim.site'], parameters: { status: ['active'] } },
      { name: 'Edge devices', slug: 'edge-devices', object_types: ['dcim.device'], parameters: { role: ['edge'] }, shared: false },
      { name: 'Both', slug: 'both', object_types: ['dcim.site', 'dcim.device'], parameters: {}, weight: 10 },
    ],
    update: { description: 'Test Value', enabled: false, parameters: { status: ['planned'] } },
    bulkUpdate: { weight: 50 },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: { 'shared=false': [1], 'weight=10': [2], 'slug=active-sites': [0] },
    invalid: [
      { body: { name: 'Bad', slug: 'bad', object_types: ['dcim.site'], parameters: ['status'] }, field: 'parameters' },
      { body: { name: 'Bad', slug: 'bad', object_types: ['dcim.nothing'], parameters: {} }, field: 'object_types' },
      { body: { name: 'Bad', slug: 'bad', object_types: ['dcim.site'] }, field: 'parameters' },
    ],
  });

  describeResourceApi({
    app,
    path: `${E}/export-templates/`,
    objectType: 'extras.exporttemplate',
    graphqlName: 'export_template',
    create: [
      {
        name: 'CSV',
        object_types: ['dcim.site'],
        template_code: '{% for s in queryset %}{{ s.name }}\n{% endfor %}',
        file_extension: 'csv',
      },
      { name: 'Names', object_types: ['dcim.device'], template_code: '{{ queryset | length }}', as_attachment: false },
      { name: 'CSV', object_types: ['dcim.device'], template_code: 'x', mime_type: 'text/csv' },
    ],
    update: { description: 'Test Value', template_code: '{{ queryset | length }} rows' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=CSV': [0, 2], 'as_attachment=false': [1] },
    invalid: [
      { body: { name: 'table', object_types: ['dcim.site'], template_code: 'x' }, field: 'name' },
      { body: { name: 'Bad', object_types: ['dcim.site'], template_code: '{% for x in %}' }, field: 'template_code' },
      { body: { name: 'Bad', object_types: ['dcim.site'] }, field: 'template_code' },
    ],
  });

  describeResourceApi({
    app,
    path: `${E}/config-contexts/`,
    objectType: 'extras.configcontext',
    graphqlName: 'config_context',
    fixtures: async ({ factories, api }) => ({
      site: await factories.site(),
      role: await factories.deviceRole(),
      tag: await api.created(`${E}/tags/`, { name: 'cc-tag', slug: 'cc-tag' }),
    }),
    create: ({ site, role }) => [
      { name: 'global', data: { ntp: ['192.0.2.1'] } },
      { name: 'site', weight: 2000, sites: [site.id], data: { syslog: '192.0.2.9' } },
      { name: 'role', roles: [role.id], tags: ['cc-tag'], is_active: false, data: {} },
    ],
    update: { description: 'Test Value', data: { ntp: ['192.0.2.2'] } },
    bulkUpdate: { weight: 500 },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'is_active=false': [2], 'weight=2000': [1], 'name=global': [0] },
    invalid: [
      { body: { name: 'bad', data: [1, 2] }, field: 'data' },
      { body: { name: 'bad' }, field: 'data' },
      { body: { name: 'bad', data: {}, tags: ['no-such-tag'] }, field: 'tags' },
    ],
  });

  describe('export templates render the filtered list', () => {
    it('?export=<name> renders the visible, filtered objects as `queryset`, as an attachment with the file name', async () => {
      const { api } = app();
      const f = factoriesOf(api);
      const region = await f.region();
      const [a, b] = [await f.site({ region: region.id }), await f.site({ region: region.id })];
      await f.site();
      await api.created(`${E}/export-templates/`, {
        name: 'site-names',
        object_types: ['dcim.site'],
        template_code: 'name,slug\r\n{% for site in queryset %}{{ site.name }},{{ site.slug }}\r\n{% endfor %}',
        mime_type: 'text/csv',
        file_name: 'sites',
        file_extension: 'csv',
      });
      const response = await api.get(`/api/dcim/sites/?export=site-names&region_id=${region.id}&ordering=name`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="sites.csv"');
      expect(response.text).toBe(`name,slug\n${a.name},${a.slug}\n${b.name},${b.slug}\n`);

      // Another model, or a name no template of this model has: 404.
      expect((await api.get('/api/dcim/devices/?export=site-names')).status).toBe(404);
      expect((await api.get('/api/dcim/sites/?export=nothing')).status).toBe(404);
    });

    it('renders only what the caller may view, needs view on the template, and refuses a failing template with 400', async () => {
      const { api, seeded } = app();
      const f = factoriesOf(api);
      const [visible] = [await f.site(), await f.site()];
      const template = await api.created(`${E}/export-templates/`, {
        name: 'count-sites',
        object_types: ['dcim.site'],
        template_code: '{{ queryset | length }}:{% for s in queryset %}{{ s.id }}{% endfor %}',
        as_attachment: false,
      });
      const user = api.as(await provisionToken(seeded.api, 'user2', PASSWORD));
      const grant = (body: Record<string, unknown>) =>
        api.created('/api/users/permissions/', { enabled: true, users: [seeded.w.user2.id], ...body });
      await grant({ name: 'view one site', object_types: ['dcim.site'], actions: ['view'], constraints: { id: visible.id } });
      expect((await user.get('/api/dcim/sites/?export=count-sites')).status).toBe(404);

      await grant({
        name: 'view the template',
        object_types: ['extras.exporttemplate'],
        actions: ['view'],
        constraints: { id: template.id },
      });
      const response = await user.get('/api/dcim/sites/?export=count-sites');
      expect({ status: response.status, text: response.text, disposition: response.headers.get('content-disposition') }).toEqual({
        status: 200,
        text: `1:${visible.id}`,
        disposition: null,
      });

      await api.created(`${E}/export-templates/`, {
        name: 'failing',
        object_types: ['dcim.site'],
        template_code: '{{ queryset | no_such_filter }}',
      });
      const failing = await api.get('/api/dcim/sites/?export=failing');
      expect(failing.status).toBe(400);
      expect(failing.body.detail).toMatch(/no_such_filter/);
    });
  });

  describe("config contexts render into devices' and virtual machines' config_context", () => {
    it('merges the matching active contexts by weight, then the local context data; others do not apply', async () => {
      const { api } = app();
      const f = factoriesOf(api);
      const parent = await f.region();
      const child = await f.region({ parent: parent.id });
      const site = await f.site({ region: child.id });
      const role = await f.deviceRole();
      const tenant = await f.tenant();
      const tag = await api.created(`${E}/tags/`, { name: 'cc-gold', slug: 'cc-gold' });
      const device = await f.device({
        site: site.id,
        role: role.id,
        tenant: tenant.id,
        tags: [tag.id],
        local_context_data: { local: true, ntp: { servers: ['local'] } },
      });
      const otherDevice = await f.device({ role: role.id });
      const context = (body: Record<string, unknown>) => api.created(`${E}/config-contexts/`, body);
      await context({
        name: 'cc-region',
        weight: 100,
        regions: [parent.id],
        data: { ntp: { servers: ['a'], prefer: true }, dns: 'region' },
      });
      await context({ name: 'cc-site', weight: 200, sites: [site.id], data: { dns: 'site' } });
      await context({
        name: 'cc-role-tenant-tag',
        weight: 300,
        roles: [role.id],
        tenants: [tenant.id],
        tags: ['cc-gold'],
        data: { role: 'edge' },
      });
      await context({ name: 'cc-inactive', weight: 400, sites: [site.id], is_active: false, data: { dns: 'inactive' } });
      await context({ name: 'cc-other-site', weight: 500, sites: [(await f.site()).id], data: { dns: 'elsewhere' } });

      const read = await api.get(`/api/dcim/devices/${device.id}/`);
      expect(read.body.local_context_data).toEqual({ local: true, ntp: { servers: ['local'] } });
      expect(read.body.config_context).toEqual({ ntp: { servers: ['local'], prefer: true }, dns: 'site', role: 'edge', local: true });
      const [listed] = (await api.get(`/api/dcim/devices/?id=${device.id}`)).body.results;
      expect(listed.config_context).toEqual(read.body.config_context);
      // The other device matches only what is not limited to the site, tenant or tag.
      expect((await api.get(`/api/dcim/devices/${otherDevice.id}/`)).body.config_context).toEqual({});

      const template = await api.created(`${E}/config-templates/`, {
        name: 'cc-render',
        template_code: '{{ dns }} {{ device.name }} {{ role }}',
      });
      await api.patch(`/api/dcim/devices/${device.id}/`, { config_template: template.id });
      const rendered = await api.post(`/api/dcim/devices/${device.id}/render-config/`, {});
      expect(rendered.body.content).toBe(`site ${device.name} edge`);
    });

    it('applies cluster contexts to virtual machines, and refuses local context data that is not an object', async () => {
      const { api } = app();
      const f = factoriesOf(api);
      const cluster = await f.cluster();
      const vm = await f.virtualMachine({ cluster: cluster.id, local_context_data: { vm: 1 } });
      const other = await f.virtualMachine();
      await api.created(`${E}/config-contexts/`, { name: 'cc-cluster', clusters: [cluster.id], data: { hypervisor: 'kvm' } });
      await api.created(`${E}/config-contexts/`, {
        name: 'cc-cluster-type',
        cluster_types: [cluster.type.id],
        weight: 2000,
        data: { hypervisor: 'by type' },
      });
      expect((await api.get(`/api/virtualization/virtual-machines/${vm.id}/`)).body.config_context).toEqual({
        hypervisor: 'by type',
        vm: 1,
      });
      expect((await api.get(`/api/virtualization/virtual-machines/${other.id}/`)).body.config_context).toEqual({});
      const refused = await api.patch(`/api/virtualization/virtual-machines/${vm.id}/`, { local_context_data: 'text' });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 400,
        body: { local_context_data: ['JSON data must be in object form. Example: {"foo": 123}'] },
      });
    });
  });
});
