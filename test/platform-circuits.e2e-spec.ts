import { countRows, PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const C = '/api/circuits';
const PROVIDERS = `${C}/providers/`;
const CIRCUIT_TYPES = `${C}/circuit-types/`;
const CIRCUITS = `${C}/circuits/`;
const TERMINATIONS = `${C}/circuit-terminations/`;
const CABLES = '/api/dcim/cables/';
const INTERFACES = '/api/dcim/interfaces/';
const SITES = '/api/dcim/sites/';
const LOCATIONS = '/api/dcim/locations/';
const TENANTS = '/api/tenancy/tenants/';

/**
 * Circuits as NetBox 4 has them: providers, circuit types, circuits (cid unique per provider) and
 * their A/Z terminations (NetBox 4.2: on a site, location, region or site group), cabled to a device interface; CRUD, the declared
 * filters, nested reads, validation errors, PROTECT and CASCADE on delete.
 */
describe('platform circuits: providers, circuit types, circuits, terminations, cables', () => {
  let seeded: SeededApp;
  let api: PlatformClient;
  let base: string;
  const fx: Record<string, any> = {};

  const count = (table: string, where = '', params: unknown[] = []) => countRows(seeded.db, table, where, params);
  const listed = (path: string, attribute = 'cid') => api.listed(path, attribute);
  const url = (path: string, id: number) => `${base}${path}${id}/`;

  beforeAll(async () => {
    ({ seeded, api, base } = await startPlatformApp());
    fx.pop1 = await api.created(SITES, { name: 'POP1', slug: 'pop1' });
    fx.pop2 = await api.created(SITES, { name: 'POP2', slug: 'pop2' });
    fx.mmr = await api.created(LOCATIONS, { site: fx.pop2.id, name: 'Meet-me room', slug: 'mmr' });
    fx.acme = await api.created(TENANTS, { name: 'Acme', slug: 'acme' });
    fx.level3 = await api.created(PROVIDERS, { name: 'Level3', slug: 'level3', description: 'Tier 1' });
    fx.zayo = await api.created(PROVIDERS, { name: 'Zayo', slug: 'zayo' });
    fx.transit = await api.created(CIRCUIT_TYPES, { name: 'Internet transit', slug: 'transit' });
    fx.wave = await api.created(CIRCUIT_TYPES, { name: 'Wavelength', slug: 'wave' });
    const manufacturer = await api.created('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
    const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'MX204', slug: 'mx204' });
    const role = await api.created('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge' });
    fx.router = await api.created('/api/dcim/devices/', { name: 'edge1', device_type: deviceType.id, role: role.id, site: fx.pop1.id });
    fx.uplink = await api.created(INTERFACES, { device: fx.router.id, name: 'xe-0/0/0', type: '10gbase-x-sfpp' });
    fx.uplink2 = await api.created(INTERFACES, { device: fx.router.id, name: 'xe-0/0/1', type: '10gbase-x-sfpp' });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('providers and circuit types', () => {
    it('CRUD with unique names and slugs', async () => {
      const read = await api.get(`${PROVIDERS}${fx.level3.id}/`);
      expect(read.body).toMatchObject({
        id: fx.level3.id,
        url: url(PROVIDERS, fx.level3.id),
        display: 'Level3',
        name: 'Level3',
        slug: 'level3',
        description: 'Tier 1',
      });
      const duplicate = await api.post(PROVIDERS, { name: 'Level3', slug: 'level3' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({
        name: ['provider with this name already exists.'],
        slug: ['provider with this slug already exists.'],
      });
      const badSlug = await api.post(CIRCUIT_TYPES, { name: 'Dark fibre', slug: 'dark fibre' });
      expect(badSlug.status).toBe(400);
      expect(Object.keys(badSlug.body)).toEqual(['slug']);
      const dark = await api.created(CIRCUIT_TYPES, { name: 'Dark fibre', slug: 'dark-fibre' });
      const patched = await api.patch(`${CIRCUIT_TYPES}${dark.id}/`, { description: 'unlit' });
      expect(patched.body).toMatchObject({ name: 'Dark fibre', description: 'unlit' });
      expect((await api.delete(`${CIRCUIT_TYPES}${dark.id}/`)).status).toBe(204);
      expect(await count('circuits_circuittype', 'WHERE id = $1', [dark.id])).toBe(0);
    });
  });

  describe('circuits', () => {
    beforeAll(async () => {
      fx.c1 = await api.created(CIRCUITS, {
        cid: 'L3-1001',
        provider: fx.level3.id,
        type: fx.transit.id,
        tenant: fx.acme.id,
        status: 'active',
        commit_rate: 10000,
        install_date: '2024-03-01',
      });
      fx.c2 = await api.created(CIRCUITS, { cid: 'L3-1002', provider: fx.level3.id, type: fx.wave.id, status: 'planned' });
      fx.c3 = await api.created(CIRCUITS, { cid: 'ZY-77', provider: { slug: 'zayo' }, type: { slug: 'transit' } });
    });

    it('reads a circuit with provider, type and tenant nested, status as {value, label}', async () => {
      const response = await api.get(`${CIRCUITS}${fx.c1.id}/`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        id: fx.c1.id,
        url: url(CIRCUITS, fx.c1.id),
        display: 'L3-1001',
        cid: 'L3-1001',
        provider: { id: fx.level3.id, url: url(PROVIDERS, fx.level3.id), display: 'Level3', name: 'Level3', slug: 'level3' },
        type: {
          id: fx.transit.id,
          url: url(CIRCUIT_TYPES, fx.transit.id),
          display: 'Internet transit',
          name: 'Internet transit',
          slug: 'transit',
        },
        tenant: { id: fx.acme.id, display: 'Acme', slug: 'acme' },
        status: { value: 'active', label: 'Active' },
        commit_rate: 10000,
        install_date: '2024-03-01',
        termination_date: null,
      });
      expect(fx.c3).toMatchObject({
        provider: { id: fx.zayo.id },
        type: { id: fx.transit.id },
        status: { value: 'active', label: 'Active' },
      });
      expect(
        (await seeded.db.query('SELECT provider_id, type_id, tenant_id, status FROM circuits_circuit WHERE id = $1', [fx.c1.id])).rows,
      ).toEqual([{ provider_id: fx.level3.id, type_id: fx.transit.id, tenant_id: fx.acme.id, status: 'active' }]);
    });

    it('a cid is unique per provider, not globally', async () => {
      const before = await count('circuits_circuit');
      const duplicate = await api.post(CIRCUITS, { cid: 'L3-1001', provider: fx.level3.id, type: fx.wave.id });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ non_field_errors: ['The fields provider, cid must make a unique set.'] });
      const moved = await api.patch(`${CIRCUITS}${fx.c2.id}/`, { cid: 'L3-1001' });
      expect(moved.status).toBe(400);
      expect(moved.body).toEqual({ non_field_errors: ['The fields provider, cid must make a unique set.'] });
      expect(await count('circuits_circuit')).toBe(before);
      const elsewhere = await api.created(CIRCUITS, { cid: 'L3-1001', provider: fx.zayo.id, type: fx.wave.id });
      expect(elsewhere.provider).toMatchObject({ id: fx.zayo.id });
      expect((await api.delete(`${CIRCUITS}${elsewhere.id}/`)).status).toBe(204);
    });

    it('validation: unknown status, missing provider/type/cid, bad date, negative commit rate', async () => {
      const before = await count('circuits_circuit');
      const status = await api.post(CIRCUITS, { cid: 'X-1', provider: fx.level3.id, type: fx.wave.id, status: 'up' });
      expect(status.status).toBe(400);
      expect(status.body).toEqual({ status: ['"up" is not a valid choice.'] });
      const missing = await api.post(CIRCUITS, {});
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        cid: ['This field is required.'],
        provider: ['This field is required.'],
        type: ['This field is required.'],
      });
      const values = await api.post(CIRCUITS, {
        cid: 'X-2',
        provider: fx.level3.id,
        type: fx.wave.id,
        install_date: '2024-02-30',
        commit_rate: -1,
      });
      expect(values.status).toBe(400);
      expect(values.body).toEqual({
        install_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
        commit_rate: ['Ensure this value is greater than or equal to 0.'],
      });
      expect(await count('circuits_circuit')).toBe(before);
      for (const [value, label] of [
        ['provisioning', 'Provisioning'],
        ['offline', 'Offline'],
        ['deprovisioning', 'Deprovisioning'],
        ['decommissioned', 'Decommissioned'],
      ]) {
        const patched = await api.patch(`${CIRCUITS}${fx.c2.id}/`, { status: value });
        expect(patched.body.status).toEqual({ value, label });
      }
      await api.patch(`${CIRCUITS}${fx.c2.id}/`, { status: 'planned' });
    });

    it('filters circuits by provider (slug), provider_id, type, status, tenant, cid and q', async () => {
      expect(await listed(`${CIRCUITS}?provider=level3`)).toEqual(['L3-1001', 'L3-1002']);
      expect(await listed(`${CIRCUITS}?provider_id=${fx.zayo.id}`)).toEqual(['ZY-77']);
      expect(await listed(`${CIRCUITS}?type=transit`)).toEqual(['L3-1001', 'ZY-77']);
      expect(await listed(`${CIRCUITS}?type_id=${fx.wave.id}&status=planned`)).toEqual(['L3-1002']);
      expect(await listed(`${CIRCUITS}?status=active&status=planned&provider=level3`)).toEqual(['L3-1001', 'L3-1002']);
      expect(await listed(`${CIRCUITS}?tenant=acme`)).toEqual(['L3-1001']);
      expect(await listed(`${CIRCUITS}?cid__isw=l3-`)).toEqual(['L3-1001', 'L3-1002']);
      expect(await listed(`${CIRCUITS}?q=zy-7`)).toEqual(['ZY-77']);
      for (const [query, param] of [
        ['provider=att', 'provider'],
        ['status=up', 'status'],
        ['type=mpls', 'type'],
      ]) {
        const response = await api.get(`${CIRCUITS}?${query}`);
        expect({ query, status: response.status, keys: Object.keys(response.body) }).toEqual({ query, status: 400, keys: [param] });
      }
    });

    it('PROTECT: a provider, circuit type or tenant in use cannot be deleted (409 naming the circuit)', async () => {
      const changesBefore = await count('core_objectchange');
      for (const path of [`${PROVIDERS}${fx.level3.id}/`, `${CIRCUIT_TYPES}${fx.wave.id}/`, `${TENANTS}${fx.acme.id}/`]) {
        const response = await api.delete(path);
        expect({ path, status: response.status, body: response.body }).toEqual({
          path,
          status: 409,
          body: { detail: expect.stringMatching(/^Unable to delete object\. .*circuit L3-100[12]/) },
        });
      }
      expect(await count('circuits_provider', 'WHERE id = $1', [fx.level3.id])).toBe(1);
      expect(await count('core_objectchange')).toBe(changesBefore);
    });
  });

  describe('circuit terminations and cables', () => {
    const at = (type: string, object: { id: number }) => ({ termination_type: type, termination_id: object.id });

    it('an A and a Z side, terminating on a site or a location (NetBox 4.2); read with circuit and termination nested', async () => {
      fx.termA = await api.created(TERMINATIONS, {
        circuit: fx.c1.id,
        term_side: 'A',
        ...at('dcim.site', fx.pop1),
        port_speed: 10000000,
        xconnect_id: 'XC-42',
      });
      fx.termZ = await api.created(TERMINATIONS, { circuit: fx.c1.id, term_side: 'Z', ...at('dcim.location', fx.mmr) });
      const response = await api.get(`${TERMINATIONS}${fx.termA.id}/`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        id: fx.termA.id,
        url: url(TERMINATIONS, fx.termA.id),
        term_side: { value: 'A', label: 'A' },
        circuit: { id: fx.c1.id, url: url(CIRCUITS, fx.c1.id), display: 'L3-1001', cid: 'L3-1001' },
        termination_type: 'dcim.site',
        termination_id: fx.pop1.id,
        termination: { id: fx.pop1.id, url: url(SITES, fx.pop1.id), display: 'POP1', name: 'POP1', slug: 'pop1' },
        port_speed: 10000000,
        xconnect_id: 'XC-42',
        cable: null,
        cable_end: null,
      });
      expect(fx.termZ).toMatchObject({
        term_side: { value: 'Z', label: 'Z' },
        termination_type: 'dcim.location',
        termination: { id: fx.mmr.id, url: url(LOCATIONS, fx.mmr.id), name: 'Meet-me room' },
      });
      const stored = await seeded.db.query(
        `SELECT t.app_label || '.' || t.model AS type, ct.termination_id FROM circuits_circuittermination ct
           JOIN core_objecttype t ON t.id = ct.termination_type_id WHERE ct.id = $1`,
        [fx.termZ.id],
      );
      expect(stored.rows).toEqual([{ type: 'dcim.location', termination_id: fx.mmr.id }]);
      expect(await listed(`${TERMINATIONS}?circuit_id=${fx.c1.id}`, 'id')).toEqual([fx.termA.id, fx.termZ.id]);
      expect(await listed(`${TERMINATIONS}?circuit_id=${fx.c1.id}&term_side=Z`, 'id')).toEqual([fx.termZ.id]);
      expect(await listed(`${TERMINATIONS}?termination_type=dcim.site&termination_id=${fx.pop1.id}`, 'id')).toEqual([fx.termA.id]);
    });

    // NetBox 4.2 caches the termination's site and location (_site, _location) and filters by them.
    it('filters terminations by site and location (of what they terminate on)', async () => {
      expect(await listed(`${TERMINATIONS}?site_id=${fx.pop1.id}`, 'id')).toEqual([fx.termA.id]);
      expect(await listed(`${TERMINATIONS}?site=pop2`, 'id')).toEqual([fx.termZ.id]);
      expect(await listed(`${TERMINATIONS}?location_id=${fx.mmr.id}`, 'id')).toEqual([fx.termZ.id]);
    });

    it('one termination per side of a circuit; the side is A or Z', async () => {
      const before = await count('circuits_circuittermination');
      const again = await api.post(TERMINATIONS, { circuit: fx.c1.id, term_side: 'A', ...at('dcim.site', fx.pop2) });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ non_field_errors: ['The fields circuit, term_side must make a unique set.'] });
      const side = await api.post(TERMINATIONS, { circuit: fx.c2.id, term_side: 'B', ...at('dcim.site', fx.pop2) });
      expect(side.status).toBe(400);
      expect(side.body).toEqual({ term_side: ['"B" is not a valid choice.'] });
      const noCircuit = await api.post(TERMINATIONS, { term_side: 'A' });
      expect(noCircuit.status).toBe(400);
      expect(noCircuit.body).toEqual({ circuit: ['This field is required.'] });
      expect(await count('circuits_circuittermination')).toBe(before);
    });

    it('a termination points at a site, location, region or site group: another type or a missing object is a 400', async () => {
      const before = await count('circuits_circuittermination');
      const device = await api.post(TERMINATIONS, { circuit: fx.c2.id, term_side: 'A', ...at('dcim.device', fx.router) });
      expect(device.status).toBe(400);
      expect(Object.keys(device.body)).toEqual(['termination_type']);
      const missing = await api.post(TERMINATIONS, {
        circuit: fx.c2.id,
        term_side: 'A',
        termination_type: 'dcim.site',
        termination_id: 999999,
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ termination_id: ['No site with ID 999999 exists.'] });
      const half = await api.post(TERMINATIONS, { circuit: fx.c2.id, term_side: 'A', termination_type: 'dcim.site' });
      expect(half.status).toBe(400);
      expect(half.body).toEqual({ termination_id: ['termination_type and termination_id must be given together.'] });
      expect(await count('circuits_circuittermination')).toBe(before);

      const region = await api.created('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
      const regional = await api.created(TERMINATIONS, { circuit: fx.c2.id, term_side: 'A', ...at('dcim.region', region) });
      expect(regional).toMatchObject({ termination_type: 'dcim.region', termination: { id: region.id, name: 'Europe' } });
      // Moving the Z side from its location to a site.
      const moved = await api.patch(`${TERMINATIONS}${fx.termZ.id}/`, at('dcim.site', fx.pop2));
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ termination_type: 'dcim.site', termination_id: fx.pop2.id, termination: { name: 'POP2' } });
      expect((await api.patch(`${TERMINATIONS}${fx.termZ.id}/`, at('dcim.location', fx.mmr))).status).toBe(200);
    });

    it('cables a device interface to a circuit termination: the termination reads its cable nested', async () => {
      const cable = await api.created(CABLES, {
        type: 'smf-os2',
        label: 'XC-42',
        a_terminations: [{ object_type: 'dcim.interface', object_id: fx.uplink.id }],
        b_terminations: [{ object_type: 'circuits.circuittermination', object_id: fx.termA.id }],
      });
      fx.cable = cable;
      expect(cable.b_terminations).toEqual([
        {
          object_type: 'circuits.circuittermination',
          object_id: fx.termA.id,
          object: expect.objectContaining({
            id: fx.termA.id,
            url: url(TERMINATIONS, fx.termA.id),
            circuit: expect.objectContaining({ id: fx.c1.id, cid: 'L3-1001' }),
          }),
          positions: null,
          connector: null,
        },
      ]);
      const termination = await api.get(`${TERMINATIONS}${fx.termA.id}/`);
      expect(termination.body).toMatchObject({
        cable: { id: cable.id, url: url(CABLES, cable.id), display: 'XC-42', label: 'XC-42' },
        cable_end: 'B',
      });
      expect((await api.get(`${INTERFACES}${fx.uplink.id}/`)).body).toMatchObject({ cable: { id: cable.id }, cable_end: 'A' });
      expect(
        (await seeded.db.query('SELECT cable_id, cable_end FROM circuits_circuittermination WHERE id = $1', [fx.termA.id])).rows,
      ).toEqual([{ cable_id: cable.id, cable_end: 'B' }]);
      const stored = await seeded.db.query(
        `SELECT ct.cable_end, t.app_label || '.' || t.model AS type, ct.termination_id FROM dcim_cabletermination ct
           JOIN core_objecttype t ON t.id = ct.termination_type_id WHERE ct.cable_id = $1 ORDER BY ct.cable_end`,
        [cable.id],
      );
      expect(stored.rows).toEqual([
        { cable_end: 'A', type: 'dcim.interface', termination_id: fx.uplink.id },
        { cable_end: 'B', type: 'circuits.circuittermination', termination_id: fx.termA.id },
      ]);
      expect(await listed(`${TERMINATIONS}?cable_id=${cable.id}`, 'id')).toEqual([fx.termA.id]);
    });

    it('refuses a cable to a termination already cabled, to an unknown one, or to terminations of two circuits', async () => {
      const before = await count('dcim_cable');
      const taken = await api.post(CABLES, {
        a_terminations: [{ object_type: 'dcim.interface', object_id: fx.uplink2.id }],
        b_terminations: [{ object_type: 'circuits.circuittermination', object_id: fx.termA.id }],
      });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({
        b_terminations: [`circuits.circuittermination ${fx.termA.id} is already connected to cable ${fx.cable.id}.`],
      });
      const unknown = await api.post(CABLES, {
        a_terminations: [{ object_type: 'dcim.interface', object_id: fx.uplink2.id }],
        b_terminations: [{ object_type: 'circuits.circuittermination', object_id: 999999 }],
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ b_terminations: ['No circuits.circuittermination with ID 999999 exists.'] });
      const other = await api.created(TERMINATIONS, {
        circuit: fx.c3.id,
        term_side: 'A',
        termination_type: 'dcim.site',
        termination_id: fx.pop1.id,
      });
      const split = await api.post(CABLES, {
        a_terminations: [{ object_type: 'dcim.interface', object_id: fx.uplink2.id }],
        b_terminations: [
          { object_type: 'circuits.circuittermination', object_id: fx.termZ.id },
          { object_type: 'circuits.circuittermination', object_id: other.id },
        ],
      });
      expect(split.status).toBe(400);
      expect(split.body).toEqual({ b_terminations: ['All terminations of one cable end must belong to the same circuit.'] });
      expect(await count('dcim_cable')).toBe(before);
    });

    // NetBox 4.2: CircuitTermination._site and ._location are ForeignKeys with on_delete=CASCADE.
    it('deleting the site a termination points at deletes the termination (no dangling reference)', async () => {
      const site = await api.created(SITES, { name: 'POP9', slug: 'pop9' });
      const circuit = await api.created(CIRCUITS, { cid: 'ZY-99', provider: fx.zayo.id, type: fx.wave.id });
      const termination = await api.created(TERMINATIONS, {
        circuit: circuit.id,
        term_side: 'A',
        termination_type: 'dcim.site',
        termination_id: site.id,
      });
      const response = await api.delete(`${SITES}${site.id}/`);
      expect(response.status).toBe(204);
      expect(await count('circuits_circuittermination', 'WHERE id = $1', [termination.id])).toBe(0);
      expect((await api.get(`${TERMINATIONS}${termination.id}/`)).status).toBe(404);
    });

    it('deleting the cable frees the termination; deleting a circuit deletes its terminations (CASCADE), each recorded', async () => {
      expect((await api.delete(`${CABLES}${fx.cable.id}/`)).status).toBe(204);
      expect((await api.get(`${TERMINATIONS}${fx.termA.id}/`)).body).toMatchObject({ cable: null, cable_end: null });

      const response = await api.delete(`${CIRCUITS}${fx.c1.id}/`);
      expect(response.status).toBe(204);
      expect(await count('circuits_circuittermination', 'WHERE circuit_id = $1', [fx.c1.id])).toBe(0);
      const changes = await seeded.db.query(
        `SELECT t.model, c.changed_object_id AS id, rt.model AS related_model, c.related_object_id
           FROM core_objectchange c JOIN core_objecttype t ON t.id = c.changed_object_type_id
           LEFT JOIN core_objecttype rt ON rt.id = c.related_object_type_id
          WHERE c.action = 'delete' AND c.request_id = $1 ORDER BY t.model, c.changed_object_id`,
        [response.headers.get('x-request-id')],
      );
      expect(changes.rows).toEqual([
        { model: 'circuit', id: fx.c1.id, related_model: null, related_object_id: null },
        { model: 'circuittermination', id: fx.termA.id, related_model: 'circuit', related_object_id: fx.c1.id },
        { model: 'circuittermination', id: fx.termZ.id, related_model: 'circuit', related_object_id: fx.c1.id },
      ]);
      // With its circuits gone, the provider can go too... once the other circuits are deleted.
      await api.delete(`${CIRCUITS}${fx.c2.id}/`);
      expect((await api.delete(`${PROVIDERS}${fx.level3.id}/`)).status).toBe(204);
    });
  });
});
