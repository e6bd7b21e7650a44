import { countRows, PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const REGIONS = '/api/dcim/regions/';
const SITE_GROUPS = '/api/dcim/site-groups/';
const SITES = '/api/dcim/sites/';
const LOCATIONS = '/api/dcim/locations/';
const TENANT_GROUPS = '/api/tenancy/tenant-groups/';
const TENANTS = '/api/tenancy/tenants/';
const CONTACT_GROUPS = '/api/tenancy/contact-groups/';
const CONTACT_ROLES = '/api/tenancy/contact-roles/';
const CONTACTS = '/api/tenancy/contacts/';
const CONTACT_ASSIGNMENTS = '/api/tenancy/contact-assignments/';

interface ChangeRow {
  action: string;
  object_type: string;
  object_id: number;
  request_id: string;
  prechange_data: Record<string, unknown> | null;
  postchange_data: Record<string, unknown> | null;
}

/**
 * The organisational models: regions and site groups as trees, sites and locations, tenancy
 * (tenant groups, tenants) and contacts with their assignments to any object; CRUD, the declared
 * filters, nested reads, validation, and what deleting does to the objects that refer to another
 * (PROTECT, CASCADE, SET NULL), as NetBox 4 behaves.
 */
describe('platform organization: regions, site groups, sites, locations, tenancy, contacts', () => {
  let seeded: SeededApp;
  let api: PlatformClient;
  let base: string;

  const count = (table: string, where = '', params: unknown[] = []) => countRows(seeded.db, table, where, params);
  /** Names (or another attribute) of the objects a list query selects, checking the envelope. */
  const listed = (path: string, attribute = 'name') => api.listed(path, attribute);
  const changesOf = async (objectType: string, ids: number[]): Promise<ChangeRow[]> =>
    (
      await seeded.db.query<ChangeRow>(
        `SELECT c.action, t.app_label || '.' || t.model AS object_type, c.changed_object_id AS object_id, c.request_id,
                c.prechange_data, c.postchange_data
           FROM core_objectchange c JOIN core_objecttype t ON t.id = c.changed_object_type_id
          WHERE t.app_label || '.' || t.model = $1 AND c.changed_object_id = ANY($2) ORDER BY c.id`,
        [objectType, ids],
      )
    ).rows;
  const nested = (path: string, object: { id: number }, display: string, extra: Record<string, unknown> = {}) => ({
    id: object.id,
    url: `${base}${path}${object.id}/`,
    display,
    ...extra,
  });

  beforeAll(async () => {
    ({ seeded, api, base } = await startPlatformApp());
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('regions and site groups (trees)', () => {
    const region: Record<string, any> = {};

    beforeAll(async () => {
      region.europe = await api.created(REGIONS, { name: 'Europe', slug: 'europe', description: 'EMEA' });
      region.netherlands = await api.created(REGIONS, { name: 'Netherlands', slug: 'nl', parent: region.europe.id });
      region.amsterdam = await api.created(REGIONS, { name: 'Amsterdam', slug: 'ams', parent: { slug: 'nl' } });
      region.asia = await api.created(REGIONS, { name: 'Asia', slug: 'asia' });
    });

    it('creates regions with a parent (by id or by slug) and reads the parent nested', async () => {
      expect(region.europe).toMatchObject({ name: 'Europe', slug: 'europe', description: 'EMEA', parent: null });
      const child = await api.get(`${REGIONS}${region.amsterdam.id}/`);
      expect(child.status).toBe(200);
      expect(child.body).toMatchObject({
        id: region.amsterdam.id,
        url: `${base}${REGIONS}${region.amsterdam.id}/`,
        display: 'Amsterdam',
        name: 'Amsterdam',
        slug: 'ams',
        parent: nested(REGIONS, region.netherlands, 'Netherlands', { name: 'Netherlands', slug: 'nl', description: '' }),
      });
      expect((await seeded.db.query('SELECT parent_id FROM dcim_region WHERE id = $1', [region.amsterdam.id])).rows).toEqual([
        { parent_id: region.netherlands.id },
      ]);
    });

    it('filters regions by parent_id (null for roots) and by parent slug', async () => {
      expect(await listed(`${REGIONS}?parent_id=${region.europe.id}`)).toEqual(['Netherlands']);
      expect(await listed(`${REGIONS}?parent=nl`)).toEqual(['Amsterdam']);
      expect(await listed(`${REGIONS}?parent_id=null`)).toEqual(['Asia', 'Europe']);
      expect(await listed(`${REGIONS}?parent__n=europe&parent_id__n=null`)).toEqual(['Amsterdam']);
      const unknown = await api.get(`${REGIONS}?parent=atlantis`);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ parent: ['Select a valid choice. atlantis is not one of the available choices.'] });
    });

    it('refuses a duplicate name or slug, and an unknown parent', async () => {
      const duplicate = await api.post(REGIONS, { name: 'Europe', slug: 'europe' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ name: ['region with this name already exists.'], slug: ['region with this slug already exists.'] });
      const orphan = await api.post(REGIONS, { name: 'Lost', slug: 'lost', parent: 999999 });
      expect(orphan.status).toBe(400);
      expect(orphan.body).toEqual({ parent: ['Related object not found using the provided numeric ID: 999999'] });
      expect(await count('dcim_region', `WHERE slug = 'lost'`)).toBe(0);
    });

    // NetBox's NestedGroupModel.clean(): "Cannot assign self or child region as parent."
    it('refuses to make a region its own parent or the child of its descendant', async () => {
      const root = await api.created(REGIONS, { name: 'Loop root', slug: 'loop-root' });
      const leaf = await api.created(REGIONS, { name: 'Loop leaf', slug: 'loop-leaf', parent: root.id });
      const self = await api.patch(`${REGIONS}${root.id}/`, { parent: root.id });
      const cycle = await api.patch(`${REGIONS}${root.id}/`, { parent: leaf.id });
      // Undo a wrongly accepted cycle at once, so that no later deletion walks it forever.
      if (self.status === 200 || cycle.status === 200)
        await seeded.db.query('UPDATE dcim_region SET parent_id = NULL WHERE id = $1', [root.id]);
      expect(self.status).toBe(400);
      expect(self.body).toEqual({ parent: [expect.any(String)] });
      expect(cycle.status).toBe(400);
      expect(cycle.body).toEqual({ parent: [expect.any(String)] });
    });

    it('site groups are trees as well: nested parent, parent_id filter, PUT to move to the root', async () => {
      const all = await api.created(SITE_GROUPS, { name: 'All', slug: 'all' });
      const edge = await api.created(SITE_GROUPS, { name: 'Edge', slug: 'edge', parent: all.id, description: 'edge POPs' });
      expect(edge.parent).toMatchObject(nested(SITE_GROUPS, all, 'All', { name: 'All', slug: 'all' }));
      expect(await listed(`${SITE_GROUPS}?parent_id=${all.id}`)).toEqual(['Edge']);
      const moved = await api.put(`${SITE_GROUPS}${edge.id}/`, { name: 'Edge', slug: 'edge', parent: null });
      expect(moved.status).toBe(200);
      // As DRF's PUT: an optional field not given keeps its value.
      expect(moved.body).toMatchObject({ parent: null, description: 'edge POPs' });
      expect((await seeded.db.query('SELECT parent_id, description FROM dcim_sitegroup WHERE id = $1', [edge.id])).rows).toEqual([
        { parent_id: null, description: 'edge POPs' },
      ]);
    });
  });

  describe('sites and locations', () => {
    const fx: Record<string, any> = {};

    beforeAll(async () => {
      fx.emea = await api.created(REGIONS, { name: 'EMEA', slug: 'emea' });
      fx.de = await api.created(REGIONS, { name: 'Germany', slug: 'de', parent: fx.emea.id });
      fx.dcs = await api.created(SITE_GROUPS, { name: 'Data centers', slug: 'dcs' });
      fx.tenants = await api.created(TENANT_GROUPS, { name: 'Site owners', slug: 'site-owners' });
      fx.acme = await api.created(TENANTS, { name: 'Acme', slug: 'acme', group: fx.tenants.id });
      fx.fra = await api.created(SITES, {
        name: 'FRA1',
        slug: 'fra1',
        region: fx.de.id,
        group: fx.dcs.id,
        tenant: fx.acme.id,
        status: 'planned',
      });
      fx.par = await api.created(SITES, { name: 'PAR1', slug: 'par1', region: fx.emea.id });
      fx.lon = await api.created(SITES, { name: 'LON1', slug: 'lon1' });
    });

    it('reads a site with its region, group and tenant nested, status as {value, label}', async () => {
      const response = await api.get(`${SITES}${fx.fra.id}/`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        name: 'FRA1',
        slug: 'fra1',
        status: { value: 'planned', label: 'Planned' },
        region: nested(REGIONS, fx.de, 'Germany', { name: 'Germany', slug: 'de', description: '' }),
        group: nested(SITE_GROUPS, fx.dcs, 'Data centers', { name: 'Data centers', slug: 'dcs', description: '' }),
        tenant: nested(TENANTS, fx.acme, 'Acme', { name: 'Acme', slug: 'acme', description: '' }),
      });
      expect(
        (await seeded.db.query('SELECT region_id, group_id, tenant_id, status FROM dcim_site WHERE id = $1', [fx.fra.id])).rows,
      ).toEqual([{ region_id: fx.de.id, group_id: fx.dcs.id, tenant_id: fx.acme.id, status: 'planned' }]);
    });

    it('filters sites by region_id, region (slug) and group', async () => {
      expect(await listed(`${SITES}?region_id=${fx.de.id}`)).toEqual(['FRA1']);
      expect(await listed(`${SITES}?group=dcs`)).toEqual(['FRA1']);
      expect(await listed(`${SITES}?region_id=null&slug=lon1&slug=fra1`)).toEqual(['LON1']);
    });

    // NetBox's region/group filters are TreeNodeMultipleChoiceFilters: a region selects the sites of its descendants too.
    it('a region filter also selects the sites of its child regions (NetBox tree filter)', async () => {
      expect(await listed(`${SITES}?region=emea`)).toEqual(['FRA1', 'PAR1']);
      expect(await listed(`${SITES}?region_id=${fx.emea.id}`)).toEqual(['FRA1', 'PAR1']);
    });

    it('PATCH changes one relation and keeps the others; an unknown region is a 400', async () => {
      const moved = await api.patch(`${SITES}${fx.lon.id}/`, { region: fx.emea.id });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ region: { id: fx.emea.id, name: 'EMEA' }, group: null, tenant: null });
      const bad = await api.patch(`${SITES}${fx.lon.id}/`, { region: 999999, status: 'gone' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        region: ['Related object not found using the provided numeric ID: 999999'],
        status: ['"gone" is not a valid choice.'],
      });
      await api.patch(`${SITES}${fx.lon.id}/`, { region: null });
    });

    it('a location needs a site; reads site, parent and tenant nested', async () => {
      const missing = await api.post(LOCATIONS, { name: 'Hall 1', slug: 'hall-1' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ site: ['This field is required.'] });

      fx.hall = await api.created(LOCATIONS, { site: fx.fra.id, name: 'Hall 1', slug: 'hall-1', tenant: fx.acme.id, status: 'active' });
      fx.cage = await api.created(LOCATIONS, { site: fx.fra.id, parent: fx.hall.id, name: 'Cage A', slug: 'cage-a' });
      const response = await api.get(`${LOCATIONS}${fx.cage.id}/`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        name: 'Cage A',
        slug: 'cage-a',
        site: nested(SITES, fx.fra, 'FRA1', { name: 'FRA1', slug: 'fra1', description: '' }),
        parent: nested(LOCATIONS, fx.hall, 'Hall 1', { name: 'Hall 1', slug: 'hall-1', description: '' }),
        tenant: null,
        status: { value: 'active', label: 'Active' },
      });
      expect(await listed(`${LOCATIONS}?site=fra1&parent_id=null`)).toEqual(['Hall 1']);
      expect(await listed(`${LOCATIONS}?site_id=${fx.fra.id}&parent_id=${fx.hall.id}`)).toEqual(['Cage A']);
      expect(await listed(`${LOCATIONS}?tenant=acme`)).toEqual(['Hall 1']);
    });

    it('names and slugs of locations are unique per site and parent, not globally', async () => {
      // The same name and slug: on another site, and under another parent of the same site.
      await api.created(LOCATIONS, { site: fx.par.id, name: 'Hall 1', slug: 'hall-1' });
      await api.created(LOCATIONS, { site: fx.fra.id, parent: fx.cage.id, name: 'Hall 1', slug: 'hall-1' });
      const before = await count('dcim_location');

      const sameRoot = await api.post(LOCATIONS, { site: fx.fra.id, name: 'Hall 1', slug: 'hall-one' });
      expect(sameRoot.status).toBe(400);
      expect(sameRoot.body).toEqual({ non_field_errors: [expect.any(String)] });

      const sameSlug = await api.post(LOCATIONS, { site: fx.fra.id, parent: fx.hall.id, name: 'Cage Z', slug: 'cage-a' });
      expect(sameSlug.status).toBe(400);
      expect(sameSlug.body).toEqual({ non_field_errors: [expect.any(String)] });

      const rename = await api.patch(`${LOCATIONS}${fx.cage.id}/`, { parent: null, name: 'Hall 1', slug: 'hall-1' });
      expect(rename.status).toBe(400);
      expect(await count('dcim_location')).toBe(before);
      expect((await seeded.db.query('SELECT name, parent_id FROM dcim_location WHERE id = $1', [fx.cage.id])).rows).toEqual([
        { name: 'Cage A', parent_id: fx.hall.id },
      ]);
    });

    it('two new root locations with the same name on one site in one bulk request: 400, nothing written', async () => {
      const before = await count('dcim_location');
      const response = await api.post(LOCATIONS, [
        { site: fx.lon.id, name: 'Suite 9', slug: 'suite-9' },
        { site: fx.lon.id, name: 'Suite 9', slug: 'suite-9' },
      ]);
      expect(response.status).toBe(400);
      expect(await count('dcim_location')).toBe(before);
    });

    // NetBox's Location.clean(): "Parent location (…) must belong to the same site (…)."
    it('refuses a parent location of another site', async () => {
      const response = await api.post(LOCATIONS, { site: fx.par.id, parent: fx.hall.id, name: 'Stray', slug: 'stray' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ parent: [expect.any(String)] });
      expect(await count('dcim_location', `WHERE slug = 'stray'`)).toBe(0);
    });

    it('deleting a location deletes its child locations (CASCADE), each recorded', async () => {
      const top = await api.created(LOCATIONS, { site: fx.lon.id, name: 'Floor 1', slug: 'floor-1' });
      const room = await api.created(LOCATIONS, { site: fx.lon.id, parent: top.id, name: 'Room 1', slug: 'room-1' });
      const response = await api.delete(`${LOCATIONS}${top.id}/`);
      expect(response.status).toBe(204);
      expect(await count('dcim_location', 'WHERE id = ANY($1)', [[top.id, room.id]])).toBe(0);
      const changes = await changesOf('dcim.location', [top.id, room.id]);
      expect(
        changes
          .filter((change) => change.action === 'delete')
          .map((change) => change.object_id)
          .sort(),
      ).toEqual([top.id, room.id].sort());
      expect(new Set(changes.filter((change) => change.action === 'delete').map((change) => change.request_id))).toEqual(
        new Set([response.headers.get('x-request-id')]),
      );
    });
  });

  describe('tenant groups and tenants', () => {
    it('CRUD: a tenant reads its group nested; filters group and group_id; a tenant group tree', async () => {
      const parent = await api.created(TENANT_GROUPS, { name: 'Customers', slug: 'customers' });
      const child = await api.created(TENANT_GROUPS, { name: 'Enterprise', slug: 'enterprise', parent: parent.id });
      expect(child.parent).toMatchObject(nested(TENANT_GROUPS, parent, 'Customers', { name: 'Customers', slug: 'customers' }));
      const tenant = await api.created(TENANTS, { name: 'Initech', slug: 'initech', group: { slug: 'enterprise' }, description: 'TPS' });
      expect(tenant).toMatchObject({
        name: 'Initech',
        description: 'TPS',
        group: nested(TENANT_GROUPS, child, 'Enterprise', { slug: 'enterprise' }),
      });
      expect(await listed(`${TENANTS}?group=enterprise`)).toEqual(['Initech']);
      expect(await listed(`${TENANTS}?group_id=${child.id}`)).toEqual(['Initech']);

      const renamed = await api.patch(`${TENANTS}${tenant.id}/`, { name: 'Initech Inc', comments: 'moved' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'Initech Inc', slug: 'initech', comments: 'moved', group: { id: child.id } });

      const duplicate = await api.post(TENANTS, { name: 'Initech Inc', slug: 'initech' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ name: ['tenant with this name already exists.'], slug: ['tenant with this slug already exists.'] });

      expect((await api.delete(`${TENANTS}${tenant.id}/`)).status).toBe(204);
      expect((await api.get(`${TENANTS}${tenant.id}/`)).status).toBe(404);
      expect(await count('tenancy_tenant', 'WHERE id = $1', [tenant.id])).toBe(0);
    });

    it('PROTECT: a tenant group with tenants cannot be deleted (409, nothing deleted); once empty it can', async () => {
      const group = await api.created(TENANT_GROUPS, { name: 'Partners', slug: 'partners' });
      const tenant = await api.created(TENANTS, { name: 'Umbrella', slug: 'umbrella', group: group.id });
      const changesBefore = await count('core_objectchange');
      const refused = await api.delete(`${TENANT_GROUPS}${group.id}/`);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ detail: expect.stringMatching(/^Unable to delete object\. .*tenant Umbrella/) });
      expect(await count('tenancy_tenantgroup', 'WHERE id = $1', [group.id])).toBe(1);
      expect(await count('core_objectchange')).toBe(changesBefore);

      expect((await api.patch(`${TENANTS}${tenant.id}/`, { group: null })).status).toBe(200);
      expect((await api.delete(`${TENANT_GROUPS}${group.id}/`)).status).toBe(204);
      expect(await count('tenancy_tenantgroup', 'WHERE id = $1', [group.id])).toBe(0);
    });

    // NetBox's collector finds PROTECT references on everything a deletion would cascade to.
    it('PROTECT also guards a child group the deletion would cascade to (409 naming the tenant, nothing deleted)', async () => {
      const top = await api.created(TENANT_GROUPS, { name: 'Resellers', slug: 'resellers' });
      const sub = await api.created(TENANT_GROUPS, { name: 'Resellers EU', slug: 'resellers-eu', parent: top.id });
      await api.created(TENANTS, { name: 'Hooli', slug: 'hooli', group: sub.id });
      const changesBefore = await count('core_objectchange');
      const response = await api.delete(`${TENANT_GROUPS}${top.id}/`);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ detail: expect.stringMatching(/^Unable to delete object\. .*tenant Hooli/) });
      expect(await count('tenancy_tenantgroup', 'WHERE id = ANY($1)', [[top.id, sub.id]])).toBe(2);
      expect(await count('core_objectchange')).toBe(changesBefore);
    });
  });

  describe('contacts, contact roles, contact groups and contact assignments', () => {
    const fx: Record<string, any> = {};

    beforeAll(async () => {
      fx.site = await api.created(SITES, { name: 'Contact site', slug: 'contact-site' });
      fx.otherSite = await api.created(SITES, { name: 'Other contact site', slug: 'other-contact-site' });
      fx.ops = await api.created(CONTACT_GROUPS, { name: 'Operations', slug: 'ops' });
      fx.noc = await api.created(CONTACT_GROUPS, { name: 'NOC', slug: 'noc', parent: fx.ops.id });
      fx.admin = await api.created(CONTACT_ROLES, { name: 'Administrative', slug: 'admin' });
      fx.tech = await api.created(CONTACT_ROLES, { name: 'Technical', slug: 'tech' });
      fx.alice = await api.created(CONTACTS, {
        name: 'Alice',
        group: fx.noc.id,
        email: 'alice@example.com',
        phone: '+31 20 555 0100',
        title: 'Engineer',
      });
      fx.bob = await api.created(CONTACTS, { name: 'Bob' });
    });

    it('contacts: group nested, email validated, filters group and q', async () => {
      expect(fx.alice).toMatchObject({
        name: 'Alice',
        title: 'Engineer',
        email: 'alice@example.com',
        group: nested(CONTACT_GROUPS, fx.noc, 'NOC', { name: 'NOC', slug: 'noc', description: '' }),
      });
      expect(fx.noc.parent).toMatchObject({ id: fx.ops.id, name: 'Operations' });
      const badEmail = await api.post(CONTACTS, { name: 'Mallory', email: 'not an address' });
      expect(badEmail.status).toBe(400);
      expect(badEmail.body).toEqual({ email: ['Enter a valid email address.'] });
      expect(await listed(`${CONTACTS}?group=noc`)).toEqual(['Alice']);
      expect(await listed(`${CONTACTS}?q=555`)).toEqual(['Alice']);
      expect(await listed(`${CONTACT_ROLES}?slug=tech`)).toEqual(['Technical']);
    });

    it('assigns a contact to a site with a role and a priority; reads object, contact and role nested', async () => {
      const response = await api.post(CONTACT_ASSIGNMENTS, {
        object_type: 'dcim.site',
        object_id: fx.site.id,
        contact: fx.alice.id,
        role: fx.tech.id,
        priority: 'primary',
      });
      expect(response.status).toBe(201);
      fx.assignment = response.body;
      expect(response.body).toMatchObject({
        object_type: 'dcim.site',
        object_id: fx.site.id,
        object: nested(SITES, fx.site, 'Contact site', { name: 'Contact site', slug: 'contact-site' }),
        contact: nested(CONTACTS, fx.alice, 'Alice', { name: 'Alice' }),
        role: nested(CONTACT_ROLES, fx.tech, 'Technical', { name: 'Technical', slug: 'tech' }),
        priority: { value: 'primary', label: 'Primary' },
      });
      const stored = await seeded.db.query(
        `SELECT t.app_label || '.' || t.model AS object_type, a.object_id, a.contact_id, a.role_id, a.priority
           FROM tenancy_contactassignment a JOIN core_objecttype t ON t.id = a.object_type_id WHERE a.id = $1`,
        [response.body.id],
      );
      expect(stored.rows).toEqual([
        { object_type: 'dcim.site', object_id: fx.site.id, contact_id: fx.alice.id, role_id: fx.tech.id, priority: 'primary' },
      ]);

      // Every priority NetBox knows, and none other.
      for (const [priority, label] of [
        ['secondary', 'Secondary'],
        ['tertiary', 'Tertiary'],
        ['inactive', 'Inactive'],
      ]) {
        const patched = await api.patch(`${CONTACT_ASSIGNMENTS}${response.body.id}/`, { priority });
        expect(patched.status).toBe(200);
        expect(patched.body.priority).toEqual({ value: priority, label });
      }
      const bogus = await api.patch(`${CONTACT_ASSIGNMENTS}${response.body.id}/`, { priority: 'urgent' });
      expect(bogus.status).toBe(400);
      expect(bogus.body).toEqual({ priority: ['"urgent" is not a valid choice.'] });
      await api.patch(`${CONTACT_ASSIGNMENTS}${response.body.id}/`, { priority: 'primary' });
    });

    it('filters assignments by object_type, object_id, contact_id, role (slug) and priority', async () => {
      await api.created(CONTACT_ASSIGNMENTS, {
        object_type: 'dcim.site',
        object_id: fx.otherSite.id,
        contact: fx.bob.id,
        role: fx.admin.id,
      });
      const ids = async (query: string) => listed(`${CONTACT_ASSIGNMENTS}?${query}`, 'id');
      expect(await ids(`object_type=dcim.site&object_id=${fx.site.id}`)).toEqual([fx.assignment.id]);
      expect(await ids(`contact_id=${fx.alice.id}`)).toEqual([fx.assignment.id]);
      expect(await ids('role=tech')).toEqual([fx.assignment.id]);
      expect(await ids('priority=primary')).toEqual([fx.assignment.id]);
      const bad = await api.get(`${CONTACT_ASSIGNMENTS}?priority=urgent`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ priority: ['Select a valid choice. urgent is not one of the available choices.'] });
    });

    it('an assignment to an object that does not exist, or of an unknown type, is a 400', async () => {
      const before = await count('tenancy_contactassignment');
      const missing = await api.post(CONTACT_ASSIGNMENTS, {
        object_type: 'dcim.site',
        object_id: 999999,
        contact: fx.alice.id,
        role: fx.tech.id,
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ object_id: ['No site with ID 999999 exists.'] });
      const badType = await api.post(CONTACT_ASSIGNMENTS, { object_type: 'dcim.nothing', object_id: fx.site.id, contact: fx.alice.id });
      expect(badType.status).toBe(400);
      expect(badType.body).toEqual({ object_type: ['Invalid object type: "dcim.nothing"'] });
      const noObject = await api.post(CONTACT_ASSIGNMENTS, { contact: fx.alice.id });
      expect(noObject.status).toBe(400);
      expect(noObject.body).toEqual({ object_type: ['This field is required.'], object_id: ['This field is required.'] });
      expect(await count('tenancy_contactassignment')).toBe(before);
    });

    it('the same contact in the same role on the same object twice is a 400 (a different role is fine)', async () => {
      const before = await count('tenancy_contactassignment');
      const duplicate = await api.post(CONTACT_ASSIGNMENTS, {
        object_type: 'dcim.site',
        object_id: fx.site.id,
        contact: fx.alice.id,
        role: fx.tech.id,
        priority: 'secondary',
      });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ non_field_errors: ['The fields object_type, object_id, contact, role must make a unique set.'] });
      expect(await count('tenancy_contactassignment')).toBe(before);
      await api.created(CONTACT_ASSIGNMENTS, { object_type: 'dcim.site', object_id: fx.site.id, contact: fx.alice.id, role: fx.admin.id });
      expect(await count('tenancy_contactassignment')).toBe(before + 1);
    });

    it('PROTECT: a contact role in use cannot be deleted (409)', async () => {
      const response = await api.delete(`${CONTACT_ROLES}${fx.tech.id}/`);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ detail: expect.stringMatching(/^Unable to delete object\. .*contact assignment/) });
      expect(await count('tenancy_contactrole', 'WHERE id = $1', [fx.tech.id])).toBe(1);
    });

    it('deleting a contact deletes its assignments (CASCADE), each recorded', async () => {
      const carol = await api.created(CONTACTS, { name: 'Carol' });
      const assignment = await api.created(CONTACT_ASSIGNMENTS, {
        object_type: 'dcim.site',
        object_id: fx.site.id,
        contact: carol.id,
        role: fx.admin.id,
      });
      expect((await api.delete(`${CONTACTS}${carol.id}/`)).status).toBe(204);
      expect(await count('tenancy_contactassignment', 'WHERE id = $1', [assignment.id])).toBe(0);
      expect((await changesOf('tenancy.contactassignment', [assignment.id])).map((change) => change.action)).toEqual(['create', 'delete']);
    });

    it('deleting a contact group keeps its contacts, without group (SET NULL), and deletes its child groups', async () => {
      const group = await api.created(CONTACT_GROUPS, { name: 'Temp contacts', slug: 'temp-contacts' });
      const sub = await api.created(CONTACT_GROUPS, { name: 'Temp sub', slug: 'temp-sub', parent: group.id });
      const dave = await api.created(CONTACTS, { name: 'Dave', group: sub.id });
      expect((await api.delete(`${CONTACT_GROUPS}${group.id}/`)).status).toBe(204);
      expect(await count('tenancy_contactgroup', 'WHERE id = ANY($1)', [[group.id, sub.id]])).toBe(0);
      expect((await api.get(`${CONTACTS}${dave.id}/`)).body.group).toBeNull();
    });

    // NetBox's ContactsMixin: `contacts = GenericRelation(ContactAssignment)`, so an object's assignments go with it.
    it('deleting the assigned object deletes its contact assignments', async () => {
      const site = await api.created(SITES, { name: 'Short-lived site', slug: 'short-lived-site' });
      const assignment = await api.created(CONTACT_ASSIGNMENTS, {
        object_type: 'dcim.site',
        object_id: site.id,
        contact: fx.bob.id,
        role: fx.admin.id,
      });
      expect((await api.delete(`${SITES}${site.id}/`)).status).toBe(204);
      expect(await count('tenancy_contactassignment', 'WHERE id = $1', [assignment.id])).toBe(0);
      expect((await api.get(`${CONTACT_ASSIGNMENTS}${assignment.id}/`)).status).toBe(404);
    });
  });

  describe('deleting a region', () => {
    it('deletes its child regions (CASCADE) and clears the region of their sites (SET NULL), recording every change', async () => {
      const world = await api.created(REGIONS, { name: 'Americas', slug: 'americas' });
      const us = await api.created(REGIONS, { name: 'United States', slug: 'us', parent: world.id });
      const east = await api.created(REGIONS, { name: 'US East', slug: 'us-east', parent: us.id });
      const other = await api.created(REGIONS, { name: 'Oceania', slug: 'oceania' });
      const nyc = await api.created(SITES, { name: 'NYC1', slug: 'nyc1', region: east.id });
      const mia = await api.created(SITES, { name: 'MIA1', slug: 'mia1', region: world.id });
      const syd = await api.created(SITES, { name: 'SYD1', slug: 'syd1', region: other.id });

      const response = await api.delete(`${REGIONS}${world.id}/`);
      expect(response.status).toBe(204);
      const requestId = response.headers.get('x-request-id');

      expect(await count('dcim_region', 'WHERE id = ANY($1)', [[world.id, us.id, east.id]])).toBe(0);
      expect((await api.get(`${REGIONS}${us.id}/`)).status).toBe(404);
      expect(await count('dcim_region', 'WHERE id = $1', [other.id])).toBe(1);
      // The sites stay, without region; a site of an unrelated region is untouched.
      for (const site of [nyc, mia]) {
        const read = await api.get(`${SITES}${site.id}/`);
        expect(read.status).toBe(200);
        expect(read.body.region).toBeNull();
      }
      expect(
        (await seeded.db.query('SELECT id, region_id FROM dcim_site WHERE id = ANY($1) ORDER BY id', [[nyc.id, mia.id, syd.id]])).rows,
      ).toEqual([
        { id: nyc.id, region_id: null },
        { id: mia.id, region_id: null },
        { id: syd.id, region_id: other.id },
      ]);

      const regionChanges = (await changesOf('dcim.region', [world.id, us.id, east.id])).filter((change) => change.action === 'delete');
      expect(regionChanges.map((change) => change.object_id).sort()).toEqual([world.id, us.id, east.id].sort());
      for (const change of regionChanges) expect(change).toMatchObject({ request_id: requestId, postchange_data: null });
      expect(regionChanges.find((change) => change.object_id === east.id)?.prechange_data).toMatchObject({
        name: 'US East',
        slug: 'us-east',
        parent: us.id,
      });

      const siteChanges = (await changesOf('dcim.site', [nyc.id, mia.id, syd.id])).filter((change) => change.action === 'update');
      expect(siteChanges.map((change) => change.object_id).sort()).toEqual([nyc.id, mia.id].sort());
      for (const change of siteChanges) {
        expect(change).toMatchObject({
          request_id: requestId,
          prechange_data: { region: expect.any(Number) },
          postchange_data: { region: null },
        });
      }
    });
  });
});
